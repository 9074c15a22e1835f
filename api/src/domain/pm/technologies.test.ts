import { readFileSync } from 'node:fs';
import path from 'node:path';
import { ALL_FORMULAS, judgedObjectOf, KPI_FORMULAS, kpiCounterOf, technologyOfObject } from './kpi';
import { PmParseError, readMeasCollec } from './meas-collec';
import { PmVerdicts } from './verdict';

/*
 * Issue 43, variant 10: PM files of UTRAN, GSM, NR (TS 28.552 names) and core nodes are read, counted
 * and judged by their own KPI counters. Every fixture is read as written (LF) and with CRLF line ends,
 * in odd-sized chunks that cut tags and numbers.
 */

const DIR = path.resolve(__dirname, '../../../test/fixtures/pm');
const RNC = 'A20261130.1000+0200-1015+0200_RNC01.xml';

const EOLS = [
  ['LF', (text: string) => text],
  ['CRLF', (text: string) => text.replace(/\r?\n/g, '\r\n')],
] as const;

function chunks(text: string, size = 53): Buffer[] {
  const bytes = Buffer.from(text, 'utf8');
  const out: Buffer[] = [];
  for (let i = 0; i < bytes.length; i += size) out.push(bytes.subarray(i, i + size));
  return out;
}

async function judge(eol: (text: string) => string, ...files: string[]): Promise<PmVerdicts> {
  const verdicts = new PmVerdicts();
  for (const file of files) await readMeasCollec(chunks(eol(readFileSync(path.join(DIR, file), 'utf8'))), (v) => verdicts.add(v));
  return verdicts;
}

describe.each(EOLS)('PM files of every technology (%s)', (_eol, eol) => {
  it('UTRAN (Ericsson RNC): RRC, RAB, retainability and soft handover per UtranCell; a NIL leaves its formula out', async () => {
    const verdicts = await judge(eol, RNC);
    expect(verdicts.verdicts()).toEqual([
      {
        node: 'RNC01',
        status: 'NOK',
        comments: 'CC1405B: PS retainability 97.0 % (pmNoSystemRabReleasePacket 30 dropped of pmNoSystemRabReleasePacket+pmNoNormalRabReleasePacket 1000)',
        measuredAt: '2026-11-30T08:15:00.000Z',
      },
    ]);
    expect(verdicts.counts()).toEqual({ nodesRead: 1, measValues: 2, counterValues: 18, nodesJudged: 1 });
  });

  it('GSM (annex layout, TS 52.402 and Ericsson names): a relation’s handovers count for its cell', async () => {
    const [verdict] = (await judge(eol, 'gsm-bsc-annex.xml')).verdicts();
    expect(verdict).toMatchObject({ node: 'BSC07', status: 'NOK', comments: 'TLV001A: handover success 90.0 % (HOVERSUC 90 / HOVERCNT 100)' });
  });

  it('NR (TS 28.552): per-cause subcounters and .sum totals over two periods; inter-gNB handover below 95 %', async () => {
    const verdicts = await judge(eol, 'nr-gnb-28552.xml');
    expect(verdicts.verdicts()).toEqual([
      {
        node: 'GNB_41428_KAINARFARM',
        status: 'NOK',
        comments: '41428_N78_2: inter-gNB handover success 85.0 % (MM.HoExeInterSucc 170 / MM.HoExeInterReq 200)',
        measuredAt: '2026-11-30T08:30:00.000Z',
      },
    ]);
    expect(verdicts.counts()).toEqual({ nodesRead: 1, measValues: 5, counterValues: 30, nodesJudged: 1 });
  });

  it('core (5GC): AMF registrations and SMF sessions judged; a UPF with volume counters only is N/A, saying why', async () => {
    const verdicts = await judge(eol, 'core-5gc.xml');
    expect(verdicts.verdicts()).toEqual([
      { node: 'AMF01', status: 'OK', comments: '1 measured object within thresholds', measuredAt: '2026-11-30T08:15:00.000Z' },
      {
        node: 'SMF01',
        status: 'NOK',
        comments: 'SMFFunction=1: PDU session creation success 96.6 % (SM.PduSessionCreationSucc 4830 / SM.PduSessionCreationReq 5000)',
        measuredAt: '2026-11-30T08:15:00.000Z',
      },
    ]);
    expect(verdicts.notJudged()).toEqual([
      {
        node: 'UPF01',
        status: 'N/A',
        comments:
          'No KPI counters of Core (accessibility, retainability, handover success, cell downtime); the files hold GTP.InDataOctN3UPF, GTP.OutDataOctN3UPF',
        measuredAt: '2026-11-30T08:15:00.000Z',
      },
    ]);
    expect(verdicts.counts()).toEqual({ nodesRead: 3, measValues: 3, counterValues: 8, nodesJudged: 2 });
  });

  it('all of them in one import: every node read is counted, judged or not', async () => {
    const verdicts = await judge(eol, RNC, 'gsm-bsc-annex.xml', 'nr-gnb-28552.xml', 'core-5gc.xml');
    expect(verdicts.counts()).toEqual({ nodesRead: 6, measValues: 14, counterValues: 68, nodesJudged: 5 });
    expect(verdicts.verdicts().map((v) => [v.node, v.status])).toEqual([
      ['AMF01', 'OK'],
      ['BSC07', 'NOK'],
      ['GNB_41428_KAINARFARM', 'NOK'],
      ['RNC01', 'NOK'],
      ['SMF01', 'NOK'],
    ]);
    expect(verdicts.notJudged().map((v) => v.node)).toEqual(['UPF01']);
  });

  it('refuses a file cut inside a measValue, with its line', async () => {
    const text = eol(readFileSync(path.join(DIR, 'nr-gnb-28552.xml'), 'utf8'));
    const cut = text.slice(0, text.indexOf('<measResults>450 50 500'));
    const error = await readMeasCollec(chunks(cut), () => undefined).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PmParseError);
    expect((error as PmParseError).message).toMatch(/^Line 20: unexpected end of file$/);
  });

  it('refuses a measResults list shorter than its measTypes, with the measValue line', async () => {
    const text = eol(readFileSync(path.join(DIR, 'gsm-bsc-annex.xml'), 'utf8')).replace('1000 995 2000 1999', '1000 995 2000');
    const error = await readMeasCollec(chunks(text), () => undefined).catch((e: unknown) => e);
    expect((error as Error).message).toBe('Line 17: measResults has 3 values for 4 measTypes');
  });
});

