import { Readable } from 'node:stream';
import ExcelJS from 'exceljs';
import type { FastifyInstance } from 'fastify';
import type { FileResponse, RunHistoryPage, RunResponse } from 'contracts';
import { findExport } from '../src/files';
import { importDump } from '../src/network';
import { RANSHARE_HEALTH_ROUTE_MESSAGES } from '../src/routes/validation-ranshare-health';
import { HEALTH_MESSAGES } from '../src/validation/health';
import { RANSHARE_MESSAGES } from '../src/validation/ranshare';
import { testApp } from './support/app';
import { TEST_DATABASES, type TestDatabase } from './support/databases';
import { headersOf, MISSING_ID, setUpCallers, type Caller } from './support/principals';
import { RANSHARE_DUMP } from './fixtures/ranshare/dump';
import { alarmRow, findingRow, nodeRow, retRow } from './fixtures/monitoring-queries/rows';

/** Every sheet of a workbook: name → rows of cell values (header first). */
async function sheetsOf(file: string): Promise<Map<string, unknown[][]>> {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.readFile(file);
  const sheets = new Map<string, unknown[][]>();
  workbook.eachSheet((sheet) => {
    const rows: unknown[][] = [];
    sheet.eachRow((row) => rows.push((row.values as unknown[]).slice(1)));
    sheets.set(sheet.name, rows);
  });
  return sheets;
}

