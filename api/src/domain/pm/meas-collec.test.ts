import { ANNEX_STYLE_FILE, ericssonLteFile } from './fixtures';
import { nodeOfDn, PmParseError, readMeasCollec, type MeasValue } from './meas-collec';
import { PmVerdicts } from './verdict';

async function read(text: string, chunk = 0): Promise<MeasValue[]> {
  const values: MeasValue[] = [];
  // Cut into small chunks when asked, so tags and texts straddle chunk borders.
  const chunks = chunk > 0 ? Array.from({ length: Math.ceil(text.length / chunk) }, (_, i) => Buffer.from(text.slice(i * chunk, (i + 1) * chunk))) : [text];
  await readMeasCollec(chunks, (v) => values.push(v));
  return values;
}

async function verdictsOf(...files: string[]) {
  const verdicts = new PmVerdicts();
  for (const file of files) await readMeasCollec([file], (v) => verdicts.add(v));
  return verdicts.verdicts();
}

describe('readMeasCollec', () => {
  it('reads the measType p / r p layout with the node from the file sender (Ericsson flavour)', async () => {
    const file = ericssonLteFile('LX0001', [{ end: '2024-03-05T10:15:00+00:00', cells: [{ cell: 'LX0001_1', rrcSucc: 99, rrcAtt: 100, downtimeAuto: 0 }] }]);
    const values = await read(file, 37);
    expect(values).toHaveLength(1);
    expect(values[0]).toMatchObject({
      node: 'LX0001',
      object: 'ManagedElement=1,ENodeBFunction=1,EUtranCellFDD=LX0001_1',
      cell: 'LX0001_1',
      endTime: '2024-03-05T10:15:00+00:00',
      suspect: false,
    });
    expect(Object.fromEntries(values[0]!.counters)).toEqual({ pmCellDowntimeAuto: 0, pmRrcConnEstabSucc: 99, pmRrcConnEstabAtt: 100 });
  });

  it('reads the measTypes / measResults layout with prefixes, NIL and suspect', async () => {
    const values = await read(ANNEX_STYLE_FILE, 64);
    expect(values.map((v) => [v.node, v.cell, v.suspect])).toEqual([
      ['LX0002', 'LX0002_1', false],
      ['LX0002', 'LX0002_2', true],
    ]);
    expect(values[0]!.counters.get('pmCounterOther')).toBeNull();
    expect(values[1]!.counters.get('pmRrcConnEstabSucc')).toBe(950);
  });

  it('takes the node from the object DN when it names one', async () => {
    const text = ericssonLteFile('LX0001', [{ end: '2024-03-05T10:15:00Z', cells: [{ cell: 'X_1', rrcAtt: 1, rrcSucc: 1 }] }]).replace(
      'ManagedElement=1,ENodeBFunction=1',
      'ManagedElement=LX0009,ENodeBFunction=1',
    );
    expect((await read(text))[0]!.node).toBe('LX0009');
    expect(nodeOfDn('SubNetwork=A,MeContext=NODE_A,ManagedElement=1')).toBe('NODE_A');
    expect(nodeOfDn('ManagedElement=1')).toBeNull();
  });

  it.each([
    ['not XML', 'hello', /Line 1: /],
    ['another root', '<?xml version="1.0"?>\n<bulkCmConfigDataFile/>', /Line 2: the root element is <bulkCmConfigDataFile>/],
    ['a broken tag', '<measCollecFile>\n<measData>\n<measInfo>\n</measData>', /Line 4: malformed XML/],
    ['a truncated file', '<measCollecFile>\n<measData>\n', /unexpected end of file|malformed XML/],
    [
      'results that do not match the types',
      '<measCollecFile><measData><managedElement localDn="ManagedElement=N1"/><measInfo>\n<measTypes>a b</measTypes>\n<measValue measObjLdn="C=1"><measResults>1</measResults></measValue></measInfo></measData></measCollecFile>',
      /Line 3: measResults has 1 values for 2 measTypes/,
    ],
    [
      'an r without its measType',
      '<measCollecFile><measData><managedElement localDn="ManagedElement=N1"/><measInfo>\n<measType p="1">a</measType>\n<measValue measObjLdn="C=1"><r p="2">1</r></measValue></measInfo></measData></measCollecFile>',
      /Line 3: r p="2" has no measType p="2"/,
    ],
  ])('refuses %s with the line', async (_name, text, message) => {
    const error = await read(text).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PmParseError);
    expect((error as Error).message).toMatch(message);
  });
});

describe('PmVerdicts', () => {
  it('is NOK for a cell that was down, naming the cell and the seconds', async () => {
    const file = ericssonLteFile('LX0001', [
      { end: '2024-03-05T10:15:00+00:00', cells: [{ cell: 'LX0001_1', downtimeAuto: 0, rrcSucc: 100, rrcAtt: 100 }] },
      { end: '2024-03-05T10:30:00+00:00', cells: [{ cell: 'LX0001_1', downtimeAuto: 120, rrcSucc: 100, rrcAtt: 100 }] },
    ]);
    expect(await verdictsOf(file)).toEqual([
      { node: 'LX0001', status: 'NOK', comments: 'LX0001_1: cell down 120 s (pmCellDowntimeAuto)', measuredAt: '2024-03-05T10:30:00.000Z' },
    ]);
  });

  it('sums the periods before judging the success rates (98 % threshold)', async () => {
    // 97 + 99 of 100 + 100 = 98 %: exactly the threshold passes; E-RAB 1,950 / 2,000 = 97.5 % fails.
    const file = ericssonLteFile('LX0003', [
      { end: '2024-03-05T10:15:00Z', cells: [{ cell: 'LX0003_1', rrcSucc: 97, rrcAtt: 100, erabSucc: 975, erabAtt: 1000 }] },
      { end: '2024-03-05T10:30:00Z', cells: [{ cell: 'LX0003_1', rrcSucc: 99, rrcAtt: 100, erabSucc: 975, erabAtt: 1000 }] },
    ]);
    const [verdict] = await verdictsOf(file);
    expect(verdict).toMatchObject({ node: 'LX0003', status: 'NOK' });
    expect(verdict!.comments).toBe('LX0003_1: E-RAB setup success 97.5 % (pmErabEstabSuccInit 1950 / pmErabEstabAttInit 2000)');
  });

  it('is OK when the counters are there and fine, and says nothing of nodes without them', async () => {
    const good = ericssonLteFile('LX0004', [
      {
        end: '2024-03-05T10:15:00Z',
        cells: [
          { cell: 'A', rrcSucc: 100, rrcAtt: 100 },
          { cell: 'B', downtimeMan: 0 },
        ],
      },
    ]);
    const other =
      '<measCollecFile><measData><managedElement localDn="ManagedElement=LX0005"/><measInfo><measType p="1">pmOther</measType><measValue measObjLdn="C=1"><r p="1">5</r></measValue></measInfo></measData></measCollecFile>';
    expect(await verdictsOf(good, other)).toEqual([
      { node: 'LX0004', status: 'OK', comments: '2 cells within thresholds', measuredAt: '2024-03-05T10:15:00.000Z' },
    ]);
  });

  it('judges the annex-style file: one cell at 95 % RRC success', async () => {
    const [verdict] = await verdictsOf(ANNEX_STYLE_FILE);
    expect(verdict).toEqual({
      node: 'LX0002',
      status: 'NOK',
      comments: 'LX0002_2: RRC setup success 95.0 % (pmRrcConnEstabSucc 950 / pmRrcConnEstabAtt 1000)',
      measuredAt: '2024-03-05T09:15:00.000Z',
    });
  });
});
