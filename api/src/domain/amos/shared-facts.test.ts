import { DistinctMos } from './attributes';
import { linkOf, moFacts, rdns, sharedMoFacts, techOfClass } from './mo';

/** The facts of an MO as their definition says: from its RDN pairs. */
function reference(mo: string): { moClass: string | null; tech: string; cell: string | null; link: string | null } {
  const pairs = rdns(mo);
  const cellPair = pairs.find(([cls]) => techOfClass(cls) !== null);
  return {
    moClass: pairs.length > 0 ? pairs[pairs.length - 1]![0] : null,
    tech: cellPair ? techOfClass(cellPair[0])! : 'site',
    cell: cellPair ? cellPair[1] : null,
    link: linkOf(mo),
  };
}

// Sequences of MOs like those of real tables (siblings, parents, odd texts), in a fixed pseudo-random order.
const PARTS = [
  'ENodeBFunction=1',
  'EUtranCellFDD=C1',
  'EUtranCellFDD=C2',
  'NRCellDU=N',
  'TermPointToMme=M',
  'IubLink=I',
  'x=1',
  '=2',
  'Foo',
  'RetSubUnit=1',
  'EUtranCellRelation=R,1',
  'A=b=c',
  '',
];
function sequence(seed: number, count: number): string[] {
  let s = seed;
  const next = (n: number): number => {
    s = (s * 1103515245 + 12345) & 0x7fffffff;
    return s % n;
  };
  const out: string[] = [];
  let last = 'ENodeBFunction=1,EUtranCellFDD=C1';
  for (let k = 0; k < count; k += 1) {
    const r = next(4);
    if (r === 0) out.push(last);
    else if (r === 1) out.push(last.slice(0, last.lastIndexOf('=') + 1) + String(next(5)));
    else {
      const depth = 1 + next(4);
      last = Array.from({ length: depth }, () => PARTS[next(PARTS.length)]).join(',');
      out.push(last);
    }
  }
  return out;
}

describe('sharedMoFacts', () => {
  it('gives the facts of every MO of a sequence, whatever came before', () => {
    for (let seed = 1; seed <= 20; seed += 1) {
      for (const mo of sequence(seed, 300)) {
        const f = sharedMoFacts(` ${mo}`.slice(1)); // a fresh string each time, as cut from a line
        expect({ mo: f.mo, moClass: f.moClass, tech: f.tech, cell: f.cell, link: f.link }).toEqual({ mo, ...reference(mo) });
        expect(moFacts(mo)).toEqual({ mo, moClass: f.moClass, tech: f.tech, cell: f.cell });
      }
    }
  });
});

describe('DistinctMos', () => {
  it('counts what a Set counts', () => {
    for (let seed = 1; seed <= 20; seed += 1) {
      const distinct = new DistinctMos();
      const set = new Set<string>();
      for (const mo of sequence(seed, 300)) {
        distinct.add(mo, sharedMoFacts(mo).head);
        set.add(mo);
        expect(distinct.size).toBe(set.size);
      }
      distinct.clear();
      expect(distinct.size).toBe(0);
    }
  });
});