describe('PmVerdicts: N/A', () => {
  async function notJudged(file: string): Promise<string[]> {
    const verdicts = new PmVerdicts();
    await readMeasCollec([file], (v) => verdicts.add(v));
    return verdicts.notJudged().map((v) => v.comments);
  }

  it('names the technology from the object classes and what the file held instead', async () => {
    const file = `<measCollecFile><measData><managedElement localDn="MeContext=RBS_41700_BAT_YAM"/><measInfo>
<measTypes>pmSumUlRssi pmSamplesUlRssi pmNoOfUsers pmOther</measTypes>
<measValue measObjLdn="ManagedElement=1,NodeBFunction=1,NodeBLocalCell=1"><measResults>1 2 3 4</measResults></measValue>
</measInfo></measData></measCollecFile>`;
    expect(await notJudged(file)).toEqual([
      'No KPI counters of UTRAN (accessibility, retainability, handover success, cell downtime); the files hold pmSumUlRssi, pmSamplesUlRssi, pmNoOfUsers, …',
    ]);
  });

  it('says when the KPI counters are there but NIL, and when no class tells the technology', async () => {
    const file = `<measCollecFile><measData><managedElement localDn="ManagedElement=N1"/><measInfo>
<measTypes>pmRrcConnEstabAtt pmRrcConnEstabSucc</measTypes>
<measValue measObjLdn="Thing=1"><measResults>NIL NIL</measResults></measValue>
</measInfo></measData></measCollecFile>`;
    expect(await notJudged(file)).toEqual(['No KPI counters (accessibility, retainability, handover success, cell downtime); its KPI counters are NIL']);
  });
});

