import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import ExcelJS from 'exceljs';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../src/config';
import {
  type AlarmHint,
  type AlarmPage,
  type ConfigurationSummaryPage,
  type FaultSummaryPage,
  type FileResponse,
  type OverallSiteSummaryPage,
  SITE_REPORT_TABS,
  type SiteReport,
  type UploadedFile,
} from 'contracts';
import { ANNEX_STYLE_FILE, ericssonLteFile } from '../src/domain/pm/fixtures';
import { writeZip } from '../src/files/zip-output';
import { syntheticLogNodes, writeLogArchive } from '../src/demo/logs';
import { DEFAULT_ALARM_HINTS } from '../src/monitoring/hints';
import { seed } from '../src/seed';
import { testApp } from './support/app';
import { TEST_DATABASES, type TestDatabase } from './support/databases';
import { MISSING_ID } from './support/principals';
import { writeMonitoringFixture } from './fixtures/monitoring-queries/rows';
import { multipart } from './fixtures/tracking/workbooks';

type Who = 'admin' | 'os' | 'client';

/** The raw outbox mails (the outbox reader keeps text and html only; the attachment is read here). */
function outboxFiles(dataDir: string): string[] {
  const dir = path.join(dataDir, 'outbox');
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.eml'))
    .sort()
    .map((f) => fs.readFileSync(path.join(dir, f), 'utf8'));
}

/** The first base64 attachment of a nodemailer message: its file name and bytes. */
function attachmentOf(eml: string): { name: string; content: Buffer } | null {
  const text = eml.replace(/\r\n/g, '\n');
  const header = /Content-Disposition: attachment;\s*filename=("?)([^"\n]+)\1\n(?:[^\n]+\n)*\n/i.exec(text);
  if (!header) return null;
  const rest = text.slice(header.index + header[0].length);
  const body = rest.slice(0, rest.search(/\n--/));
  return { name: header[2]!, content: Buffer.from(body.replace(/\s+/g, ''), 'base64') };
}

async function sheetsOf(content: Buffer): Promise<Map<string, unknown[][]>> {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(content as unknown as ArrayBuffer);
  const sheets = new Map<string, unknown[][]>();
  workbook.eachSheet((sheet) => {
    const rows: unknown[][] = [];
    sheet.eachRow((row) => rows.push((row.values as unknown[]).slice(1)));
    sheets.set(sheet.name, rows);
  });
  return sheets;
}

