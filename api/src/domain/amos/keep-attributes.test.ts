/*
 * ParseOptions.keepAttributes: the parse job builds only the values it stores. Whatever it skips must
 * leave the rest of the result exactly as a full parse would, problems included, so these tests compare
 * a filtered parse with a full parse filtered afterwards, on the fixtures and on damaged copies of them.
 */
import { CPP_LOG, LTE_LOG } from './__tests__/fixtures';
import { parseNodeLog } from './node-log';
import { type MoTech, type NodeLogResult } from './types';

const SRC = { archive: 'logs.zip', file: 'LX0001.log' };

/** What a full parse says once the values outside `keep` are dropped, and the technologies of those (own node only). */
function filteredAfterwards(text: string, keep: ReadonlySet<string>): { result: NodeLogResult; techs: MoTech[] } {
  const full = parseNodeLog(text, SRC);
  const own = full.node.toLowerCase();
  const techs = new Set<MoTech>();
  for (const a of full.attributes) {
    if (!keep.has(a.attribute) && a.tech !== 'site' && a.node.toLowerCase() === own) techs.add(a.tech);
  }
  return { result: { ...full, attributes: full.attributes.filter((a) => keep.has(a.attribute)) }, techs: [...techs].sort() };
}

function expectSameAsFilteredAfterwards(text: string, keep: ReadonlySet<string>): NodeLogResult {
  const skipped = parseNodeLog(text, SRC, { keepAttributes: keep });
  const { result, techs } = filteredAfterwards(text, keep);
  expect({ ...skipped, skippedAttributeTechs: [] }).toEqual({ ...result, skippedAttributeTechs: [] });
  expect([...skipped.skippedAttributeTechs].sort()).toEqual(techs);
  return skipped;
}

const RELATIONS = [
  'LX0001> get EUtranCellRelation=[^,]+$ ^(isHoAllowed|neighborCellRef)$',
  '',
  '250310-05:03:12+0000 10.20.0.1 24.0c MSRBS_NODE_MODEL_24.Q1 stopfile=/tmp/1',
  '=================================================================================',
  'MO                                                                                          Attribute        Value',
  '=================================================================================',
  'ENodeBFunction=1,EUtranCellFDD=LX0001_L800_1,EUtranFreqRelation=6300,EUtranCellRelation=1   isHoAllowed      true',
  'ENodeBFunction=1,EUtranCellFDD=LX0001_L800_1,EUtranFreqRelation=6300,EUtranCellRelation=1   neighborCellRef  [2] =',
  ' >>> neighborCellRef = ExternalENodeBFunction=LX0002,ExternalEUtranCellFDD=LX0002_1',
  'ENodeBFunction=1,EUtranCellFDD=LX0001_L800_1,EUtranFreqRelation=6300,EUtranCellRelation=2   isHoAllowed      false',
  'ENodeBFunction=1,EUtranCellFDD=LX0001_L800_1,EUtranFreqRelation=6300,EUtranCellRelation=2   neighborCellRef  ExternalENodeBFunction=LX0003,',
  '                                                                                            ExternalEUtranCellFDD=LX0003_2',
  'GNBCUCPFunction=1,NRCellCU=LX0001_N78_1,NRCellRelation=9                                   isHoAllowed      true',
  '=================================================================================',
  'Total: 4 MOs',
  '',
  'LX0001> get RetSubUnit=1 ^(userLabel)$',
  '',
  '=================================================================================',
  'MO                                                Attribute        Value',
  '=================================================================================',
  'AntennaUnitGroup=1,AntennaNearUnit=1,RetSubUnit=1 userLabel        S1_RET',
  '=================================================================================',
  'Total: 1 MOs',
  '',
  'LX0001> q',
].join('\n');

describe('parseNodeLog with keepAttributes', () => {
  const keep = new Set(['cellBarred', 'tac', 'electricalAntennaTilt']);

  it('returns only the kept values, and otherwise what a full parse returns', () => {
    for (const log of [LTE_LOG, CPP_LOG, RELATIONS, `${RELATIONS.replaceAll('\n', '\r\n')}\r\n`]) expectSameAsFilteredAfterwards(log, keep);
    const r = parseNodeLog(LTE_LOG, SRC, { keepAttributes: keep });
    expect(r.attributes.length).toBeGreaterThan(0);
    expect(r.attributes.every((a) => keep.has(a.attribute))).toBe(true);
  });

  it('still checks what it skips: [n] against the >>> lines and Total against the MOs', () => {
    const r = expectSameAsFilteredAfterwards(RELATIONS, keep);
    expect(r.attributes).toEqual([]);
    expect(r.problems.map((p) => [p.kind, p.reason, p.source.line])).toEqual([
      [
        'count-mismatch',
        'neighborCellRef of ENodeBFunction=1,EUtranCellFDD=LX0001_L800_1,EUtranFreqRelation=6300,EUtranCellRelation=1 says [2], items read: 1',
        8,
      ],
      ['count-mismatch', 'footer says 4 MOs, MOs read: 3', 15],
    ]);
  });

  it('names the technologies of the MOs it skipped, 4G and 5G here', () => {
    expect(parseNodeLog(RELATIONS, SRC, { keepAttributes: keep }).skippedAttributeTechs.sort()).toEqual(['4G', '5G']);
    expect(parseNodeLog(RELATIONS, SRC).skippedAttributeTechs).toEqual([]);
  });

  it('always reads RetSubUnit values into the RET rows, kept or not', () => {
    const skipped = parseNodeLog(RELATIONS, SRC, { keepAttributes: keep });
    expect(skipped.ret).toEqual(parseNodeLog(RELATIONS, SRC).ret);
    expect(skipped.ret.map((row) => row.userLabel)).toEqual(['S1_RET']);
    expect(parseNodeLog(LTE_LOG, SRC, { keepAttributes: new Set() }).ret).toEqual(parseNodeLog(LTE_LOG, SRC).ret);
  });

  it('leaves a foreign node out of the technologies', () => {
    const foreign = RELATIONS.replace('LX0001> get EUtranCellRelation', 'LX0009> get EUtranCellRelation');
    expect(expectSameAsFilteredAfterwards(`LX0001> lt all\n\n${foreign}`, keep).skippedAttributeTechs).toEqual([]);
  });

  it('agrees with a full parse on damaged logs: lines cut, dropped, doubled, indented, items added, binary junk', () => {
    let seed = 20261126;
    const random = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32;
    const bases = [LTE_LOG, CPP_LOG, RELATIONS];
    for (let run = 0; run < 300; run += 1) {
      const lines = bases[run % bases.length]!.split('\n');
      for (let edit = 0; edit < 3; edit += 1) {
        const at = Math.floor(random() * lines.length);
        const line = lines[at] ?? '';
        const pick = random();
        if (pick < 0.2) lines.splice(at, 1);
        else if (pick < 0.35) lines.splice(at, 0, lines[Math.floor(random() * lines.length)] ?? '');
        else if (pick < 0.5) lines[at] = line.slice(0, Math.floor(random() * 40));
        else if (pick < 0.65) lines[at] = `   ${line}`;
        else if (pick < 0.8) lines.splice(at + 1, 0, ` >>> item = ${run}`);
        else if (pick < 0.9) lines[at] = line.replace(/^(\S+=\S+\s+\S+\s+).*$/, '$1[2] =');
        else lines.splice(at, 0, '\u0000\u0001junk\u0002');
      }
      expectSameAsFilteredAfterwards(lines.join('\n'), keep);
    }
  });
});
