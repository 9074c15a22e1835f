import type { FastifyInstance, InjectOptions } from 'fastify';
import type { AlarmChange, AlarmCounts, AlarmPage, DigestSchedule, ReportRecipient, SiteSearchHit, UploadedFiles } from 'contracts';
import type { Config } from '../src/config';
import { runInOperator } from '../src/db/operator-scope';
import { readOutbox } from '../src/mail';
import { DIGEST_KIND, queueDueDigests } from '../src/monitoring/digests';
import { seed } from '../src/seed';
import { logZip } from './fixtures/monitoring/archives';
import { lteNodeLog, type AlarmSpec } from './fixtures/monitoring/logs';
import { multipart } from './fixtures/tracking/workbooks';
import { testApp } from './support/app';
import { TEST_DATABASES, type TestDatabase } from './support/databases';
import { insertUser } from './support/principals';
import { insertOperatorRecords } from './support/tenants';

const MAJOR: AlarmSpec = {
  at: '2024-04-30 13:02:11',
  severity: 'M',
  problem: 'Resource Configuration Failure',
  mo: 'ENodeBFunction=1,EUtranCellFDD=LX0101_1',
  info: 'retry 3',
};
const WARNING: AlarmSpec = { at: '2024-04-29 07:15:00', severity: 'w', problem: 'Fan Failure', mo: 'Equipment=1,Fan=1', info: 'speed low' };
const CRITICAL: AlarmSpec = { at: '2024-05-01 08:00:00', severity: 'C', problem: 'Link Failure', mo: 'Transport=1,EthernetPort=TN_A', info: 'down' };
const MINOR_ON_102: AlarmSpec = { at: '2024-05-01 09:00:00', severity: 'm', problem: 'Clock Drift', mo: 'SysM=1,TimeM=1', info: 'drift' };

const SITES = ['LX0101', 'LX0102', 'LX0201'];

