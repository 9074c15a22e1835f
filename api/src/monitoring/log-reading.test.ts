import v8 from 'node:v8';
import vm from 'node:vm';
import { parseNodeLog } from '../domain/amos';
import { KeptStrings, keptOf, readNodeLog, STORED_ATTRIBUTES } from './log-reading';

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

describe('the texts a parse holds', () => {
  it('are held once per distinct value across the logs of a parse, with the values the parser read', () => {
    const strings = new KeptStrings();
    const first = readNodeLog(Buffer.from(LOG), 'logs.zip', 'LX0001.log', {}, strings).result;
    // The command, the attribute names and their values: `tac` and `cellBarred`, `3100` and `1 (NOT_BARRED)`.
    const distinct = strings.size;
    expect(distinct).toBeGreaterThanOrEqual(5);
    // The same node read again (a second archive of the same parse) adds no value the table holds already.
    const again = readNodeLog(Buffer.from(LOG), 'more.zip', 'LX0001.log', {}, strings).result;
    expect(strings.size).toBe(distinct);
    expect(again.attributes.map((a) => [a.command, a.attribute, a.value])).toEqual(first.attributes.map((a) => [a.command, a.attribute, a.value]));
    expect(first.attributes).toEqual(
      keptOf(parseNodeLog(LOG, { archive: 'logs.zip', file: 'LX0001.log' }, { keepAttributes: STORED_ATTRIBUTES })).result.attributes,
    );
    // Another node's log adds only what it says differently (its cell's barred value).
    readNodeLog(Buffer.from(LOG.replace(/LX0001/g, 'LX0003').replace('1 (NOT_BARRED)', '0 (BARRED)')), 'logs.zip', 'LX0003.log', {}, strings);
    expect(strings.size).toBe(distinct + 1);
  });
});

describe('memory', () => {
  it("what is kept of a log no longer holds the log's text", () => {
    v8.setFlagsFromString('--expose-gc');
    const collect = vm.runInNewContext('gc') as () => void;
    // 20 MB of output of a command the job does not keep, after the rows it does keep.
    const tail = `\r\nLX0001> lgo\r\n${`${'x'.repeat(99)}\r\n`.repeat(200_000)}`;
    collect();
    const before = process.memoryUsage().heapUsed;
    const kept = keptOf(parseNodeLog(LOG + tail, { archive: 'logs.zip', file: 'LX0001.log' }, { rawLineLimit: 1 }));
    // The parser remembers the last MO it read (tables repeat it): another log's read lets that go.
    parseNodeLog(LOG.replace('LX0001', 'LX0003'), { archive: 'logs.zip', file: 'LX0003.log' });
    collect();
    const held = process.memoryUsage().heapUsed - before;
    expect(kept.result.attributes.map((a) => a.mo)).toEqual(['ENodeBFunction=1,EUtranCellFDD=LX0001_L800_1', 'ENodeBFunction=1,EUtranCellFDD=LX0001_L800_1']);
    expect(kept.result.blocks.map((b) => b.command)).toContain('lgo');
    expect(held).toBeLessThan(2_000_000);
  });
});
