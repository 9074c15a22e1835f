import type { FastifyInstance } from 'fastify';
import type { UploadedFile } from 'contracts';
import type { Config } from '../src/config';
import { runInOperator } from '../src/db/operator-scope';
import { seed } from '../src/seed';
import { testApp } from './support/app';
import { TEST_DATABASES, type TestDatabase } from './support/databases';
import { ADMIN_PASSWORD } from './support/principals';
import { MAJOR_ON_LX0001 } from './fixtures/monitoring/archives';
import { lteNodeLog } from './fixtures/monitoring/logs';
import { multipart as dumpMultipart, siteListDump, type ListSite } from './fixtures/network-import/dumps';
import { multipart, PLAN_HEADER, planRow, workbook } from './fixtures/tracking/workbooks';
import { logZip } from './fixtures/monitoring/archives';

/**
 * Issue 42, acceptance: two operators whose networks name the same nodes and sites stay apart in every
 * list, summary, report, export and run, and an import into one (network dump, commissioning plan, log
 * parse) leaves the other's answers exactly as they were. Everything goes through the API, as the
 * Administrator switched from one operator to the other in Settings.
 */
const SITES = ['LX0101', 'LX0102'];

/** What each operator calls its sites, plans and alarms: words that appear nowhere else. */
const WORDS = {
  first: { site: 'Alfama', equipment: 'Alfa equipment', problem: 'Alfa Failure', extraSite: null },
  second: { site: 'Boavista', equipment: 'Bravo equipment', problem: 'Bravo Failure', extraSite: 'LX0109' },
} as const;
type Side = keyof typeof WORDS;