describe.each(TEST_DATABASES)('RAN-share validation and health checks on $name', (kind) => {
  let database: TestDatabase;
  let app: FastifyInstance;
  let dataDir: string;
  let os: Caller;
  let hq: Caller;
  let client: Caller;

  beforeAll(async () => {
    database = await kind.open();
    let config;
    ({ app, config } = await testApp(database));
    dataDir = config.dataDir;
    const callers = await setUpCallers(app, database, config);
    os = callers.CellwiseOS;
    hq = callers.CellwiseHQ;
    client = callers.Client;
    await importDump(database.db, Readable.from([RANSHARE_DUMP]), { fileName: 'ranshare.txt', format: 'cmedit', coords: 'microdegrees' });
    // A site the inventory knows without cells (its node was removed), and the parsed logs of LX0702.
    await database.db.insertInto('network_sites').values({ id: 'LX0799', name: 'Empty', lat: null, lon: null }).execute();
    await database.db
      .insertInto('monitoring_nodes')
      .values(
        nodeRow('LX0702', {
          site_id: 'LX0702',
          alarm_status: 'NOK',
          alarm_count: 2,
          radio_status: 'NOK',
          radio_comments: 'LX0702_L800_1 locked',
        }),
      )
      .execute();
    await database.db
      .insertInto('monitoring_alarms')
      .values([
        alarmRow('LX0702', { site_id: 'LX0702', specific_problem: 'Link Failure', mo: 'EthernetPort=1', severity: 'Major' }),
        alarmRow('LX0702', { site_id: 'LX0702', specific_problem: 'Fan Failure', mo: 'Fru=FAN-1', severity: 'Warning', line: 11 }),
      ])
      .execute();
    await database.db.insertInto('monitoring_ret').values(retRow('LX0702')).execute();
    await database.db
      .insertInto('monitoring_findings')
      .values(
        findingRow('LX0702', {
          mo: 'ENodeBFunction=1,EUtranCellFDD=LX0702_L800_1',
          cell: 'LX0702_L800_1',
          check_name: 'administrativeState',
          expected: 'UNLOCKED',
          actual: 'LOCKED',
          status: 'NOK',
          comment: 'LX0702_L800_1 locked (administrativeState LOCKED)',
        }),
      )
      .execute();
    const state = { node_name: 'LX0702', parse_id: 1, mo_class: null, archive: 'logs.zip', file: 'LX0702.log', line: 20 };
    await database.db
      .insertInto('monitoring_states')
      .values([
        {
          ...state,
          mo: 'ENodeBFunction=1,EUtranCellFDD=LX0702_L800_1',
          tech: '4G',
          cell: 'LX0702_L800_1',
          adm_state: 'LOCKED',
          op_state: 'DISABLED',
          link: null,
        },
        { ...state, mo: 'ENodeBFunction=1,TermPointToMme=1', tech: 'site', cell: null, adm_state: 'UNLOCKED', op_state: 'ENABLED', link: 'S1' },
      ])
      .execute();
  });
  afterAll(async () => {
    await app.close();
    await database.dispose();
  });

  const get = (url: string, caller: Caller = os) => app.inject({ url: `/api/${url}`, headers: headersOf(caller) });
  const ranShare = (site: string, caller: Caller = os, userId = caller.userId) =>
    get(`Validation/RunRanShareNbrRelationsValidation?site=${encodeURIComponent(site)}&userId=${userId}`, caller);
  const health = (siteId: string, caller: Caller = os, userId = caller.userId) =>
    get(`Validation/GetHealthChecksExport?siteId=${encodeURIComponent(siteId)}&userId=${userId}`, caller);
  const history = async (route: string) => {
    const res = await get(`Validation/${route}?size=100`);
    expect(res.statusCode).toBe(200);
    return res.json<RunHistoryPage>();
  };
  const workbookOf = async (file: string, caller: Caller = os) => sheetsOf((await findExport(database.db, dataDir, file, caller.userId!)).file);

  describe('RAN-share neighbour relations validation', () => {
    it('a MOCN site: a target missing a PLMN of its source, an unresolved target, an OK relation; workbook, history, notification', async () => {
      const res = await ranShare('LX0701');
      expect(res.statusCode).toBe(200);
      const answer = res.json<RunResponse>();
      expect(answer.message).toBe('RAN-share validation of LX0701 (MOCN, Vodafone PT shared with NOS): MOCN 1 OK, 1 MISSING_PLMN, 1 UNRESOLVED.');
      expect(answer.summary).toEqual([
        { label: 'MOCN OK', count: 1, tone: 'ok' },
        { label: 'MOCN MISSING_PLMN', count: 1, tone: 'error' },
        { label: 'MOCN UNRESOLVED', count: 1, tone: 'warning' },
      ]);
      // Problems first, so the page's first rows are what needs doing.
      expect(answer.preview.title).toBe('MOCN');
      expect(answer.preview.rows.map((r) => [r.source, r.target, r.verdict, r.missingOperators])).toEqual([
        ['LX0701_L800_1', 'LX0702_L800_1', 'MISSING_PLMN', 'NOS'],
        ['LX0701_L800_1', '26803-999-11', 'UNRESOLVED', ''],
        ['LX0701_L800_1', 'LX0701_L800_2', 'OK', ''],
      ]);

      const sheets = await workbookOf(answer.file!);
      expect([...sheets.keys()]).toEqual(['Sharing', 'MOCN']);
      expect(sheets.get('Sharing')).toEqual([
        ['PLMN', 'Operator', 'Role', 'Own Layer Cells', 'MOCN Cells', 'Neighbour External Cells'],
        ['268-01', 'Vodafone PT', 'Host', 2, 0, 0],
        // The external cell of another OSS its relation reaches carries NOS's PLMN.
        ['268-03', 'NOS', 'Sharing', 0, 2, 1],
      ]);
      expect(sheets.get('MOCN')?.[1]).toEqual([
        'LX0701_L800_1',
        '268-01, 268-03',
        'LX0702_L800_1',
        '268-01',
        '268-03',
        'NOS',
        'MISSING_PLMN',
        'LX0702_L800_1 does not broadcast 268-03 served by LX0701_L800_1',
        expect.stringContaining('EUtranCellRelation=a'),
      ]);

      const page = await history('GetRanShareValidationHistory');
      expect(page.rows[0]).toMatchObject({ id: answer.runId, sites: 'LX0701', outcome: 'MOCN OK 1, MOCN MISSING_PLMN 1, MOCN UNRESOLVED 1', hasFile: true });
      // Another engineer downloads it later from the history.
      const again = await get(`Validation/GetRanShareValidationExport?runId=${answer.runId}`, hq);
      expect(again.statusCode).toBe(200);
      expect([...(await workbookOf(again.json<FileResponse>().file, hq)).keys()]).toEqual(['Sharing', 'MOCN']);
      // It is not a health-check run.
      expect((await get(`Validation/GetHealthChecksRunExport?runId=${answer.runId}`)).json()).toEqual({ message: 'Run not found.' });

      const notes = await database.db.selectFrom('notifications').select('title').where('user_id', '=', os.userId!).execute();
      expect(notes.map((n) => n.title)).toContain(answer.message);
    });

    it("a MORAN site: the sharing operator's layer lacks the host layer's relation", async () => {
      const res = await ranShare('LX0703');
      expect(res.statusCode).toBe(200);
      const answer = res.json<RunResponse>();
      expect(answer.message).toBe('RAN-share validation of LX0703 (MORAN, Vodafone PT shared with MEO): MORAN 0 OK, 1 MISSING.');
      expect(answer.preview.rows).toEqual([
        {
          plmn: '268-06',
          operator: 'MEO',
          hostSource: 'LX0703_L800_1',
          hostTarget: 'LX0704_L800_1',
          source: 'LX0703_L1800_1',
          expectedTarget: 'LX0704_L1800_1',
          verdict: 'MISSING',
          reason: 'LX0703_L800_1 → LX0704_L800_1 exists on the host layer, LX0703_L1800_1 → LX0704_L1800_1 is missing for 268-06',
        },
      ]);
      expect([...(await workbookOf(answer.file!)).keys()]).toEqual(['Sharing', 'MORAN']);
    });

    it('refuses an unshared site (599), an unknown site (404), a run as someone else (403), a Client (403): nothing recorded', async () => {
      const before = (await history('GetRanShareValidationHistory')).total;
      expect([(await ranShare('LX0702')).statusCode, (await ranShare('LX0702')).json()]).toEqual([599, { message: RANSHARE_MESSAGES.notShared('LX0702') }]);
      expect(RANSHARE_MESSAGES.notShared('LX0702')).toBe('Site LX0702 is not shared: no RAN-share relations to validate.');
      expect([(await ranShare('NO-SUCH')).statusCode, (await ranShare('NO-SUCH')).json()]).toEqual([404, { message: 'Site NO-SUCH not found.' }]);
      expect([(await ranShare('LX0701', os, hq.userId)).statusCode, (await ranShare('LX0701', os, hq.userId)).json()]).toEqual([
        403,
        { message: RANSHARE_HEALTH_ROUTE_MESSAGES.onlyYourself },
      ]);
      expect((await ranShare('LX0701', client)).statusCode).toBe(403);
      expect((await get('Validation/RunRanShareNbrRelationsValidation?site=&userId=1')).statusCode).toBe(400);
      expect((await get(`Validation/RunRanShareNbrRelationsValidation?site=LX0701&userId=${os.userId}&extra=1`)).statusCode).toBe(400);
      expect((await history('GetRanShareValidationHistory')).total).toBe(before);
      expect((await get(`Validation/GetRanShareValidationExport?runId=${MISSING_ID}`)).json()).toEqual({ message: 'Run not found.' });
    });
  });

  describe('health checks', () => {
    it("one workbook of the site's alarms, states, RET, configuration checks, CPICH and neighbour findings", async () => {
      const res = await health('LX0702');
      expect(res.statusCode).toBe(200);
      const answer = res.json<RunResponse>();
      expect(answer.message).toBe('Health checks of LX0702: alarms NOK (2 active alarms), radio NOK, core OK, CPICH 1 error, 0 warnings, 1 neighbour finding.');
      expect(answer.summary).toEqual([
        { label: 'Alarms NOK', count: 1, tone: 'error' },
        { label: 'Alarms OK', count: 0, tone: 'ok' },
        { label: 'Radio NOK', count: 1, tone: 'error' },
        { label: 'Core NOK', count: 0, tone: 'ok' },
        { label: 'Cells locked/disabled', count: 1, tone: 'error' },
        { label: 'CPICH errors', count: 1, tone: 'error' },
        { label: 'CPICH warnings', count: 0, tone: 'ok' },
        { label: 'Neighbour findings', count: 1, tone: 'warning' },
      ]);
      expect(answer.preview.title).toBe('Summary');
      expect(answer.preview.rows.map((r) => [r.check, r.status, r.count])).toEqual([
        ['Alarms', 'NOK', 2],
        ['Radio', 'NOK', 1],
        ['Core', 'OK', 0],
        ['Cell states', 'NOK', 1],
        ['Link states', 'OK', 0],
        ['RET', 'OK', 1],
        ['CPICH', 'NOK', 1],
        ['Neighbours', 'NOK', 1],
      ]);
      expect(answer.preview.rows[0]?.details).toBe('1 Critical/Major alarm: Link Failure');

      const sheets = await workbookOf(answer.file!);
      expect([...sheets.keys()]).toEqual([
        'Summary',
        'Site Summary',
        'Alarms',
        'States',
        'RET',
        'Configuration Check 2G',
        'Configuration Check 3G',
        'Configuration Check 4G',
        'Configuration Check 5G',
        'Configuration Check NBIoT',
        'CPICH',
        'Neighbour Findings',
      ]);
      expect(sheets.get('Alarms')).toHaveLength(3);
      expect(sheets.get('States')?.[1]).toEqual([
        'LX0702',
        '4G',
        'ENodeBFunction=1,EUtranCellFDD=LX0702_L800_1',
        'LX0702_L800_1',
        undefined,
        'LOCKED',
        'DISABLED',
        'NOK',
      ]);
      expect(sheets.get('Configuration Check 4G')).toHaveLength(2);
      expect(sheets.get('CPICH')?.[1]).toEqual([
        'LX0702_U2100F1_1',
        10612,
        440,
        430,
        -1,
        'ERROR',
        'primaryCpichPower 44.0 dBm ≥ maximumTransmissionPower 43.0 dBm',
      ]);
      expect(sheets.get('Neighbour Findings')?.[1]?.slice(0, 4)).toEqual(['LX0702_L800_1', 'LX0701_L800_1', 'Stale external cell', 'WRONG']);
      expect(sheets.get('Neighbour Findings')?.[1]?.[4]).toContain('PCI 27 on the external cell, 3 on LX0701_L800_1');

      const page = await history('GetHealthChecksHistory');
      expect(page.rows[0]).toMatchObject({ id: answer.runId, sites: 'LX0702', hasFile: true });
      const again = await get(`Validation/GetHealthChecksRunExport?runId=${answer.runId}`, hq);
      expect(again.statusCode).toBe(200);
      expect((await workbookOf(again.json<FileResponse>().file, hq)).get('Summary')).toEqual(sheets.get('Summary'));
    });

    it('a site with cells but no parsed logs: the dump half, the log checks N/A', async () => {
      const res = await health('LX0701');
      expect(res.statusCode).toBe(200);
      const answer = res.json<RunResponse>();
      expect(answer.message).toBe('Health checks of LX0701: no parsed logs, 1 neighbour finding.');
      expect(answer.summary).toEqual([{ label: 'Neighbour findings', count: 1, tone: 'warning' }]);
      expect(answer.preview.rows.map((r) => [r.check, r.status])).toEqual([
        ['Alarms', 'N/A'],
        ['Radio', 'N/A'],
        ['Core', 'N/A'],
        ['Cell states', 'N/A'],
        ['Link states', 'N/A'],
        ['RET', 'N/A'],
        ['CPICH', 'N/A'],
        ['Neighbours', 'NOK'],
      ]);
      // The relation to another OSS's cell is the finding.
      const sheets = await workbookOf(answer.file!);
      expect(
        sheets
          .get('Neighbour Findings')
          ?.slice(1)
          .map((r) => [r[1], r[2]]),
      ).toEqual([['26803-999-11', 'Target outside the dump']]);
    });

    it('warns for a site without logs or cells (599), refuses an unknown site (404) and a run as someone else (403): nothing recorded', async () => {
      const before = (await history('GetHealthChecksHistory')).total;
      expect([(await health('LX0799')).statusCode, (await health('LX0799')).json()]).toEqual([599, { message: HEALTH_MESSAGES.noData('LX0799') }]);
      expect(HEALTH_MESSAGES.noData('LX0799')).toBe('No data for site LX0799: no parsed logs and no cells in the dump.');
      expect([(await health('NO-SUCH')).statusCode, (await health('NO-SUCH')).json()]).toEqual([404, { message: 'Site NO-SUCH not found.' }]);
      expect((await health('LX0702', os, hq.userId)).json()).toEqual({ message: RANSHARE_HEALTH_ROUTE_MESSAGES.onlyYourself });
      expect((await health('LX0702', client)).statusCode).toBe(403);
      expect((await get(`Validation/GetHealthChecksExport?siteId=LX0702`)).statusCode).toBe(400);
      expect((await history('GetHealthChecksHistory')).total).toBe(before);
    });
  });
});
