import { parseNodeLog } from '../domain/amos';
import { keptOf, readNodeLog, STORED_ATTRIBUTES } from './log-reading';

// A node log as moshell prints it: a checked cell attribute table, a relation table the job never
// stores, and a foreign node's prompt (multi-node output pasted into one file).
const LOG = [
  'LX0001> get EUtranCell(FDD|TDD)=[^,]+$ ^(cellBarred|tac)$',
  '',
  '250310-05:03:11+0000 10.20.0.1 24.0c MSRBS_NODE_MODEL_24.Q1 stopfile=/tmp/1',
  '=================================================================================',
  'MO                                              Attribute     Value',
  '=================================================================================',
  'ENodeBFunction=1,EUtranCellFDD=LX0001_L800_1    cellBarred    1 (NOT_BARRED)',
  'ENodeBFunction=1,EUtranCellFDD=LX0001_L800_1    tac           3100',
  '=================================================================================',
  'Total: 1 MOs',
  '',
  'LX0001> get EUtranCellRelation=[^,]+$ ^(isHoAllowed)$',
  '',
  '250310-05:03:12+0000 10.20.0.1 24.0c MSRBS_NODE_MODEL_24.Q1 stopfile=/tmp/1',
  '=================================================================================',
  'MO                                                                                  Attribute     Value',
  '=================================================================================',
  'ENodeBFunction=1,EUtranCellFDD=LX0001_L800_1,EUtranFreqRelation=6300,EUtranCellRelation=1   isHoAllowed   true',
  'ENodeBFunction=1,EUtranCellFDD=LX0001_L800_1,EUtranFreqRelation=6300,EUtranCellRelation=2   isHoAllowed   false',
  '=================================================================================',
  'Total: 2 MOs',
  '',
  'LX0002> get EUtranCell(FDD|TDD)=[^,]+$ ^(cellBarred)$',
  '',
  '250310-05:03:13+0000 10.20.0.2 24.0c MSRBS_NODE_MODEL_24.Q1 stopfile=/tmp/1',
  '=================================================================================',
  'MO                                              Attribute     Value',
  '=================================================================================',
  'ENodeBFunction=1,EUtranCellFDD=LX0002_L800_1    cellBarred    0 (BARRED)',
  '=================================================================================',
  'Total: 1 MOs',
  '',
].join('\r\n');

describe('what the parse job keeps of a node log', () => {
  const full = parseNodeLog(LOG, { archive: 'logs.zip', file: 'LX0001.log' });
  const { result, droppedAttributeTechs } = keptOf(full);

  it('keeps the checked attributes of its own node and drops the rest, remembering their technologies', () => {
    expect(full.attributes.map((a) => a.attribute)).toEqual(['cellBarred', 'tac', 'isHoAllowed', 'isHoAllowed', 'cellBarred']);
    expect(result.attributes.map((a) => [a.attribute, a.value, a.source.line])).toEqual([
      ['cellBarred', '1 (NOT_BARRED)', 7],
      ['tac', '3100', 8],
    ]);
    expect(result.attributes.every((a) => STORED_ATTRIBUTES.has(a.attribute))).toBe(true);
    expect(droppedAttributeTechs).toEqual(['4G']);
  });

  it("drops the foreign node's blocks but keeps its prompt problem", () => {
    expect(result.node).toBe('LX0001');
    expect(result.blocks.map((b) => b.node)).toEqual(['LX0001', 'LX0001']);
    expect(result.problems.map((p) => p.kind)).toEqual(['foreign-node']);
  });

  it('keeps strings and dates as the parser read them', () => {
    expect(result.attributes[0]!.mo).toBe('ENodeBFunction=1,EUtranCellFDD=LX0001_L800_1');
    expect(result.header?.at).toEqual(full.header?.at);
    expect(result.header?.at).toBeInstanceOf(Date);
  });

  it('reads the bytes of a log as UTF-8, wherever they sit in their buffer', () => {
    const bytes = Buffer.from(`junk${LOG}`, 'utf8').subarray(4);
    expect(readNodeLog(bytes, 'logs.zip', 'LX0001.log')).toEqual({ result, droppedAttributeTechs });
  });
});
