import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../src/config';
import type { FileResponse, ParseHistoryPage, ParseReport, ParseResponse, UnusableLogsResponse, UploadedFiles } from 'contracts';
import { readArchive } from '../src/files';
import { INGEST_MESSAGES, ingestArchives, LogArchiveError } from '../src/monitoring/ingest';
import { seed } from '../src/seed';
import { testApp } from './support/app';
import { TEST_DATABASES, type TestDatabase } from './support/databases';
import { deflatedZeros, zip } from './fixtures/files/zips';
import { BINARY_JUNK, firstArchive, logZip, MAJOR_ON_LX0001, WARNING_ACKED_ON_LX0001 } from './fixtures/monitoring/archives';
import { corruptedZip, encryptedZip, insideOffsetZip, zip64Zip } from './fixtures/monitoring/damaged-zips';
import { LTE_CELL, lteNodeLog, type AlarmSpec } from './fixtures/monitoring/logs';
import { multipart } from './fixtures/tracking/workbooks';

type Who = 'admin' | 'os' | 'client';

const MONITORING_TABLES = [
  'monitoring_parses',
  'monitoring_nodes',
  'monitoring_alarms',
  'monitoring_alarm_acks',
  'monitoring_states',
  'monitoring_attributes',
  'monitoring_ret',
  'monitoring_findings',
] as const;

const tempDirs: string[] = [];
function tempFile(name: string, content: Buffer): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cellwise-logs-'));
  tempDirs.push(dir);
  const file = path.join(dir, name);
  fs.writeFileSync(file, content);
  return file;
}