describe('the KPI catalogue', () => {
  it('reads a 3GPP measurement as its total: the counter, else .sum, else its subcounters', async () => {
    const file = (types: string, results: string) =>
      `<measCollecFile><measData><managedElement localDn="MeContext=G1"/><measInfo><measTypes>${types}</measTypes>` +
      `<measValue measObjLdn="NRCellCU=C1"><measResults>${results}</measResults></measValue></measInfo></measData></measCollecFile>`;
    const comments = async (types: string, results: string) => {
      const verdicts = new PmVerdicts();
      await readMeasCollec([file(types, results)], (v) => verdicts.add(v));
      return verdicts.verdicts()[0]?.comments;
    };
    // The total wins over the sum and the subcounters; the sum over the subcounters.
    expect(await comments('RRC.ConnEstabAtt RRC.ConnEstabAtt.sum RRC.ConnEstabAtt.mo-Data RRC.ConnEstabSucc', '100 50 10 90')).toBe(
      'C1: RRC setup success 90.0 % (RRC.ConnEstabSucc 90 / RRC.ConnEstabAtt 100)',
    );
    expect(await comments('RRC.ConnEstabAtt.sum RRC.ConnEstabAtt.mo-Data RRC.ConnEstabSucc', '100 10 90')).toBe(
      'C1: RRC setup success 90.0 % (RRC.ConnEstabSucc 90 / RRC.ConnEstabAtt 100)',
    );
    expect(await comments('RRC.ConnEstabAtt.mo-Data RRC.ConnEstabAtt.emergency RRC.ConnEstabSucc', '60 40 90')).toBe(
      'C1: RRC setup success 90.0 % (RRC.ConnEstabSucc 90 / RRC.ConnEstabAtt 100)',
    );
    expect(await comments('RRC.ConnEstabAtt RRC.ConnEstabSucc', '0 0')).toBe('1 cell within thresholds');
  });

  it('maps names and objects', () => {
    expect(kpiCounterOf('pmRrcConnEstabAtt')).toEqual({ base: 'pmRrcConnEstabAtt', part: 'total' });
    expect(kpiCounterOf('QF.EstabAttNbr.5QI9')).toEqual({ base: 'QF.EstabAttNbr', part: 'sub' });
    expect(kpiCounterOf('RRC.ConnEstabSucc.sum')).toEqual({ base: 'RRC.ConnEstabSucc', part: 'sum' });
    expect(kpiCounterOf('RRU.PrbUsedDl')).toBeNull();
    expect(kpiCounterOf('pmRrcConnEstabAttReatt')).toBeNull();
    expect(technologyOfObject('ManagedElement=1,ENodeBFunction=1,EUtranCellFDD=A')).toBe('LTE');
    expect(technologyOfObject('ManagedElement=1,GNBDUFunction=1,NRCellDU=A')).toBe('NR');
    expect(technologyOfObject('ManagedElement=AMF01,AMFFunction=1')).toBe('Core');
    expect(technologyOfObject('Thing=1')).toBeNull();
    expect(judgedObjectOf('ManagedElement=1,ENodeBFunction=1,EUtranCellFDD=A,EUtranFreqRelation=1,EUtranCellRelation=B')).toEqual({ name: 'A', cell: true });
    expect(judgedObjectOf('ManagedElement=SMF01,SMFFunction=1')).toEqual({ name: 'SMFFunction=1', cell: false });
  });

  it('has accessibility for every technology, and retainability and handover success for every radio technology', () => {
    for (const [tech, formulas] of Object.entries(KPI_FORMULAS)) {
      const families = new Set(formulas.map((f) => f.family));
      expect([tech, families.has('accessibility')]).toEqual([tech, true]);
      if (tech !== 'Core' && tech !== 'NR') expect([tech, families.has('retainability'), families.has('handover success')]).toEqual([tech, true, true]);
    }
    expect(new Set(KPI_FORMULAS.NR.map((f) => f.family))).toContain('handover success');
    // Each success formula has its own attempts counter: a counter judged twice would be reported twice.
    const attempts = ALL_FORMULAS.filter((f) => f.kind === 'success').flatMap((f) => f.denominator);
    expect(new Set(attempts).size).toBe(attempts.length);
  });
});
