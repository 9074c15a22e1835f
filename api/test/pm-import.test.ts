import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { PerformanceImportResponse, UploadedFile } from 'contracts';
import { writeZip } from '../src/files/zip-output';
import { seed } from '../src/seed';
import { testApp } from './support/app';
import { TEST_DATABASES, type TestDatabase } from './support/databases';
import { multipart } from './fixtures/tracking/workbooks';

/*
 * Issue 43, variant 10, through the API: a zip of UTRAN, GSM, NR and 5GC measCollecFiles is read whole,
 * the answer counts the nodes and values read and the nodes judged, and a node without KPI counters is
 * stored as N/A with the reason (replacing the verdict an earlier import gave it).
 */

const PM_DIR = path.join(__dirname, 'fixtures/pm');
const read = (name: string) => fs.readFileSync(path.join(PM_DIR, name), 'utf8');
const crlf = (text: string) => text.replace(/\r?\n/g, '\r\n');

describe.each(TEST_DATABASES)('PM counter import of every technology on $name', (kind) => {
  let database: TestDatabase;
  let app: FastifyInstance;
  let token = '';
  const temp = fs.mkdtempSync(path.join(os.tmpdir(), 'cellwise-pm-'));

  beforeAll(async () => {
    database = await kind.open();
    let config;
    ({ app, config } = await testApp(database));
    await seed(database.db, config);
    const { id } = await database.db.selectFrom('users').select('id').where('email', '=', config.adminEmail).executeTakeFirstOrThrow();
    token = (await app.auth.issueToken(id))!;
  });

  afterAll(async () => {
    await app.close();
    await database.dispose();
    fs.rmSync(temp, { recursive: true, force: true });
  });

  async function importZip(entries: ReadonlyArray<readonly [string, string]>) {
    const file = path.join(temp, `pm-${Math.random().toString(36).slice(2)}.zip`);
    await writeZip(file, entries);
    const body = multipart([{ name: 'file', filename: 'pm.zip', content: fs.readFileSync(file) }]);
    const headers = { authorization: `Bearer ${token}` };
    const uploaded = await app.inject({ method: 'POST', url: '/api/File/Upload', payload: body.payload, headers: { ...body.headers, ...headers } });
    expect(uploaded.statusCode).toBe(200);
    return app.inject({ url: `/api/Monitoring/ImportPerformanceCounters?filePath=${uploaded.json<UploadedFile>().uploadId}`, headers });
  }
  const stored = () => database.db.selectFrom('monitoring_performance').select(['node_name', 'status', 'comments', 'file_name']).orderBy('node_name').execute();

  it('answers how many nodes and values were read and how many nodes were judged; stores OK/NOK and N/A with the reason', async () => {
    // An earlier import judged UPF01 (by a counter its new files no longer carry).
    const earlier = `<measCollecFile><measData><managedElement localDn="SubNetwork=IL-CORE,ManagedElement=UPF01"/><measInfo>
<granPeriod duration="PT900S" endTime="2026-11-29T10:15:00+02:00"/><measTypes>pmCellDowntimeAuto</measTypes>
<measValue measObjLdn="ManagedElement=UPF01,UPFFunction=1"><measResults>0</measResults></measValue></measInfo></measData></measCollecFile>`;
    expect((await importZip([['upf.xml', earlier]])).json<PerformanceImportResponse>()).toMatchObject({ nodes: 1, nodesRead: 1 });
    expect((await stored()).map((r) => [r.node_name, r.status])).toEqual([['UPF01', 'OK']]);

    const res = await importZip([
      ['A20261130.1000+0200-1015+0200_RNC01.xml', read('A20261130.1000+0200-1015+0200_RNC01.xml')],
      ['gsm-bsc-annex.xml', crlf(read('gsm-bsc-annex.xml'))],
      ['nr-gnb-28552.xml', read('nr-gnb-28552.xml')],
      ['core-5gc.xml', crlf(read('core-5gc.xml'))],
      ['README.txt', 'not a PM file'],
    ]);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      message: 'PM counters imported: 6 nodes read (14 measured objects, 68 counter values), 5 judged, 1 N/A (no KPI counters).',
      nodes: 5,
      nodesRead: 6,
      measValues: 14,
      counterValues: 68,
    });
    const rows = await stored();
    expect(rows.map((r) => [r.node_name, r.status, r.file_name])).toEqual([
      ['AMF01', 'OK', 'core-5gc.xml'],
      ['BSC07', 'NOK', 'gsm-bsc-annex.xml'],
      ['GNB_41428_KAINARFARM', 'NOK', 'nr-gnb-28552.xml'],
      ['RNC01', 'NOK', 'A20261130.1000+0200-1015+0200_RNC01.xml'],
      ['SMF01', 'NOK', 'core-5gc.xml'],
      ['UPF01', 'N/A', 'core-5gc.xml'],
    ]);
    expect(rows.find((r) => r.node_name === 'UPF01')!.comments).toBe(
      'No KPI counters of Core (accessibility, retainability, handover success, cell downtime); the files hold GTP.InDataOctN3UPF, GTP.OutDataOctN3UPF',
    );
    expect(rows.find((r) => r.node_name === 'RNC01')!.comments).toMatch(/^CC1405B: PS retainability 97\.0 %/);
  });

  it('a file cut inside a measValue is refused with its name and line, and nothing changes', async () => {
    const before = await stored();
    const nr = read('nr-gnb-28552.xml');
    const res = await importZip([
      ['core-5gc.xml', read('core-5gc.xml')],
      ['nr-cut.xml', nr.slice(0, nr.indexOf('<measResults>450 50 500'))],
    ]);
    expect([res.statusCode, res.json<{ message: string }>().message]).toEqual([400, 'nr-cut.xml, line 20: unexpected end of file']);
    expect(await stored()).toEqual(before);
  });
});