describe.each(TEST_DATABASES)('the log parser on $name', (kind) => {
  let database: TestDatabase;
  let app: FastifyInstance;
  let config: Config;
  const tokens: Record<Who, string> = { admin: '', os: '', client: '' };
  const ids: Record<Who, number> = { admin: 0, os: 0, client: 0 };

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
    // The inventory: four LTE sites (LX0010 is in it but leaves no log), plus one 5G node for the scripts.
    const db = database.db;
    await db
      .insertInto('network_sites')
      .values(['LX0001', 'LX0002', 'LX0003', 'LX0009', 'LX0010'].map((id) => ({ id, name: `Site ${id}`, lat: 38.7, lon: -9.1 })))
      .execute();
    await db
      .insertInto('network_nodes')
      .values([
        ...['LX0001', 'LX0002', 'LX0003', 'LX0009', 'LX0010'].map((name) => ({
          name,
          dn: `SubNetwork=1,MeContext=${name}`,
          site_id: name,
          technology: '4G',
          type: 'RadioNode',
        })),
        { name: 'NR_LX0001', dn: 'SubNetwork=1,MeContext=NR_LX0001', site_id: 'LX0001', technology: '5G', type: 'RadioNode' },
      ])
      .execute();
    const cell = (node: string, name: string, tech: string, pci: number, tac: number, channel: number) => ({
      dn: `SubNetwork=1,MeContext=${node},ManagedElement=1,X=${name}`,
      name,
      node_name: node,
      site_id: node.replace(/^NR_/, ''),
      tech,
      channel,
      pci,
      tac,
      nr_tac: tech === '5G' ? tac : null,
      plmns: '268-01',
    });
    await db
      .insertInto('network_cells')
      .values([
        ...['LX0001', 'LX0002', 'LX0003'].flatMap((node) => [1, 2].map((n) => cell(node, `${node}_${n}`, '4G', 3 * (100 + n) + (n % 3), 1100, 6300))),
        cell('NR_LX0001', 'LX0001_N78_1', '5G', 500, 2100, 632628),
      ])
      .execute();
  });
  afterAll(async () => {
    await app.close();
    await database.dispose();
    for (const dir of tempDirs) fs.rmSync(dir, { recursive: true, force: true });
  });

  const auth = (who: Who) => ({ authorization: `Bearer ${tokens[who]}` });
  const get = (url: string, who: Who = 'admin') => app.inject({ url, headers: auth(who) });
  async function upload(files: Record<string, Buffer>, who: Who = 'admin') {
    const body = multipart(Object.entries(files).map(([filename, content]) => ({ name: 'files', filename, content })));
    return app.inject({ method: 'POST', url: '/api/File/UploadMultiple', payload: body.payload, headers: { ...body.headers, ...auth(who) } });
  }
  async function uploadIds(files: Record<string, Buffer>, who: Who = 'admin'): Promise<string[]> {
    const res = await upload(files, who);
    expect(res.statusCode).toBe(200);
    return res.json<UploadedFiles>().uploads.map((u) => u.uploadId);
  }
  const parse = (uploads: readonly string[], who: Who = 'admin') => get(`/api/Parser/ParseEricssonLogs?filesPath=${uploads.join(',')}&userId=${ids[who]}`, who);
  async function rowCounts(): Promise<Record<string, number>> {
    const out: Record<string, number> = {};
    for (const table of MONITORING_TABLES) {
      const row = await database.db
        .selectFrom(table)
        .select((eb) => eb.fn.countAll<number | string>().as('n'))
        .executeTakeFirstOrThrow();
      out[table] = Number(row.n);
    }
    return out;
  }
  const nodeRow = (name: string) => database.db.selectFrom('monitoring_nodes').selectAll().where('node_name', '=', name).executeTakeFirst();

  let firstParse: ParseResponse;

  it('refuses callers without canMonitor, parses only as the caller, and answers 404 for an unknown upload before recording a job', async () => {
    expect((await get('/api/Parser/GetParseHistory', 'client')).statusCode).toBe(403);
    expect((await app.inject({ url: '/api/Parser/GetParseHistory' })).statusCode).toBe(401);
    const [id] = await uploadIds({ 'logs.zip': firstArchive() });
    const other = await get(`/api/Parser/ParseEricssonLogs?filesPath=${id}&userId=${ids.os}`, 'admin');
    expect(other.statusCode).toBe(403);
    expect(other.json()).toEqual({ message: 'You can only parse logs as yourself.' });
    const jobs = async () =>
      Number(
        (
          await database.db
            .selectFrom('jobs')
            .select((eb) => eb.fn.countAll<number | string>().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    const before = await jobs();
    const unknown = await parse([id!, '00000000-0000-4000-8000-000000000000']);
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({ message: 'Upload not found.' });
    // Someone else's upload answers exactly like an unknown one.
    expect((await parse([id!], 'os')).json()).toEqual({ message: 'Upload not found.' });
    expect(await jobs()).toBe(before);
    expect((await rowCounts()).monitoring_parses).toBe(0);
  });

  it('parses a real-format log set: statuses, alarms, states, RET, findings, the report and the notification', async () => {
    const res = await parse(await uploadIds({ 'mobatch_4G.zip': firstArchive() }));
    expect(res.statusCode).toBe(200);
    firstParse = res.json<ParseResponse>();
    expect(firstParse).toEqual({
      message: 'Successfully parsed 4 files.',
      parseId: expect.any(Number),
      // LX0002's header has no zone (read as UTC) and is the newest.
      logsDate: '2024-04-30T16:10:00.000Z',
      counts: { files: 7, parsed: 3, unreachable: 2, notInInventory: 1, failed: 0, problems: expect.any(Number) },
    });
    expect(firstParse.counts.problems).toBeGreaterThanOrEqual(2);

    // LX0001 (CRLF, `<ip>: ` prefixes, zone +0100): a Major alarm → NOK; a locked and disabled cell, named.
    expect(await nodeRow('LX0001')).toMatchObject({
      site_id: 'LX0001',
      in_inventory: 1,
      tech: '4G',
      logs_at: '2024-04-30T14:40:35.000Z',
      unreachable: 0,
      alarm_status: 'NOK',
      alarm_count: 2,
      alarm_comments: 'Calendar Clock All NTP Servers Unavailable; Resource Configuration Failure',
      radio_status: 'NOK',
      radio_comments: 'EUtranCellFDD=LX0001_2 locked (administrativeState LOCKED); EUtranCellFDD=LX0001_2 disabled (operationalState DISABLED)',
      core_status: 'OK',
      core_comments: '',
      archive: 'mobatch_4G.zip',
      file: 'logs_4G/LX0001.log',
    });
    // LX0002: only Warning alarms → OK; its TermPointToMme is disabled → core NOK; blank Adm State read.
    expect(await nodeRow('LX0002')).toMatchObject({
      alarm_status: 'OK',
      alarm_count: 2,
      radio_status: 'OK',
      core_status: 'NOK',
      core_comments: 'TermPointToMme=1 (S1) disabled',
    });
    // Unreachable: by its own log, and by mobatch_result.txt alone (no log).
    expect(await nodeRow('LX0009')).toMatchObject({
      unreachable: 1,
      unreachable_reason: 'Checking ip contact...Not OK',
      alarm_status: 'N/A',
      radio_status: 'N/A',
      core_status: 'N/A',
      alarm_comments: 'Node unreachable: Checking ip contact...Not OK',
    });
    expect(await nodeRow('LX0010')).toMatchObject({
      unreachable: 1,
      in_inventory: 1,
      unreachable_reason: 'no contact (mobatch_result.txt line 5)',
      file: 'logs_4G/mobatch_result.txt',
      line: 5,
      alarm_status: 'N/A',
    });
    // Not in the inventory: kept, with the site the default rule makes of the name.
    expect(await nodeRow('ZZ0100')).toMatchObject({ in_inventory: 0, site_id: 'ZZ0100', tech: '4G', alarm_status: 'OK' });

    const alarms = await database.db.selectFrom('monitoring_alarms').selectAll().where('node_name', '=', 'LX0001').orderBy('line').execute();
    expect(
      alarms.map((a) => [a.severity, a.specific_problem, a.mo, a.info, a.node_acknowledged, a.node_operator, a.alarm_at, a.alarm_key, a.site_id, a.tech]),
    ).toEqual([
      [
        'Major',
        'Resource Configuration Failure',
        LTE_CELL('LX0001', 1),
        'Cell config failed (retry 3)',
        0,
        null,
        '2024-04-30T13:02:11.000Z',
        `LX0001|${LTE_CELL('LX0001', 1)}|Resource Configuration Failure`,
        'LX0001',
        '4G',
      ],
      [
        'Warning',
        'Calendar Clock All NTP Servers Unavailable',
        'SysM=1,TimeM=1,Ntp=1',
        'No NTP server reachable',
        1,
        'nocuser',
        '2024-04-29T07:15:00.000Z',
        'LX0001|SysM=1,TimeM=1,Ntp=1|Calendar Clock All NTP Servers Unavailable',
        'LX0001',
        'site',
      ],
    ]);
    expect(alarms.every((a) => a.archive === 'mobatch_4G.zip' && a.file === 'logs_4G/LX0001.log' && a.line > 0 && a.parse_id === firstParse.parseId)).toBe(
      true,
    );

    const ret = await database.db.selectFrom('monitoring_ret').selectAll().where('node_name', '=', 'LX0001').orderBy('line').execute();
    expect(ret.map((r) => [r.antenna_unit_group, r.electrical_tilt, r.max_tilt, r.min_tilt, r.operational_state, r.user_label, r.serial_number])).toEqual([
      ['1', 30, 140, 0, 'ENABLED', 'LX0001_S1', 'CN1018A0012345'],
      ['2', 25, 140, -20, 'ENABLED', 'LX0001_S2', 'CN1018A0012346'],
    ]);
    const states = await database.db
      .selectFrom('monitoring_states')
      .select(['mo', 'adm_state', 'op_state', 'link'])
      .where('node_name', '=', 'LX0002')
      .execute();
    expect(states).toContainEqual({ mo: 'ENodeBFunction=1,TermPointToMme=1', adm_state: 'UNLOCKED', op_state: 'DISABLED', link: 'S1' });
    expect(states).toContainEqual(expect.objectContaining({ mo: expect.stringContaining('EranInterMeLink=1'), adm_state: null, op_state: 'ENABLED' }));
    const findings = await database.db.selectFrom('monitoring_findings').selectAll().where('node_name', '=', 'LX0001').execute();
    expect(findings.find((f) => f.cell === 'LX0001_1' && f.check_name === 'PCI')).toMatchObject({
      area: 'radio',
      tech: '4G',
      expected: '304',
      actual: '304',
      status: 'OK',
    });
    expect(findings.find((f) => f.check_name === 'S1 link state')).toMatchObject({ area: 'core', status: 'OK', file: 'logs_4G/LX0001.log' });
    expect(
      await database.db.selectFrom('monitoring_attributes').select('value').where('node_name', '=', 'LX0001').where('attribute', '=', 'cellBarred').execute(),
    ).toEqual([{ value: '1 (NOT_BARRED)' }, { value: '1 (NOT_BARRED)' }]);
    // Only what the checks read is stored: the log's `get . nbid$` is parsed, not kept.
    expect(await database.db.selectFrom('monitoring_attributes').select('value').where('attribute', '=', 'eNBId').execute()).toEqual([]);

    // The junk and the cut-off table of LX0003 are reported with their lines; what was read is stored.
    const report = (await get(`/api/Parser/GetParseReport?id=${firstParse.parseId}`)).json<ParseReport>();
    expect(report).toMatchObject({ id: firstParse.parseId, parsedBy: 'Cellwise Administrator', archives: ['mobatch_4G.zip'], counts: firstParse.counts });
    const byFile = new Map(report.files.filter((f) => f.node !== 'LX0010').map((f) => [f.file, f]));
    expect(byFile.get('logs_4G/LX0003.log')).toMatchObject({ node: 'LX0003', siteId: 'LX0003', outcome: 'parsed' });
    const problems = byFile.get('logs_4G/LX0003.log')!.problems;
    expect(problems.some((p) => /binary/.test(p.reason) && p.line > 1)).toBe(true);
    expect(problems.some((p) => /log ends/.test(p.reason))).toBe(true);
    // Junk inside its st cell table: its states cannot be taken as complete, so neither radio nor core is OK.
    expect(await nodeRow('LX0003')).toMatchObject({
      problems: byFile.get('logs_4G/LX0003.log')!.problemCount,
      alarm_status: 'OK',
      radio_status: 'Incomplete log',
      core_status: 'Incomplete log',
    });
    expect(byFile.get('logs_4G/LX0009.log')).toMatchObject({ outcome: 'unreachable', reason: 'Checking ip contact...Not OK' });
    expect(byFile.get('logs_4G/ZZ0100.log')).toMatchObject({ outcome: 'not in inventory', siteId: 'ZZ0100' });
    // Not a log: reported with why (it counts among the files with errors above), never dropped silently.
    expect(byFile.get('logs_4G/notes.md')).toMatchObject({
      outcome: 'ignored',
      problemCount: 1,
      problems: [{ line: 1, reason: INGEST_MESSAGES.notRead, command: null }],
    });
    expect(byFile.get('logs_4G/mobatch_result.txt')).toMatchObject({ outcome: 'ignored', problemCount: 0 });
    expect(report.files.filter((f) => f.node === 'LX0010')).toEqual([
      expect.objectContaining({ outcome: 'unreachable', file: 'logs_4G/mobatch_result.txt', reason: 'no contact (mobatch_result.txt line 5)' }),
    ]);

    const notes = await database.db
      .selectFrom('notifications')
      .select(['title', 'key', 'icon'])
      .where('user_id', '=', ids.admin)
      .where('key', 'like', 'monitoring-parse%')
      .execute();
    expect(notes).toHaveLength(1);
    // Unreachable nodes and files with errors: stored, and told as a warning, not a success.
    expect(notes[0]!.icon).toBe('warning');
    expect(notes[0]!.title).toMatch(
      /^Successfully parsed 4 files\. 2 nodes unreachable \(LX0009, LX0010\)\. 1 node not in the inventory, kept \(ZZ0100\)\. 2 files with errors, first: logs_4G\/LX0003\.log:\d+ /,
    );
    expect(notes[0]!.title).toContain(`1 log cut short, previous results kept (LX0003). Open this notification for report #${firstParse.parseId}.`);
    // The key names the parse, so the browser opens its report (shared-ui notificationLink).
    expect(notes[0]!.key).toBe(`monitoring-parse-${firstParse.parseId}`);
  });

  it('replaces a re-uploaded node, keeps the previous parse in history, and keeps an acknowledgement only while its alarm is shown', async () => {
    const db = database.db;
    const key = (a: AlarmSpec) => `LX0001|${a.mo}|${a.problem}`;
    await db
      .insertInto('monitoring_alarm_acks')
      .values(
        [MAJOR_ON_LX0001, WARNING_ACKED_ON_LX0001].map((a) => ({
          alarm_key: key(a),
          node_name: 'LX0001',
          note: 'on it',
          acked_by: ids.admin,
          acked_by_name: 'Cellwise Administrator',
          acked_at: '2024-05-01T08:00:00.000Z',
        })),
      )
      .execute();
    const lx0002Before = await db.selectFrom('monitoring_alarms').select(['id', 'parse_id']).where('node_name', '=', 'LX0002').execute();

    const critical: AlarmSpec = { at: '2024-05-02 09:00:00', severity: 'C', problem: 'Service Unavailable', mo: LTE_CELL('LX0001', 2), info: 'cell down' };
    const res = await parse(
      await uploadIds({
        'again.zip': logZip({ 'LX0001.log': lteNodeLog('LX0001', { alarms: [MAJOR_ON_LX0001, critical], header: { time: '240502-09:30:00' } }) }),
      }),
    );
    expect(res.statusCode).toBe(200);
    const second = res.json<ParseResponse>();
    expect(second).toMatchObject({ message: 'Successfully parsed 1 files.', logsDate: '2024-05-02T09:30:00.000Z' });

    expect(await nodeRow('LX0001')).toMatchObject({ parse_id: second.parseId, alarm_count: 2, radio_status: 'OK', archive: 'again.zip', file: 'LX0001.log' });
    const alarms = await db
      .selectFrom('monitoring_alarms')
      .select(['specific_problem', 'parse_id'])
      .where('node_name', '=', 'LX0001')
      .orderBy('line')
      .execute();
    expect(alarms).toEqual([
      { specific_problem: 'Resource Configuration Failure', parse_id: second.parseId },
      { specific_problem: 'Service Unavailable', parse_id: second.parseId },
    ]);
    for (const table of ['monitoring_states', 'monitoring_ret', 'monitoring_findings', 'monitoring_attributes'] as const) {
      const parses = await db.selectFrom(table).select('parse_id').where('node_name', '=', 'LX0001').execute();
      expect(new Set(parses.map((p) => p.parse_id))).toEqual(new Set([second.parseId]));
    }
    // Other nodes keep the rows of the first parse.
    expect(await db.selectFrom('monitoring_alarms').select(['id', 'parse_id']).where('node_name', '=', 'LX0002').execute()).toEqual(lx0002Before);
    // The Major alarm is still shown: its acknowledgement stays; the Warning ceased: its acknowledgement goes.
    expect((await db.selectFrom('monitoring_alarm_acks').select('alarm_key').execute()).map((a) => a.alarm_key)).toEqual([key(MAJOR_ON_LX0001)]);

    const history = (await get('/api/Parser/GetParseHistory')).json<ParseHistoryPage>();
    expect(history.total).toBe(2);
    expect(history.rows.map((r) => [r.id, r.archives, r.parsedBy, r.parsed, r.unreachable, r.notInInventory])).toEqual([
      [second.parseId, 'again.zip', 'Cellwise Administrator', 1, 0, 0],
      [firstParse.parseId, 'mobatch_4G.zip', 'Cellwise Administrator', 3, 2, 1],
    ]);
    expect((await get(`/api/Parser/GetParseReport?id=${firstParse.parseId}`)).statusCode).toBe(200);
  });

  it("makes an unreachable re-upload N/A and drops the node's previous rows, keeping its acknowledgements", async () => {
    const res = await parse(await uploadIds({ 'down.zip': logZip({ 'mobatch_result.txt': 'no contact  0m15s  LX0001\n' }) }));
    expect(res.json<ParseResponse>().counts).toMatchObject({ unreachable: 1, parsed: 0 });
    expect(await nodeRow('LX0001')).toMatchObject({ unreachable: 1, alarm_status: 'N/A', radio_status: 'N/A', core_status: 'N/A', alarm_count: 0 });
    expect(await database.db.selectFrom('monitoring_alarms').select('id').where('node_name', '=', 'LX0001').execute()).toEqual([]);
    expect(await database.db.selectFrom('monitoring_findings').select('id').where('node_name', '=', 'LX0001').execute()).toEqual([]);
    expect(await database.db.selectFrom('monitoring_alarm_acks').select('alarm_key').execute()).toHaveLength(1);
  });

  it('lists the history paged, sorted and filtered on the server', async () => {
    const page = (query: string) => get(`/api/Parser/GetParseHistory?${query}`);
    expect((await page('size=1&page=2')).json<ParseHistoryPage>()).toMatchObject({ total: 3, rows: [{ archives: 'again.zip' }] });
    expect((await page('sort=parsed&order=descend')).json<ParseHistoryPage>().rows.map((r) => r.parsed)).toEqual([3, 1, 0]);
    const filtered = (await page(`filters=${encodeURIComponent(JSON.stringify({ archives: 'DOWN' }))}`)).json<ParseHistoryPage>();
    expect(filtered.rows.map((r) => r.archives)).toEqual(['down.zip']);
    expect((await page(`filters=${encodeURIComponent(JSON.stringify({ parsedBy: 'administrator' }))}`)).json<ParseHistoryPage>().total).toBe(3);
    const bad = await page(`filters=${encodeURIComponent(JSON.stringify({ nope: 'x' }))}`);
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toEqual({ message: 'Unknown filter field "nope".' });
    const missing = await get('/api/Parser/GetParseReport?id=2147483647');
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({ message: 'Parse report not found.' });
  });

  it('keeps the newer log when one parse holds the same node twice, whatever the archive order', async () => {
    const log = (time: string, problem: string) =>
      lteNodeLog('LX0002', { header: { time }, alarms: [{ at: '2024-05-01 10:00:00', severity: 'm', problem, mo: LTE_CELL('LX0002', 1), info: 'x' }] });
    const uploads = await uploadIds({
      'newer.zip': logZip({ 'LX0002.log': log('240601-10:00:00', 'Newer Alarm') }),
      'older.zip': logZip({ 'lx0002.LOG': log('240501-10:00:00', 'Older Alarm') }),
    });
    const res = await parse(uploads);
    expect(res.json<ParseResponse>()).toMatchObject({ message: 'Successfully parsed 2 files.', logsDate: '2024-06-01T10:00:00.000Z' });
    expect(await nodeRow('LX0002')).toMatchObject({ archive: 'newer.zip', alarm_comments: 'Newer Alarm', logs_at: '2024-06-01T10:00:00.000Z' });
    expect(
      (await database.db.selectFrom('monitoring_alarms').select('specific_problem').where('node_name', '=', 'LX0002').execute()).map((a) => a.specific_problem),
    ).toEqual(['Newer Alarm']);
  });

  it("answers 422 with each file's reasons for an archive of which nothing could be read, records no parse, and keeps that node's previous results", async () => {
    const before = await nodeRow('LX0003');
    const counts = await rowCounts();
    const junk = Buffer.concat(Array.from({ length: 50 }, () => BINARY_JUNK));
    const res = await parse(await uploadIds({ 'junk.zip': logZip({ 'LX0003.log': junk, 'LX0004.log': '' }) }));
    expect(res.statusCode).toBe(422);
    const body = res.json<UnusableLogsResponse>();
    expect(body.message).toMatch(
      /^Nothing usable in junk\.zip: no log could be read \(LX0003\.log line 1: binary data: \d+ lines skipped; LX0004\.log line 1: no AMOS command output/,
    );
    expect(body.files.map((f) => [f.file, f.outcome, f.problems[0]?.line, f.problems[0]?.reason])).toEqual([
      ['LX0003.log', 'failed', 1, expect.stringMatching(/^binary data/)],
      ['LX0004.log', 'failed', 1, 'no AMOS command output: no `<node>> <command>` prompt in the file'],
    ]);
    // Not a successful parse: nothing in the history, nothing stored; the job failed, and its owner is told why.
    expect(await rowCounts()).toEqual(counts);
    expect(await nodeRow('LX0003')).toEqual(before);
    expect(await nodeRow('LX0004')).toBeUndefined();
    const job = await database.db.selectFrom('jobs').selectAll().where('kind', '=', 'monitoring.parse').orderBy('created_at', 'desc').executeTakeFirstOrThrow();
    expect(job).toMatchObject({ state: 'failed' });
    const titles = await database.db.selectFrom('notifications').select('title').where('key', '=', 'monitoring-parse').where('icon', '=', 'error').execute();
    expect(titles.map((t) => t.title)).toContain(`Logs not parsed: ${body.message}`);
  });

  describe('bad archives: a clear 4xx and nothing stored', () => {
    const CASES: Array<{ name: string; file: string; content: () => Buffer | Promise<Buffer>; status: number; message: string | RegExp }> = [
      {
        name: 'not a zip',
        file: 'logs.zip',
        content: () => Buffer.from('LX0001> alt\nnot a zip at all\n'),
        status: 400,
        message: 'File logs.zip is not a zip archive.',
      },
      {
        name: 'a zip bomb (small file, huge uncompressed)',
        file: 'bomb.zip',
        content: async () => {
          const zeros = await deflatedZeros(64);
          return zip([{ name: 'LX0001.log', raw: zeros.raw, size: zeros.size }]);
        },
        status: 400,
        message: /inflates to more than 1,000,000,000 bytes/,
      },
      {
        name: 'a zip bomb whose directory understates it',
        file: 'bomb.zip',
        content: async () => {
          const zeros = await deflatedZeros(8);
          return zip([{ name: 'LX0001.log', raw: zeros.raw, size: 4_096 }]);
        },
        status: 400,
        message: 'The archive bomb.zip could not be read as a zip archive.',
      },
      {
        name: '../ entry names',
        file: 'slip.zip',
        content: () => zip([{ name: '../../LX0001.log', data: 'x' }]),
        status: 400,
        message: /not a plain relative path/,
      },
      {
        name: '10,001 entries',
        file: 'many.zip',
        content: () => zip(Array.from({ length: 10_001 }, (_, i) => ({ name: `n${i}.log`, data: '', method: 0 as const }))),
        status: 400,
        message: /more than 10,000 entries/,
      },
      {
        name: 'a nested zip',
        file: 'nested.zip',
        content: () => zip([{ name: 'inner.zip', data: zip([{ name: 'LX0001.log', data: 'x' }]) }]),
        status: 400,
        message: /nested archives are refused/,
      },
      {
        name: 'a nested zip under a log name',
        file: 'hidden.zip',
        content: () => zip([{ name: 'LX0001.log', data: zip([{ name: 'LX0002.log', data: 'x' }]), method: 0 }]),
        status: 400,
        message: 'The archive hidden.zip holds another archive (LX0001.log); nested archives are refused.',
      },
      {
        name: 'an 11 MB file',
        file: 'big.zip',
        content: () => Buffer.alloc(11_000_000, 0x41),
        status: 413,
        message: 'File big.zip not valid. Please check file size.',
      },
      {
        name: 'an encrypted entry',
        file: 'locked.zip',
        content: encryptedZip,
        status: 400,
        message: 'File locked.zip holds an encrypted entry (LX0002.log); send a .zip without a password.',
      },
      {
        name: 'a ZIP64 archive',
        file: 'big64.zip',
        content: zip64Zip,
        status: 400,
        message: 'File big64.zip is a ZIP64 archive, which is not read here (no upload needs it); zip the files again without ZIP64.',
      },
      {
        name: 'overlapping entries',
        file: 'overlap.zip',
        content: insideOffsetZip,
        status: 400,
        message: 'File overlap.zip holds entries whose data overlap (LX0001.log and LX0002.log), as zip bombs do; it is refused.',
      },
      {
        name: 'a byte changed after zipping (CRC-32 mismatch)',
        file: 'damaged.zip',
        content: corruptedZip,
        status: 400,
        message:
          'The archive damaged.zip is damaged: the content of LX0002.log does not match its CRC-32 checksum. Zip the files again and send the new archive.',
      },
      {
        name: 'a zip with no logs',
        file: 'nologs.zip',
        content: () => logZip({ 'readme.txt': 'hello', 'data/cells.csv': 'a;b\n' }),
        status: 400,
        message: 'The archive nologs.zip holds no MoBatch logs (<node>.log, or AMOS output saved as .txt).',
      },
    ];

    it.each(CASES)('$name', async ({ file, content, status, message }) => {
      const before = await rowCounts();
      const good = logZip({ 'LX0002.log': lteNodeLog('LX0002') });
      const sent = await upload({ [file]: await content() });
      let answer = sent;
      if (sent.statusCode === 200) {
        // Accepted as an upload (its directory looks honest): the parse refuses it, and the good archive sent with it is not stored either.
        const [goodId] = await uploadIds({ 'good.zip': good });
        answer = await parse([goodId!, sent.json<UploadedFiles>().uploads[0]!.uploadId]);
      }
      expect(answer.statusCode).toBe(status);
      const body = answer.json<{ message: string }>();
      if (typeof message === 'string') expect(body.message).toBe(message);
      else expect(body.message).toMatch(message);
      expect(await rowCounts()).toEqual(before);
    });

    it('tells the owner why a refused parse stored nothing', async () => {
      const titles = await database.db.selectFrom('notifications').select('title').where('key', '=', 'monitoring-parse').where('icon', '=', 'error').execute();
      expect(titles.map((t) => t.title)).toContain('Logs not parsed: The archive nologs.zip holds no MoBatch logs (<node>.log, or AMOS output saved as .txt).');
    });

    it('refuses hostile archives in the parser itself, whatever the upload checked', async () => {
      const before = await rowCounts();
      const hostile: Array<[string, Buffer, RegExp]> = [
        ['slip.zip', zip([{ name: '../../LX0001.log', data: 'x' }]), /not a plain relative path/],
        ['nested.zip', zip([{ name: 'logs/inner.zip', data: zip([{ name: 'LX0001.log', data: 'x' }]) }]), /nested archives are refused/],
        ['many.zip', zip(Array.from({ length: 10_001 }, (_, i) => ({ name: `n${i}.log`, data: '', method: 0 as const }))), /more than 10,000 entries/],
        ['text.zip', Buffer.from('plain text'), /could not be read as a zip archive/],
      ];
      for (const [name, content, message] of hostile) {
        const attempt = ingestArchives(database.db, [{ name, file: tempFile(name, content) }], { parsedBy: null, jobId: null });
        await expect(attempt).rejects.toBeInstanceOf(LogArchiveError);
        await expect(attempt).rejects.toThrow(message);
      }
      expect(await rowCounts()).toEqual(before);
    });
  });

  it('writes the MoBatch scripts of the whole inventory as a zip to download', async () => {
    const res = await get('/api/Parser/GetMoBacthScripts', 'os');
    expect(res.statusCode).toBe(200);
    const { file } = res.json<FileResponse>();
    const download = await get(`/api/File/Download?file=${file}`, 'os');
    expect(download.statusCode).toBe(200);
    expect(download.headers['content-disposition']).toContain('mobatch_scripts.zip');
    // Exports belong to the caller.
    expect((await get(`/api/File/Download?file=${file}`, 'admin')).statusCode).toBe(404);

    const files = new Map<string, string>();
    for await (const entry of readArchive(tempFile('scripts.zip', download.rawPayload))) {
      const chunks: Buffer[] = [];
      for await (const chunk of entry.content) chunks.push(chunk);
      files.set(entry.name, Buffer.concat(chunks).toString('utf8'));
    }
    expect([...files.keys()]).toEqual(['README.txt', 'sites.txt', 'sites_4G.txt', 'cmd_4G.mos', 'sites_5G.txt', 'cmd_5G.mos']);
    expect(files.get('sites.txt')).toBe('LX0001\nLX0002\nLX0003\nLX0009\nLX0010\nNR_LX0001\n');
    expect(files.get('sites_5G.txt')).toBe('NR_LX0001\n');
    expect(files.get('cmd_4G.mos')).toContain('hget retsubunit electricalAntennaTilt|operationalState|userLabel|maxTilt|minTilt|iuantAntennaSerialNumber\n');
    expect(files.get('cmd_5G.mos')).toContain('st mme\n');
    expect(files.get('README.txt')).toContain('mobatch -p 20 -t 30 sites_4G.txt cmd_4G.mos logs_4G');
    expect((await get('/api/Parser/GetMoBacthScripts', 'client')).statusCode).toBe(403);
  });

  it("parses the demo data's archives as a job without an owner", async () => {
    const dir = path.join(config.dataDir, 'demo');
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, 'demo_logs.zip'), logZip({ 'LX0003.log': lteNodeLog('LX0003', { header: { time: '240503-08:00:00' } }) }));
    const job = await app.jobs.run('monitoring.parse', null, { archives: [{ name: 'demo_logs.zip', file: 'demo/demo_logs.zip' }], ownerId: null });
    expect(job.outcome).toMatchObject({ status: 200, body: { message: 'Successfully parsed 1 files.', logsDate: '2024-05-03T08:00:00.000Z' } });
    const row = await database.db.selectFrom('monitoring_parses').select(['parsed_by', 'job_id']).orderBy('id', 'desc').executeTakeFirstOrThrow();
    expect(row).toEqual({ parsed_by: null, job_id: job.id });
    const outside = await app.jobs.run('monitoring.parse', null, { archives: [{ name: 'x.zip', file: '../../etc/passwd' }], ownerId: null });
    expect(outside.outcome).toEqual({ status: 400, body: { message: 'The archive ../../etc/passwd is outside the data folder.' } });
  });
});