describe.each(TEST_DATABASES)('two operators with the same node names on $name', (kind) => {
  let database: TestDatabase;
  let app: FastifyInstance;
  let config: Config;
  let token = '';
  let adminId = 0;
  const operatorIds = {} as Record<Side, number>;

  beforeAll(async () => {
    database = await kind.open();
    ({ app, config } = await testApp(database));
    await seed(database.db, { ...config, adminPassword: ADMIN_PASSWORD, demoData: true });
    const admin = await database.db.selectFrom('users').select('id').where('email', '=', config.adminEmail).executeTakeFirstOrThrow();
    adminId = admin.id;
    token = (await app.auth.issueToken(adminId))!;
    for (const [side, name] of [
      ['first', 'Vodafone PT'],
      ['second', 'NOS'],
    ] as const) {
      operatorIds[side] = (await database.db.selectFrom('operators').select('id').where('name', '=', name).executeTakeFirstOrThrow()).id;
    }
  });
  afterAll(async () => {
    await app.close();
    await database.dispose();
  });

  const headers = () => ({ authorization: `Bearer ${token}` });
  const get = (url: string) => app.inject({ url, headers: headers() });
  /** As Settings does: the next request reads the user's new current operator. */
  const switchTo = (side: Side) => database.db.updateTable('users').set({ operator_id: operatorIds[side] }).where('id', '=', adminId).execute();

  async function upload(content: Buffer, name: string): Promise<string> {
    const body = multipart([{ name: 'file', filename: name, content }]);
    const res = await app.inject({ method: 'POST', url: '/api/File/Upload', payload: body.payload, headers: { ...body.headers, ...headers() } });
    expect(res.statusCode).toBe(200);
    return res.json<UploadedFile>().uploadId;
  }

  async function importDump(side: Side): Promise<void> {
    const words = WORDS[side];
    const sites: ListSite[] = [...SITES, ...(words.extraSite ? [words.extraSite] : [])].map((id, i) => ({ id, name: `${words.site} ${i + 1}`, utran: true }));
    const body = dumpMultipart([{ name: 'file', filename: `${side}.txt`, content: siteListDump(sites) }]);
    const res = await app.inject({ method: 'POST', url: '/api/Network/ImportDump', payload: body.payload, headers: { ...body.headers, ...headers() } });
    expect({ side, status: res.statusCode }).toEqual({ side, status: 200 });
  }

  async function importPlan(side: Side): Promise<void> {
    const rows = SITES.map((localId, i) => planRow(i + 1, { localId, equipName: `${WORDS[side].equipment} ${i + 1}`, comments: `${side} plan` }));
    const res = await get(`/api/Tracker/CommissioningPlanUpload?filePath=${await upload(await workbook(PLAN_HEADER, rows), 'plan.xlsx')}`);
    expect({ side, status: res.statusCode, body: res.statusCode === 200 ? 'ok' : res.body }).toEqual({ side, status: 200, body: 'ok' });
  }

  async function parseLogs(side: Side): Promise<void> {
    const entries = Object.fromEntries(
      SITES.map((node) => [`${node}.log`, lteNodeLog(node, { alarms: [{ ...MAJOR_ON_LX0001, problem: WORDS[side].problem, mo: 'ENodeBFunction=1' }] })]),
    );
    // The archive is named after the operator's words, so the parse history shows whose it is.
    const body = multipart([{ name: 'files', filename: `${WORDS[side].site} logs.zip`, content: logZip(entries) }]);
    const sent = await app.inject({ method: 'POST', url: '/api/File/UploadMultiple', payload: body.payload, headers: { ...body.headers, ...headers() } });
    expect(sent.statusCode).toBe(200);
    const id = sent.json<{ uploads: Array<{ uploadId: string }> }>().uploads[0]!.uploadId;
    const res = await get(`/api/Parser/ParseEricssonLogs?filesPath=${id}&userId=${adminId}`);
    expect({ side, status: res.statusCode, body: res.statusCode === 200 ? 'ok' : res.body }).toEqual({ side, status: 200, body: 'ok' });
  }

  /** Every list, summary and report the console reads for these sites, as the current operator sees them. */
  const READS = [
    '/api/Network/GetSummary',
    '/api/Parameters/GetLastDumpDate',
    '/api/Parameters/GetSiteList?query=LX01',
    '/api/Validation/GetSites',
    '/api/Validation/GetUtranSites',
    '/api/Monitoring/GetSiteList',
    '/api/Tracker/GetCommissioningPlan?size=100',
    '/api/Tracker/GetCommissioningPlanLastImport',
    '/api/Monitoring/GetLogsLastImport',
    '/api/Monitoring/GetFaultManagement?size=100',
    '/api/Monitoring/GetFaultManagementSummary?size=100',
    '/api/Monitoring/GetConfigurationManagementSummary?size=100',
    '/api/Monitoring/GetOverallSiteSummary?size=100',
    '/api/Monitoring/GetSiteReport?siteId=LX0101',
    '/api/Monitoring/GetSiteReport?siteId=LX0102',
    '/api/Parser/GetParseHistory?size=100',
    '/api/Dashboard/GetRollout',
    '/api/Monitoring/GetSiteMap',
  ];

  /** Each read's status and answer, as the operator sees them. */
  async function answers(side: Side): Promise<Record<string, { status: number; body: unknown }>> {
    await switchTo(side);
    const seen: Record<string, { status: number; body: unknown }> = {};
    for (const url of READS) {
      const res = await get(url);
      expect({ url, status: res.statusCode < 500 }).toEqual({ url, status: true });
      seen[url] = { status: res.statusCode, body: res.json() };
    }
    return seen;
  }

  const mentions = (answer: unknown, side: Side) => {
    const text = JSON.stringify(answer);
    const words = WORDS[side];
    return [words.site, words.equipment, words.problem, ...(words.extraSite ? [words.extraSite] : [])].filter((word) => text.includes(word));
  };

  /** A site report exported as a workbook, read back as text. */
  async function exportedText(url: string, side: Side): Promise<string> {
    const res = await get(url);
    expect({ side, url, status: res.statusCode, body: res.statusCode === 200 ? 'ok' : res.body }).toEqual({ side, url, status: 200, body: 'ok' });
    const download = await get(`/api/File/Download?file=${encodeURIComponent(res.json<{ file: string }>().file)}`);
    expect(download.statusCode).toBe(200);
    const ExcelJS = (await import('exceljs')).default;
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(download.rawPayload as never);
    const cells: string[] = [];
    book.eachSheet((sheet) => sheet.eachRow((row) => row.eachCell((cell) => cells.push(String(cell.text)))));
    return cells.join('\n');
  }

  let firstBefore: Record<string, { status: number; body: unknown }>;

  test("the first operator's imports: its inventory, plan and logs", async () => {
    await switchTo('first');
    await importDump('first');
    await importPlan('first');
    await parseLogs('first');
    firstBefore = await answers('first');
    expect(Object.entries(firstBefore).filter(([, answer]) => answer.status !== 200)).toEqual([]);
    expect(Object.entries(firstBefore).filter(([, answer]) => mentions(answer, 'second').length > 0)).toEqual([]);
    // Every read but the dates shows the first operator's words.
    const silent = Object.entries(firstBefore).filter(([url, answer]) => mentions(answer, 'first').length === 0 && !/Last|Date|GetSummary|Rollout/.test(url));
    expect(silent.map(([url]) => url)).toEqual([]);
  });

  test("the second operator's imports of the same node names leave every answer of the first as it was", async () => {
    await switchTo('second');
    // Before its own imports the second operator sees nothing of the first.
    const empty = await answers('second');
    expect(Object.entries(empty).filter(([, answer]) => mentions(answer, 'first').length > 0)).toEqual([]);
    // Its site of the same id does not exist yet: the first operator's is not found in its scope.
    expect(empty['/api/Monitoring/GetSiteReport?siteId=LX0101']!.status).toBe(404);

    await switchTo('second');
    await importDump('second');
    await importPlan('second');
    await parseLogs('second');
    const second = await answers('second');
    expect(Object.entries(second).filter(([, answer]) => answer.status !== 200)).toEqual([]);
    expect(Object.entries(second).filter(([, answer]) => mentions(answer, 'first').length > 0)).toEqual([]);
    expect(mentions(second['/api/Monitoring/GetSiteReport?siteId=LX0101'], 'second')).toContain(WORDS.second.site);

    expect(await answers('first')).toEqual(firstBefore);
  });

  test('the same site id reports and exports each operator its own site', async () => {
    for (const side of ['first', 'second'] as const) {
      await switchTo(side);
      const other: Side = side === 'first' ? 'second' : 'first';
      const text = await exportedText('/api/Monitoring/GetSiteReportExcel?siteId=LX0101', side);
      expect({ side, own: text.includes(WORDS[side].problem), other: text.includes(WORDS[other].problem) }).toEqual({ side, own: true, other: false });
      const plan = await exportedText('/api/Tracker/GetCommissioningPlanExcel', side);
      expect({ side, own: plan.includes(WORDS[side].equipment), other: plan.includes(WORDS[other].equipment) }).toEqual({ side, own: true, other: false });
    }
    // A site only the second operator has is not the first's to report.
    await switchTo('first');
    expect((await get('/api/Monitoring/GetSiteReport?siteId=LX0109')).statusCode).toBe(404);
  });

  test("a run reads its operator's network and is listed in its operator's history only", async () => {
    const runs = {} as Record<Side, { runId: number; body: string }>;
    for (const side of ['first', 'second'] as const) {
      await switchTo(side);
      const res = await get(`/api/Validation/RunCpichValidation?sites=${SITES.join(',')}&userId=${adminId}`);
      expect({ side, status: res.statusCode, body: res.statusCode === 200 ? 'ok' : res.body }).toEqual({ side, status: 200, body: 'ok' });
      runs[side] = { runId: res.json<{ runId: number }>().runId, body: res.body };
    }
    for (const side of ['first', 'second'] as const) {
      await switchTo(side);
      const other: Side = side === 'first' ? 'second' : 'first';
      const history = (await get('/api/Validation/GetCpichValidationHistory?size=100')).json<{ rows: Array<{ id: number }> }>();
      expect({ side, ids: history.rows.map((r) => r.id) }).toEqual({ side, ids: [runs[side].runId] });
      expect((await get(`/api/Validation/GetCpichValidationExport?cpichValidationId=${runs[other].runId}`)).statusCode).toBe(404);
      expect((await get(`/api/Validation/GetCpichValidationExport?cpichValidationId=${runs[side].runId}`)).statusCode).toBe(200);
    }
    // The run rows themselves belong to the operator each ran in.
    for (const side of ['first', 'second'] as const) {
      const own = await runInOperator(operatorIds[side], () => database.db.selectFrom('runs').select('id').where('kind', '=', 'cpichValidation').execute());
      expect(own.map((r) => r.id)).toEqual([runs[side].runId]);
    }
  });
});
