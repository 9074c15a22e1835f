import { type LinkInterface, type MoFacts, type MoTech } from './types';

/** `Class=id` pairs of an MO text (`ENodeBFunction=1,EUtranCellFDD=LX0001_1`); an RDN without `=` ends the list. */
export function rdns(mo: string): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  let i = 0;
  while (i < mo.length) {
    let comma = mo.indexOf(',', i);
    if (comma < 0) comma = mo.length;
    const part = mo.slice(i, comma);
    const eq = part.indexOf('=');
    if (eq <= 0 || !isClassName(part, eq)) break;
    out.push([part.slice(0, eq), part.slice(eq + 1)]);
    i = comma + 1;
  }
  return out;
}

function isClassName(s: string, end: number): boolean {
  for (let i = 0; i < end; i += 1) {
    const c = s.charCodeAt(i);
    const letter = (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
    if (i === 0 ? !letter : !(letter || (c >= 48 && c <= 57) || c === 95)) return false;
  }
  return end > 0;
}

/** True when `s` starts with `Class=` (used to find where an MO begins in an alarm row). */
export function looksLikeMo(s: string): boolean {
  const eq = s.indexOf('=');
  return eq > 0 && eq < 80 && isClassName(s, eq);
}

/** Technology named by a class: EUtranCell* → 4G, NbIotCell* → NB-IoT, NRCell* → 5G, UtranCell/NodeBLocalCell → 3G, GsmSector/Trx/GeranCell* → 2G. */
export function techOfClass(cls: string): MoTech | null {
  if (cls.startsWith('EUtranCell')) return '4G';
  if (cls.startsWith('NbIotCell')) return 'NB-IoT';
  if (cls.startsWith('NRCell')) return '5G';
  if (cls === 'UtranCell' || cls === 'NodeBLocalCell') return '3G';
  if (cls === 'GsmSector' || cls === 'Trx' || cls.startsWith('GeranCell')) return '2G';
  return null;
}

/**
 * Class, technology and cell of an MO. The technology comes from the outermost RDN with a cell class,
 * so an MO below a cell (`EUtranCellFDD=X,EUtranFreqRelation=Y`) counts for that cell; an MO with no
 * cell class is site level.
 */
export function moFacts(mo: string): MoFacts {
  // Tables print one MO on several consecutive rows (one per attribute): the last answer is reused.
  if (mo === lastMo && lastFacts) return { mo, moClass: lastFacts.moClass, tech: lastFacts.tech, cell: lastFacts.cell };
  const facts = computeFacts(mo);
  lastMo = mo;
  lastFacts = facts;
  return { mo, moClass: facts.moClass, tech: facts.tech, cell: facts.cell };
}

let lastMo: string | null = null;
let lastFacts: MoFacts | null = null;

function computeFacts(mo: string): MoFacts {
  const parts = rdns(mo);
  let tech: MoTech = 'site';
  let cell: string | null = null;
  for (const [cls, id] of parts) {
    const t = techOfClass(cls);
    if (t) {
      tech = t;
      cell = id;
      break;
    }
  }
  const last = parts[parts.length - 1];
  return { mo, moClass: last ? last[0] : null, tech, cell };
}

const LINKS: Record<string, LinkInterface> = {
  TermPointToMme: 'S1',
  TermPointToENB: 'X2',
  TermPointToGNB: 'X2',
  TermPointToENodeB: 'X2',
  TermPointToGNodeB: 'Xn',
  TermPointToAmf: 'NG',
  TermPointToGNBDU: 'F1',
  TermPointToGNBCUCP: 'F1',
  IubLink: 'Iub',
  Iub: 'Iub',
  AbisIp: 'Abis',
};

/** Interface of a termination point / link MO, from its deepest RDN that names one; null otherwise. */
export function linkOf(mo: string): LinkInterface | null {
  const parts = rdns(mo);
  for (let i = parts.length - 1; i >= 0; i -= 1) {
    const link = LINKS[parts[i]![0]];
    if (link) return link;
  }
  return null;
}