describe.each(TEST_DATABASES)('the alarm console, site search and reports to a list on $name', (kind) => {
  let database: TestDatabase;
  let app: FastifyInstance;
  let config: Config;
  let token = '';
  let adminId = 0;
  let operatorId = 0;
  let now = Date.parse('2026-03-02T10:30:00Z');

  beforeAll(async () => {
    database = await kind.open();
    ({ app, config } = await testApp(database, {}, { clock: () => now }));
    await seed(database.db, config);
    const admin = await database.db.selectFrom('users').select(['id', 'operator_id']).where('email', '=', config.adminEmail).executeTakeFirstOrThrow();
    adminId = admin.id;
    operatorId = admin.operator_id!;
    token = (await app.auth.issueToken(adminId))!;
    await runInOperator(operatorId, async () => {
      await database.db
        .insertInto('network_sites')
        .values(SITES.map((site, i) => ({ id: site, name: i === 2 ? 'Alfama 100%' : `Site ${site}`, lat: 38.7, lon: -9.1 })))
        .execute();
      await database.db
        .insertInto('network_nodes')
        .values(SITES.map((name) => ({ name, dn: `SubNetwork=1,MeContext=${name}`, site_id: name, technology: '4G', type: 'RadioNode' })))
        .execute();
    });
  });
  afterAll(async () => {
    await app.close();
    await database.dispose();
  });

  const headers = () => ({ authorization: `Bearer ${token}` });
  const call = (options: InjectOptions) => app.inject({ ...options, headers: { ...headers(), ...options.headers } });
  const get = (url: string) => call({ url });
  async function parse(logs: Record<string, string>) {
    const body = multipart([{ name: 'files', filename: 'logs.zip', content: logZip(logs) }]);
    const sent = await call({ method: 'POST', url: '/api/File/UploadMultiple', payload: body.payload, headers: body.headers });
    expect(sent.statusCode).toBe(200);
    const id = sent.json<UploadedFiles>().uploads[0]!.uploadId;
    const res = await get(`/api/Parser/ParseEricssonLogs?filesPath=${id}&userId=${adminId}`);
    expect(res.statusCode).toBe(200);
  }
  const log = (node: string, alarms: AlarmSpec[], time: string) => lteNodeLog(node, { alarms, header: { time } });

  test("a node's first log has nothing to compare with; the second says what is new and what cleared", async () => {
    await parse({ 'LX0101.log': log('LX0101', [MAJOR, WARNING], '240430-15:40:35'), 'LX0102.log': log('LX0102', [], '240430-15:40:35') });
    expect((await get('/api/Monitoring/GetAlarmChanges')).json()).toEqual([]);
    expect((await get('/api/Monitoring/GetAlarmCounts')).json<AlarmCounts>()).toMatchObject({
      Major: 1,
      Warning: 1,
      Critical: 0,
      newSinceLastLog: 0,
      clearedSinceLastLog: 0,
    });

    await parse({ 'LX0101.log': log('LX0101', [MAJOR, CRITICAL], '240501-15:40:35'), 'LX0102.log': log('LX0102', [MINOR_ON_102], '240501-15:40:35') });
    const changes = (await get('/api/Monitoring/GetAlarmChanges')).json<AlarmChange[]>();
    expect(changes.map((c) => [c.nodeName, c.change, c.severity, c.AlarmName])).toEqual([
      ['LX0101', 'new', 'Critical', 'Link Failure'],
      ['LX0101', 'cleared', 'Warning', 'Fan Failure'],
      ['LX0102', 'new', 'Minor', 'Clock Drift'],
    ]);
    expect(changes[0]).toMatchObject({ siteId: 'LX0101', logsDate: '2024-05-01T15:40:35.000Z', previousLogsDate: '2024-04-30T15:40:35.000Z' });
    const site = (await get('/api/Monitoring/GetAlarmChanges?siteId=LX0102')).json<AlarmChange[]>();
    expect(site.map((c) => c.AlarmName)).toEqual(['Clock Drift']);
    expect((await get('/api/Monitoring/GetAlarmCounts')).json<AlarmCounts>()).toEqual({
      Critical: 1,
      Major: 1,
      Minor: 1,
      Warning: 0,
      acknowledged: 0,
      total: 3,
      newSinceLastLog: 2,
      clearedSinceLastLog: 1,
    });
  });

  test('a log of only one node replaces only that node’s changes; the same alarms again mean no change', async () => {
    // Every console of the operator is told when the parse is stored (the hub's AlarmsChanged), the admin's among them.
    const broadcast = jest.spyOn(app.notifications, 'broadcast');
    await parse({ 'LX0101.log': log('LX0101', [MAJOR, CRITICAL], '240502-15:40:35') });
    const changes = (await get('/api/Monitoring/GetAlarmChanges')).json<AlarmChange[]>();
    expect(changes.map((c) => [c.nodeName, c.AlarmName])).toEqual([['LX0102', 'Clock Drift']]);
    const told = broadcast.mock.calls.map(([b]) => b).filter((b) => b.target === 'AlarmsChanged');
    broadcast.mockRestore();
    expect(told).toHaveLength(1);
    expect(told[0]!.deliveries.map((d) => d.userId)).toContain(adminId);
    expect(told[0]!.deliveries[0]!.args).toEqual([{ reason: 'parse', parseId: expect.any(Number) }]);
  });

  test('several alarms are acknowledged with one note, all or none', async () => {
    const page = (await get('/api/Monitoring/GetFaultManagement')).json<AlarmPage>();
    const ids = page.rows.map((r) => r.id);
    expect(ids).toHaveLength(3);
    const ack = (payload: InjectOptions['payload']) => call({ method: 'POST', url: '/api/Monitoring/AcknowledgeAlarms', payload });

    const missing = await ack({ alarmIds: [ids[0], 2_000_000_000], note: 'Known' });
    expect([missing.statusCode, missing.json()]).toEqual([404, { message: '1 of the selected alarm was not found: refresh the list and try again.' }]);
    expect((await get('/api/Monitoring/GetAlarmCounts')).json<AlarmCounts>().acknowledged).toBe(0);
    expect((await ack({ alarmIds: [ids[0], ids[0]], note: 'Known' })).statusCode).toBe(400);
    expect((await ack({ alarmIds: [ids[0]], note: '   ' })).json()).toEqual({ message: 'Note is required.' });

    const done = await ack({ alarmIds: [ids[0], ids[1]], note: 'Field team on site' });
    expect([done.statusCode, done.json()]).toEqual([200, { message: '2 alarms acknowledged.' }]);
    const after = (await get('/api/Monitoring/GetFaultManagement')).json<AlarmPage>().rows;
    expect(after.filter((r) => r.acknowledged === 'Yes').map((r) => [r.id, r.ackNote])).toEqual([
      [ids[0], 'Field team on site'],
      [ids[1], 'Field team on site'],
    ]);
    expect((await get('/api/Monitoring/GetAlarmCounts')).json<AlarmCounts>().acknowledged).toBe(2);
    // The counters' filters are the list's own: clicking 'acknowledged' lists these two.
    const filtered = (await get(`/api/Monitoring/GetFaultManagement?filters=${encodeURIComponent(JSON.stringify({ acknowledged: 'Yes' }))}`)).json<AlarmPage>();
    expect(filtered.total).toBe(2);
  });

  test('site search: id or name, ids that start with the text first, typed characters taken literally', async () => {
    const search = async (text: string) => (await get(`/api/Monitoring/SearchSites?text=${encodeURIComponent(text)}`)).json<SiteSearchHit[]>();
    expect((await search('lx01')).map((h) => h.siteId)).toEqual(['LX0101', 'LX0102']);
    expect(await search('alfama')).toEqual([{ siteId: 'LX0201', siteName: 'Alfama 100%', overallSiteStatus: null }]);
    expect((await search('100%')).map((h) => h.siteId)).toEqual(['LX0201']);
    expect((await search('%')).map((h) => h.siteId)).toEqual(['LX0201']);
    expect((await search('0101')).map((h) => [h.siteId, h.overallSiteStatus])).toEqual([['LX0101', 'NOK']]);
    expect((await get('/api/Monitoring/SearchSites?text=')).statusCode).toBe(400);
  });

  test('the site report goes to several users of the operator, its status and alarm counts in the body', async () => {
    const recipients = (await get('/api/Monitoring/GetReportRecipients')).json<ReportRecipient[]>();
    expect(recipients.length).toBeGreaterThan(2);
    const chosen = recipients.slice(0, 2);
    const before = readOutbox(config.dataDir).length;
    const send = (payload: InjectOptions['payload']) => call({ method: 'POST', url: '/api/Monitoring/SendSiteReport', payload });

    const outsider = await database.db
      .insertInto('users')
      .values({
        firstname: 'Out',
        lastname: 'Sider',
        email: 'outsider@example.pt',
        password_hash: null,
        role_id: 1,
        operator_id: null,
        deactivated_at: null,
        avatar: null,
        created_at: new Date().toISOString(),
        email_confirmed: 1,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const refused = await send({ siteId: 'LX0101', userIds: [chosen[0]!.id, outsider.id] });
    expect([refused.statusCode, refused.json()]).toEqual([400, { message: '1 of the recipients is not a user of this operator.' }]);
    expect((await send({ siteId: 'NO-SUCH', userIds: [chosen[0]!.id] })).statusCode).toBe(404);
    expect(readOutbox(config.dataDir)).toHaveLength(before);

    const sent = await send({ siteId: 'LX0101', userIds: chosen.map((r) => r.id) });
    expect([sent.statusCode, sent.json()]).toEqual([200, { message: 'Report sent to 2 recipients.' }]);
    const mails = readOutbox(config.dataDir).slice(before);
    expect(mails.map((m) => m.to).sort()).toEqual(chosen.map((r) => r.email).sort());
    for (const mail of mails) {
      expect(mail.subject).toBe('Cellwise site report LX0101');
      expect(mail.text).toContain('Site LX0101 – Site LX0101: overall status NOK.');
      expect(mail.text).toContain('Alarms: 1 Critical, 1 Major, 0 Minor, 0 Warning (1 acknowledged); 0 new and 0 cleared since the last upload.');
    }
  });

  test('a daily digest per project: scheduled by an Administrator, queued once when its hour comes, sent to its list', async () => {
    const schedules = (await get('/api/Monitoring/GetDigestSchedules')).json<DigestSchedule[]>();
    const operations = schedules.find((s) => s.projectName === 'Operations')!;
    expect(operations).toMatchObject({ hour: null, userIds: [] });
    const recipients = (await get('/api/Monitoring/GetReportRecipients')).json<ReportRecipient[]>();
    const other = await database.db.selectFrom('projects').select('id').where('operator_id', '<>', operatorId).executeTakeFirstOrThrow();
    const save = (payload: InjectOptions['payload']) => call({ method: 'PUT', url: '/api/Monitoring/SaveDigestSchedule', payload });
    expect((await save({ projectId: other.id, hour: 11, userIds: [recipients[0]!.id] })).statusCode).toBe(404);
    expect((await save({ projectId: operations.projectId, hour: 24, userIds: [recipients[0]!.id] })).statusCode).toBe(400);
    const saved = await save({ projectId: operations.projectId, hour: 11, userIds: [recipients[0]!.id, recipients[1]!.id] });
    expect(saved.json()).toEqual({ message: 'Daily digest of Operations scheduled at 11:00 UTC.' });

    // 10:30: not yet. 11:05: queued, once, however often the instances tick.
    expect(await queueDueDigests(app)).toEqual([]);
    now = Date.parse('2026-03-02T11:05:00Z');
    const before = readOutbox(config.dataDir).length;
    const [jobId, ...more] = await queueDueDigests(app);
    expect(more).toEqual([]);
    expect(await queueDueDigests(app)).toEqual([]);
    const job = await app.jobs.waitFor(jobId!);
    expect([job.kind, job.state, job.outcome?.body]).toEqual([
      DIGEST_KIND,
      'succeeded',
      { message: 'Site-status digest of Operations sent to 2 recipients.', recipients: 2 },
    ]);
    const mails = readOutbox(config.dataDir).slice(before);
    expect(mails.map((m) => m.to).sort()).toEqual([recipients[0]!.email, recipients[1]!.email].sort());
    // LX0102's Minor alarm leaves it OK (NOK takes a Critical or Major one).
    expect(mails[0]!.text).toContain('Sites: 1 NOK, 1 OK.\nNOK: LX0101.\n');
    expect(mails[0]!.text).toContain('Alarms: 1 Critical, 1 Major, 1 Minor, 0 Warning (2 acknowledged)');
    // The job dashboard lists it.
    const listed = await get('/api/Jobs/GetJobs');
    expect(listed.body).toContain(jobId!);
    expect((await get('/api/Monitoring/GetDigestSchedules')).json<DigestSchedule[]>().find((s) => s.projectId === operations.projectId)!.lastSentOn).toBe(
      '2026-03-02',
    );

    // The next day at the same hour, again.
    now = Date.parse('2026-03-03T11:00:00Z');
    expect(await queueDueDigests(app)).toHaveLength(1);
    // A session lasts 8 hours: the next day's calls sign in again.
    token = (await app.auth.issueToken(adminId))!;

    const now2 = await call({ method: 'POST', url: '/api/Monitoring/SendDigestNow', payload: { projectId: operations.projectId } });
    expect(now2.statusCode).toBe(200);
    expect((await call({ method: 'DELETE', url: '/api/Monitoring/DeleteDigestSchedule', payload: { projectId: operations.projectId } })).statusCode).toBe(200);
    expect((await call({ method: 'POST', url: '/api/Monitoring/SendDigestNow', payload: { projectId: operations.projectId } })).statusCode).toBe(404);
    await app.jobs.waitFor(now2.json<{ jobId: string }>().jobId);
  });
  test('nothing of another operator: its alarms, sites, users, projects and schedules are neither counted, found nor touched', async () => {
    const nos = await database.db.selectFrom('operators').select('id').where('name', '=', 'NOS').executeTakeFirstOrThrow();
    const counts = (await get('/api/Monitoring/GetAlarmCounts')).json<AlarmCounts>();
    const theirs = await insertOperatorRecords(database, config.dataDir, nos.id, adminId);
    const nosProject = await database.db.selectFrom('projects').select('id').where('operator_id', '=', nos.id).executeTakeFirstOrThrow();
    await runInOperator(nos.id, async () => {
      await database.db
        .insertInto('monitoring_alarm_changes')
        .values({
          node_name: theirs.nodeName,
          site_id: theirs.siteId,
          alarm_key: `${theirs.nodeName}|ManagedElement=1|Theirs`,
          change: 'new',
          severity: 'Critical',
          specific_problem: 'Theirs',
          mo: 'ManagedElement=1',
          alarm_at: null,
          parse_id: theirs.parseId,
          logs_at: null,
          previous_logs_at: null,
        })
        .execute();
      await database.db
        .insertInto('monitoring_digest_schedules')
        .values({ project_id: nosProject.id, hour: 5, recipients: '[]', created_by: null, updated_at: theirs.stamp, last_sent_on: null })
        .execute();
    });
    const nosOnly = await insertUser(database.db, { email: 'nos.only@example.pt', role: 'CellwiseOS', operators: ['NOS'], projects: [['NOS', 'Operations']] });

    expect((await get('/api/Monitoring/GetAlarmCounts')).json<AlarmCounts>()).toEqual(counts);
    expect((await get('/api/Monitoring/GetAlarmChanges')).body).not.toContain('Theirs');
    expect((await get(`/api/Monitoring/SearchSites?text=${theirs.siteId}`)).json()).toEqual([]);
    const ack = await call({ method: 'POST', url: '/api/Monitoring/AcknowledgeAlarms', payload: { alarmIds: [theirs.alarmId], note: 'Not mine' } });
    expect(ack.statusCode).toBe(404);
    expect((await get('/api/Monitoring/GetReportRecipients')).json<ReportRecipient[]>().map((r) => r.id)).not.toContain(nosOnly);
    const mail = await call({ method: 'POST', url: '/api/Monitoring/SendSiteReport', payload: { siteId: 'LX0101', userIds: [nosOnly] } });
    expect(mail.statusCode).toBe(400);
    const mailTheirs = await call({ method: 'POST', url: '/api/Monitoring/SendSiteReport', payload: { siteId: theirs.siteId, userIds: [adminId] } });
    expect(mailTheirs.statusCode).toBe(404);
    expect((await get('/api/Monitoring/GetDigestSchedules')).json<DigestSchedule[]>().map((d) => d.projectId)).not.toContain(nosProject.id);
    const save = await call({ method: 'PUT', url: '/api/Monitoring/SaveDigestSchedule', payload: { projectId: nosProject.id, hour: 6, userIds: [adminId] } });
    expect(save.statusCode).toBe(404);
    expect((await call({ method: 'POST', url: '/api/Monitoring/SendDigestNow', payload: { projectId: nosProject.id } })).statusCode).toBe(404);
    expect((await call({ method: 'DELETE', url: '/api/Monitoring/DeleteDigestSchedule', payload: { projectId: nosProject.id } })).statusCode).toBe(404);
    const kept = await runInOperator(nos.id, () => database.db.selectFrom('monitoring_digest_schedules').select(['hour']).execute());
    expect(kept).toEqual([{ hour: 5 }]);
  });
});