describe.each(TEST_DATABASES)('monitoring routes on $name', (kind) => {
  let database: TestDatabase;
  let app: FastifyInstance;
  let config: Config;
  const tokens: Record<Who, string> = { admin: '', os: '', client: '' };
  const ids: Record<Who, number> = { admin: 0, os: 0, client: 0 };
  const temp = fs.mkdtempSync(path.join(os.tmpdir(), 'cellwise-monitoring-'));

  beforeAll(async () => {
    database = await kind.open();
    ({ app, config } = await testApp(database));
    await seed(database.db, config);
    for (const [who, email] of [
      ['admin', config.adminEmail],
      ['os', 'os@cellwise.local'],
      ['client', 'client@cellwise.local'],
    ] as const) {
      const { id } = await database.db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirstOrThrow();
      ids[who] = id;
      tokens[who] = (await app.auth.issueToken(id))!;
    }
  });
  afterAll(async () => {
    await app.close();
    await database.dispose();
    fs.rmSync(temp, { recursive: true, force: true });
  });

  const auth = (who: Who) => ({ authorization: `Bearer ${tokens[who]}` });
  const get = (url: string, who: Who = 'os') => app.inject({ url, headers: auth(who) });
  const post = (url: string, payload: object, who: Who = 'os') => app.inject({ method: 'POST', url, payload, headers: auth(who) });
  const list = async <T>(route: string, query = '') => {
    const res = await get(`/api/Monitoring/${route}?size=100${query}`);
    expect(res.statusCode).toBe(200);
    return res.json<T>();
  };
  const filters = (value: Record<string, string>) => `&filters=${encodeURIComponent(JSON.stringify(value))}`;
  const alarmsPage = (query = '') => list<AlarmPage>('GetFaultManagement', query);
  async function upload(content: Buffer, name: string, who: Who = 'admin'): Promise<string> {
    const body = multipart([{ name: 'file', filename: name, content }]);
    const res = await app.inject({ method: 'POST', url: '/api/File/Upload', payload: body.payload, headers: { ...body.headers, ...auth(who) } });
    expect(res.statusCode).toBe(200);
    return res.json<UploadedFile>().uploadId;
  }
  async function zipOf(entries: ReadonlyArray<readonly [string, string]>): Promise<Buffer> {
    const file = path.join(temp, `pm-${Math.random().toString(36).slice(2)}.zip`);
    await writeZip(file, entries);
    return fs.readFileSync(file);
  }

  describe('before any log is parsed', () => {
    it('answers empty lists and "" stamps, refuses Clients and anonymous callers', async () => {
      for (const route of ['GetFaultManagement', 'GetFaultManagementSummary', 'GetConfigurationManagementSummary', 'GetOverallSiteSummary']) {
        expect(await list(route)).toEqual({ rows: [], total: 0 });
        expect((await get(`/api/Monitoring/${route}`, 'client')).statusCode).toBe(403);
        expect((await app.inject({ url: `/api/Monitoring/${route}` })).statusCode).toBe(401);
      }
      for (const route of ['GetLogsLastImport', 'GetPerformanceLastImport']) {
        const res = await get(`/api/Monitoring/${route}`);
        expect(res.headers['content-type']).toMatch(/application\/json/);
        expect(res.json()).toBe('');
      }
    });

    it('seeds the hint catalogue once', async () => {
      const hints = (await get('/api/Monitoring/GetAlarmHints')).json<AlarmHint[]>();
      expect(hints).toHaveLength(DEFAULT_ALARM_HINTS.length);
      expect(hints.map((h) => h.alarmName)).toEqual([...hints.map((h) => h.alarmName)].sort());
      expect(hints.find((h) => h.alarmName === 'Heartbeat Failure')).toMatchObject({ updatedBy: null, hint: expect.stringMatching(/O&M|OAM/) });
      await seed(database.db, config);
      expect((await get('/api/Monitoring/GetAlarmHints')).json<AlarmHint[]>()).toHaveLength(DEFAULT_ALARM_HINTS.length);
    });
  });

  describe('with parsed logs', () => {
    beforeAll(async () => {
      await writeMonitoringFixture(database.db);
    });

    it('answers the newest logs date', async () => {
      expect((await get('/api/Monitoring/GetLogsLastImport')).json()).toBe('2024-03-06T08:00:00.000Z');
    });

    it('fault summary: NOK for the node with a Major alarm, OK for the one with only a Warning; plan date by technology, tracker status, remarks', async () => {
      const page = await list<FaultSummaryPage>('GetFaultManagementSummary');
      expect(page.total).toBe(4);
      const byNode = Object.fromEntries(page.rows.map((r) => [r.nodeName, r]));
      expect(byNode['LX0001']).toEqual({
        siteId: 'LX0001',
        siteName: 'Lisboa Centro',
        nodeName: 'LX0001',
        tech: '4G',
        commissioningDate: '2024-01-10T09:00:00Z',
        currentStatus: 'On Air',
        alarmStatus: 'NOK',
        alarmCount: 2,
        alarmComments: 'Link Failure, Heartbeat Failure',
        logsDate: '2024-03-05T10:00:00.000Z',
        remarks: '',
      });
      expect(byNode['NR_LX0001']).toMatchObject({ alarmStatus: 'OK', commissioningDate: '2024-02-01T09:00:00Z', currentStatus: 'On Air' });
      expect(byNode['LX0002']).toMatchObject({ alarmStatus: 'N/A', remarks: 'Unreachable', commissioningDate: null, currentStatus: null, logsDate: null });
      expect(byNode['ORPHAN_9']).toMatchObject({ siteId: null, siteName: null, remarks: 'Not in inventory' });
    });

    it('reads commissioning date and current status at query time', async () => {
      await database.db.updateTable('tracking_tracker').set({ current_status: 'Integrated' }).where('local_id', '=', 'LX0001').execute();
      const page = await list<FaultSummaryPage>('GetFaultManagementSummary', filters({ nodeName: 'nr_lx' }));
      expect(page.rows.map((r) => r.currentStatus)).toEqual(['Integrated']);
      await database.db.updateTable('tracking_tracker').set({ current_status: 'On Air' }).where('local_id', '=', 'LX0001').execute();
    });

    it('configuration summary carries radio and core statuses', async () => {
      const page = await list<ConfigurationSummaryPage>('GetConfigurationManagementSummary', filters({ radioStatus: 'NOK' }));
      expect(page.rows).toEqual([expect.objectContaining({ nodeName: 'LX0001', radioStatus: 'NOK', radioComments: 'LX0001_2 locked', coreStatus: 'OK' })]);
      const orphan = await list<ConfigurationSummaryPage>('GetConfigurationManagementSummary', filters({ coreComments: 'IUB' }));
      expect(orphan.rows.map((r) => r.nodeName)).toEqual(['ORPHAN_9']);
    });

    it('overall site summary: one row per site, worst status wins, unreachable is NOK, orphans under their node name', async () => {
      const page = await list<OverallSiteSummaryPage>('GetOverallSiteSummary');
      expect(page.rows).toEqual([
        {
          siteId: 'LX0001',
          siteName: 'Lisboa Centro',
          commissioningDate: '2024-01-10T09:00:00Z',
          currentStatus: 'On Air',
          overallSiteStatus: 'NOK',
          performanceStatus: 'N/A',
          alarmStatus: 'NOK',
          radioStatus: 'NOK',
          coreStatus: 'OK',
          sharedWith: null,
          shareMode: null,
        },
        expect.objectContaining({ siteId: 'LX0002', overallSiteStatus: 'NOK', alarmStatus: 'N/A', radioStatus: 'N/A', coreStatus: 'N/A' }),
        expect.objectContaining({ siteId: 'ORPHAN_9', siteName: null, overallSiteStatus: 'NOK', alarmStatus: 'OK', coreStatus: 'NOK' }),
      ]);
    });

    it('alarm list: newest first, site names, node acknowledgements, hints, sources', async () => {
      const page = await alarmsPage();
      expect(page.total).toBe(4);
      // Newest first; the alarm without a time comes last.
      expect(page.rows.map((r) => r.AlarmName)).toEqual(['Fan Failure', 'Link Failure', 'Heartbeat Failure', 'Service Unavailable']);
      const link = page.rows[1]!;
      expect(link).toMatchObject({
        siteId: 'LX0001',
        siteName: 'Lisboa Centro',
        nodeName: 'LX0001',
        severity: 'Major',
        moName: 'EthernetPort=1',
        info: 'Cause: LOS',
        acknowledged: 'No',
        ackNote: null,
        ackBy: null,
        ackAt: null,
        source: 'logs.zip › LX0001.log:11',
      });
      expect(link.hint).toBe(DEFAULT_ALARM_HINTS.find((h) => h.alarmName === 'Link Failure')!.hint);
      expect(page.rows[2]).toMatchObject({ acknowledged: 'Yes', ackBy: 'noc_op1', ackNote: null });
    });

    it('alarm list: filters (contains, any case, dates as shown), sort, paging', async () => {
      expect((await alarmsPage(filters({ severity: 'MAJ' }))).rows.map((r) => r.AlarmName)).toEqual(['Link Failure']);
      expect((await alarmsPage(filters({ alarmDatetime: '05-03-2024' }))).rows.map((r) => r.AlarmName)).toEqual(['Link Failure', 'Heartbeat Failure']);
      expect((await alarmsPage(filters({ nodeName: 'lx0001', acknowledged: 'yes' }))).total).toBe(1);
      expect((await alarmsPage(filters({ id: String(MISSING_ID) }))).total).toBe(0);
      const sorted = await alarmsPage('&sort=AlarmName&order=ascend');
      expect(sorted.rows.map((r) => r.AlarmName)).toEqual(['Fan Failure', 'Heartbeat Failure', 'Link Failure', 'Service Unavailable']);
      const paged = (await get('/api/Monitoring/GetFaultManagement?size=3&page=2&sort=AlarmName&order=descend')).json<AlarmPage>();
      expect(paged).toEqual({ rows: [expect.objectContaining({ AlarmName: 'Fan Failure' })], total: 4 });
      const nullsLast = await alarmsPage('&sort=alarmDatetime&order=ascend');
      expect(nullsLast.rows.map((r) => r.AlarmName)).toEqual(['Heartbeat Failure', 'Link Failure', 'Fan Failure', 'Service Unavailable']);
      const siteSorted = await list<FaultSummaryPage>('GetFaultManagementSummary', '&sort=siteId&order=descend');
      expect(siteSorted.rows.map((r) => r.nodeName)).toEqual(['LX0002', 'LX0001', 'NR_LX0001', 'ORPHAN_9']);
    });

    it.each([
      ['filters that are not JSON', '&filters=%7Bnope'],
      ['a filter on an unknown field', filters({ password: 'x' })],
      ['an unknown sort field', '&sort=password'],
    ])('refuses %s with 400', async (_name, query) => {
      const res = await get(`/api/Monitoring/GetFaultManagement?${query.slice(1)}`);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ message: expect.any(String) });
    });

    it('acknowledges an alarm with a note (list and report show it), then removes it', async () => {
      const link = (await alarmsPage(filters({ AlarmName: 'Link Failure' }))).rows[0]!;
      const ack = await post('/api/Monitoring/AcknowledgeAlarm', { alarmId: link.id, note: 'Fibre team dispatched' });
      expect(ack.json()).toEqual({ message: 'Alarm acknowledged.' });
      const again = await post('/api/Monitoring/AcknowledgeAlarm', { alarmId: link.id, note: '  Fibre repaired, waiting for clear  ' });
      expect(again.statusCode).toBe(200);
      const row = (await alarmsPage(filters({ AlarmName: 'Link Failure' }))).rows[0]!;
      expect(row).toMatchObject({ acknowledged: 'Yes', ackNote: 'Fibre repaired, waiting for clear', ackBy: 'Inês Costa' });
      expect(new Date(row.ackAt!).getTime()).toBeGreaterThan(Date.now() - 60_000);
      expect((await alarmsPage(filters({ ackNote: 'REPAIRED' }))).total).toBe(1);

      const report = (await get('/api/Monitoring/GetSiteReport?siteId=LX0001')).json<SiteReport>();
      const alarms = report.tables.find((t) => t.TableName === 'Alarms')!;
      expect(alarms.TableData.find((r) => r.AlarmName === 'Link Failure')).toMatchObject({ ackNote: 'Fibre repaired, waiting for clear', ackBy: 'Inês Costa' });

      expect((await post('/api/Monitoring/UnacknowledgeAlarm', { alarmId: link.id })).json()).toEqual({ message: 'Acknowledgement removed.' });
      expect((await alarmsPage(filters({ AlarmName: 'Link Failure' }))).rows[0]).toMatchObject({ acknowledged: 'No', ackNote: null });
      const none = await post('/api/Monitoring/UnacknowledgeAlarm', { alarmId: link.id });
      expect(none.statusCode).toBe(404);
    });

    it('refuses acknowledgements of unknown alarms and blank notes', async () => {
      const unknown = await post('/api/Monitoring/AcknowledgeAlarm', { alarmId: MISSING_ID, note: 'x' });
      expect([unknown.statusCode, unknown.json()]).toEqual([404, { message: 'Alarm not found.' }]);
      expect((await post('/api/Monitoring/UnacknowledgeAlarm', { alarmId: MISSING_ID })).json()).toEqual({ message: 'Alarm not found.' });
      const link = (await alarmsPage(filters({ AlarmName: 'Link Failure' }))).rows[0]!;
      const blank = await post('/api/Monitoring/AcknowledgeAlarm', { alarmId: link.id, note: '   ' });
      expect(blank.statusCode).toBe(400);
      expect(await database.db.selectFrom('monitoring_alarm_acks').selectAll().execute()).toEqual([]);
      expect((await post('/api/Monitoring/AcknowledgeAlarm', { alarmId: link.id, note: 'x' }, 'client')).statusCode).toBe(403);
    });

    it('site report: every tab with its tables, RET in degrees, findings by technology', async () => {
      const res = await get('/api/Monitoring/GetSiteReport?siteId=LX0001');
      expect(res.statusCode).toBe(200);
      const report = res.json<SiteReport>();
      expect(report).toMatchObject({ siteId: 'LX0001', siteName: 'Lisboa Centro', logsDate: '2024-03-06T08:00:00.000Z' });
      expect([...new Set(report.tables.map((t) => t.TabName))]).toEqual([...SITE_REPORT_TABS]);
      const table = (name: string) => report.tables.find((t) => t.TableName === name)!;
      expect(table('Site Summary').TableData.map((r) => [r.nodeName, r.alarmStatus])).toEqual([
        ['LX0001', 'NOK'],
        ['NR_LX0001', 'OK'],
      ]);
      expect(table('Commissioning Information').TableData.map((r) => [r.technology, r.currentStatus])).toEqual([
        ['4G', 'On Air'],
        ['5G', 'On Air'],
      ]);
      expect(table('RET Information').TableData.map((r) => r.electricalTilt)).toEqual([4, 2.5]);
      expect(table('Alarms').TableData).toHaveLength(3);
      expect(table('Configuration Check 4G').TableData.map((r) => r.check)).toEqual(['Cell state', 'Cell state', 'S1 link']);
      expect(table('Configuration Check 5G').TableData).toHaveLength(1);
      expect(table('Configuration Check 2G').TableData).toEqual([]);
      expect(table('Alarms').TableStructure.find((c) => c.name === 'info')).toMatchObject({ filterType: 'textField' });
    });

    it('site report: a known site without logs has empty log tables; an unknown site is 404; an orphan node is its own site', async () => {
      const known = await get('/api/Monitoring/GetSiteReport?siteId=LX0003');
      expect(known.statusCode).toBe(200);
      expect(known.json<SiteReport>().tables.every((t) => t.TableData.length === 0)).toBe(true);
      const unknown = await get('/api/Monitoring/GetSiteReport?siteId=NO-SUCH-SITE');
      expect([unknown.statusCode, unknown.json()]).toEqual([404, { message: 'Site NO-SUCH-SITE not found.' }]);
      const orphan = (await get('/api/Monitoring/GetSiteReport?siteId=ORPHAN_9')).json<SiteReport>();
      expect(orphan.tables[0]!.TableData).toEqual([expect.objectContaining({ nodeName: 'ORPHAN_9', remarks: 'Not in inventory' })]);
    });

    it('Excel report: one sheet per table, labels as headers, formula-like text stays text', async () => {
      const res = await get('/api/Monitoring/GetSiteReportExcel?siteId=LX0001');
      expect(res.statusCode).toBe(200);
      const file = await get(`/api/File/Download?file=${res.json<FileResponse>().file}`);
      expect(file.statusCode).toBe(200);
      expect(file.headers['content-disposition']).toMatch(/SiteReport_LX0001_/);
      const sheets = await sheetsOf(file.rawPayload);
      expect([...sheets.keys()]).toEqual([
        'Site Summary',
        'Commissioning Information',
        'RET Information',
        'Alarms',
        'Configuration Check 2G',
        'Configuration Check 3G',
        'Configuration Check 4G',
        'Configuration Check 5G',
        'Configuration Check NBIoT',
      ]);
      const alarms = sheets.get('Alarms')!;
      expect(alarms[0]!.slice(0, 5)).toEqual(['Date & Time', 'Node', 'Tech', 'Severity', 'Alarm']);
      const info = alarms[0]!.indexOf('Additional Info');
      expect(alarms.map((r) => r[info])).toContain('=HYPERLINK("http://evil")');
      const checks = sheets.get('Configuration Check 4G')!;
      expect(checks.map((r) => r[checks[0]!.indexOf('Comment')])).toContain('+LX0001_2 is locked');
      expect(sheets.get('RET Information')!.map((r) => r[r.length - 2])).toContain('-S2');
      // A formula cell would be read back as an object { formula }, never as the plain text.
      for (const rows of sheets.values())
        for (const row of rows) for (const cell of row) expect(typeof cell === 'object' && cell !== null && !(cell instanceof Date)).toBe(false);
      expect(sheets.get('Alarms')![1]![0]).toBeInstanceOf(Date);
    });

    it('Excel report: 599 for a site without parsed logs, 404 for an unknown site', async () => {
      const none = await get('/api/Monitoring/GetSiteReportExcel?siteId=LX0003');
      expect([none.statusCode, none.json()]).toEqual([599, { message: 'No logs parsed yet for site LX0003.' }]);
      const unknown = await get('/api/Monitoring/GetSiteReportExcel?siteId=NO-SUCH-SITE');
      expect([unknown.statusCode, unknown.json()]).toEqual([404, { message: 'Site NO-SUCH-SITE not found.' }]);
    });

    it('Email report: the workbook lands in the outbox, addressed to the caller', async () => {
      const before = outboxFiles(config.dataDir).length;
      const res = await get(`/api/Monitoring/GetSiteReportEmail?siteId=LX0001&userId=${ids.os}`);
      expect([res.statusCode, res.json()]).toEqual([200, { message: 'Report sent to os@cellwise.local.' }]);
      const mails = outboxFiles(config.dataDir);
      expect(mails).toHaveLength(before + 1);
      const mail = mails[mails.length - 1]!;
      expect(mail).toMatch(/^To: os@cellwise\.local$/m);
      const attachment = attachmentOf(mail);
      expect(attachment?.name).toMatch(/^SiteReport_LX0001_.*\.xlsx$/);
      expect([...(await sheetsOf(attachment!.content)).keys()]).toHaveLength(9);
    });

    it('Email report: only to yourself; 599 and 404 as the Excel report', async () => {
      const other = await get(`/api/Monitoring/GetSiteReportEmail?siteId=LX0001&userId=${ids.admin}`);
      expect([other.statusCode, other.json()]).toEqual([403, { message: 'You can only email a report to yourself.' }]);
      expect((await get(`/api/Monitoring/GetSiteReportEmail?siteId=LX0003&userId=${ids.os}`)).statusCode).toBe(599);
      expect((await get(`/api/Monitoring/GetSiteReportEmail?siteId=NO-SUCH-SITE&userId=${ids.os}`)).statusCode).toBe(404);
    });

    it('hints: Administrators save and delete them, the alarm list follows; others get 403', async () => {
      expect((await post('/api/Monitoring/SaveAlarmHint', { alarmName: 'Fan Failure', hint: 'Replace FAN-1 today.' }, 'os')).statusCode).toBe(403);
      const saved = await post('/api/Monitoring/SaveAlarmHint', { alarmName: ' Fan Failure ', hint: 'Replace FAN-1 today.' }, 'admin');
      expect(saved.json()).toEqual({ message: 'Hint saved.' });
      const hint = (await get('/api/Monitoring/GetAlarmHints')).json<AlarmHint[]>().find((h) => h.alarmName === 'Fan Failure');
      expect(hint).toMatchObject({ hint: 'Replace FAN-1 today.', updatedBy: 'Cellwise Administrator' });
      expect((await alarmsPage(filters({ AlarmName: 'Fan Failure' }))).rows[0]!.hint).toBe('Replace FAN-1 today.');

      expect((await post('/api/Monitoring/DeleteAlarmHint', { alarmName: 'Fan Failure' }, 'os')).statusCode).toBe(403);
      expect((await post('/api/Monitoring/DeleteAlarmHint', { alarmName: 'Fan Failure' }, 'admin')).json()).toEqual({ message: 'Hint deleted.' });
      expect((await alarmsPage(filters({ AlarmName: 'Fan Failure' }))).rows[0]!.hint).toBeNull();
      const missing = await post('/api/Monitoring/DeleteAlarmHint', { alarmName: 'Fan Failure' }, 'admin');
      expect([missing.statusCode, missing.json()]).toEqual([404, { message: 'Hint not found.' }]);
      expect((await post('/api/Monitoring/SaveAlarmHint', { alarmName: '  ', hint: 'x' }, 'admin')).statusCode).toBe(400);
    });

    it('PM counters: a zip of measCollecFiles gives node verdicts, the overall summary and the site report follow', async () => {
      const zip = await zipOf([
        [
          'A20240305.1000+0000-1015+0000_LX0001.xml',
          ericssonLteFile('LX0001', [{ end: '2024-03-05T10:15:00+00:00', cells: [{ cell: 'LX0001_1', downtimeAuto: 0, rrcSucc: 999, rrcAtt: 1000 }] }]),
        ],
        [
          'A20240305.1000+0000-1015+0000_NR_LX0001.xml',
          ericssonLteFile('NR_LX0001', [{ end: '2024-03-05T10:15:00+00:00', cells: [{ cell: 'NR_LX0001_1', downtimeAuto: 300 }] }]),
        ],
        ['LX0002.xml', ANNEX_STYLE_FILE],
        ['README.txt', 'not a PM file'],
      ]);
      const res = await get(`/api/Monitoring/ImportPerformanceCounters?filePath=${await upload(zip, 'pm.zip')}`, 'admin');
      expect([res.statusCode, res.json()]).toEqual([
        200,
        {
          message: 'PM counters imported: 3 nodes read (4 measured objects, 12 counter values), 3 judged.',
          nodes: 3,
          nodesRead: 3,
          measValues: 4,
          counterValues: 12,
        },
      ]);
      const rows = await database.db.selectFrom('monitoring_performance').selectAll().orderBy('node_name').execute();
      expect(rows.map((r) => [r.node_name, r.site_id, r.status])).toEqual([
        ['LX0001', 'LX0001', 'OK'],
        ['LX0002', 'LX0002', 'NOK'],
        ['NR_LX0001', 'LX0001', 'NOK'],
      ]);
      expect(rows[2]!.comments).toBe('NR_LX0001_1: cell down 300 s (pmCellDowntimeAuto)');
      const stamp = (await get('/api/Monitoring/GetPerformanceLastImport')).json<string>();
      expect(new Date(stamp).getTime()).toBeGreaterThan(Date.now() - 60_000);
      const overall = await list<OverallSiteSummaryPage>('GetOverallSiteSummary', filters({ siteId: 'LX000' }));
      expect(overall.rows.map((r) => [r.siteId, r.performanceStatus])).toEqual([
        ['LX0001', 'NOK'],
        ['LX0002', 'NOK'],
      ]);
      const report = (await get('/api/Monitoring/GetSiteReport?siteId=LX0001')).json<SiteReport>();
      expect(report.tables[0]!.TableData.map((r) => [r.nodeName, r.performanceStatus])).toEqual([
        ['LX0001', 'OK'],
        ['NR_LX0001', 'NOK'],
      ]);
    });

    it('reads what the real log ingestion stores: summaries, report tabs, and an acknowledgement that survives a re-upload', async () => {
      const file = path.join(temp, 'mobatch-logs.zip');
      await writeLogArchive(file, syntheticLogNodes(2), { now: new Date('2024-03-07T12:00:00Z') });
      const parse = async () => {
        const uploadId = await upload(fs.readFileSync(file), 'mobatch-logs.zip', 'os');
        const res = await get(`/api/Parser/ParseEricssonLogs?filesPath=${uploadId}&userId=${ids.os}`, 'os');
        expect(res.statusCode).toBe(200);
      };
      await parse();
      const nodes = (await list<FaultSummaryPage>('GetFaultManagementSummary', filters({ nodeName: 'BX0000' }))).rows;
      expect(nodes.length).toBeGreaterThan(0);
      for (const row of nodes) expect(['OK', 'NOK', 'N/A']).toContain(row.alarmStatus);
      const alarms = await alarmsPage(filters({ nodeName: 'BX0000' }));
      const site = nodes.find((n) => n.remarks.includes('Not in inventory') && n.alarmCount > 0)!;
      expect(site).toBeDefined();
      const report = (await get(`/api/Monitoring/GetSiteReport?siteId=${site.siteId ?? site.nodeName}`)).json<SiteReport>();
      expect(report.tables.find((t) => t.TableName === 'Site Summary')!.TableData.length).toBeGreaterThan(0);
      expect(report.tables.find((t) => t.TableName === 'Alarms')!.TableData.length).toBeGreaterThan(0);

      const target = alarms.rows.find((r) => r.nodeName === site.nodeName && r.acknowledged === 'No')!;
      expect((await post('/api/Monitoring/AcknowledgeAlarm', { alarmId: target.id, note: 'Known, ticket 42' })).statusCode).toBe(200);
      await parse();
      const after = (await alarmsPage(filters({ nodeName: site.nodeName, AlarmName: target.AlarmName, moName: target.moName }))).rows;
      expect(after.map((r) => [r.acknowledged, r.ackNote])).toContainEqual(['Yes', 'Known, ticket 42']);
      const excel = await get(`/api/Monitoring/GetSiteReportExcel?siteId=${site.siteId ?? site.nodeName}`);
      expect(excel.statusCode).toBe(200);
    });

    it('PM counters: bad XML is refused naming the file and line, and nothing changes', async () => {
      const before = await database.db.selectFrom('monitoring_performance').selectAll().orderBy('node_name').execute();
      const zip = await zipOf([
        ['good.xml', ericssonLteFile('LX0001', [{ end: '2024-03-05T11:15:00+00:00', cells: [{ cell: 'LX0001_1', downtimeAuto: 900 }] }])],
        ['broken.xml', '<measCollecFile>\n<measData>\n<measInfo>\n</measData>\n'],
      ]);
      const res = await get(`/api/Monitoring/ImportPerformanceCounters?filePath=${await upload(zip, 'pm-bad.zip')}`, 'admin');
      expect(res.statusCode).toBe(400);
      expect(res.json<{ message: string }>().message).toMatch(/^broken\.xml, line 4: malformed XML/);
      expect(await database.db.selectFrom('monitoring_performance').selectAll().orderBy('node_name').execute()).toEqual(before);

      const noXml = await get(`/api/Monitoring/ImportPerformanceCounters?filePath=${await upload(await zipOf([['a.txt', 'x']]), 'none.zip')}`, 'admin');
      expect([noXml.statusCode, noXml.json<{ message: string }>().message]).toEqual([400, 'The archive holds no .xml PM file (TS 32.435 measCollecFile).']);
      expect((await get('/api/Monitoring/ImportPerformanceCounters?filePath=no-such-upload', 'admin')).statusCode).toBe(404);
      expect((await get('/api/Monitoring/ImportPerformanceCounters?filePath=no-such-upload', 'os')).statusCode).toBe(403);
    });
  });
});
