import { sql } from 'kysely';
import type { AlarmPage, ConfigurationSummaryPage, FaultSummaryPage, OverallSiteSummaryPage, ParseReport, ParseResponse } from 'contracts';
import { TEST_DATABASES } from './support/databases';
import { parsingApp } from './support/parsing';
import { BINARY_JUNK } from './fixtures/monitoring/archives';
import { LTE_CELL, lteNodeLog, type AlarmSpec } from './fixtures/monitoring/logs';

/*
 * Issue 43, "never lose what was known": a log cut inside its alarm table keeps the node's previous
 * alarms (stale) and makes its status 'Incomplete log'; and a node is one node whatever the case of
 * its name (a log parsed before its node entered the inventory, and again after).
 */

const WARNINGS: AlarmSpec[] = [
  { at: '2024-04-30 10:00:00', severity: 'w', problem: 'Fan Failure', mo: 'Equipment=1,FieldReplaceableUnit=RRU-1,Fan=1', info: 'fan speed low' },
  { at: '2024-04-30 10:05:00', severity: 'w', problem: 'Link Degraded', mo: 'Transport=1,EthernetPort=TN_A', info: 'errors' },
];
const MAJOR: AlarmSpec = { at: '2024-05-01 09:00:00', severity: 'M', problem: 'Resource Configuration Failure', mo: LTE_CELL('LX0001', 1), info: 'failed' };

/** The log cut after the first row of its alarm table: the heading says 3, one row, no footer, nothing after. */
function cutInsideAlarms(log: string): string {
  const lines = log.split('\n');
  const heading = lines.findIndex((l) => l.startsWith('UNACKNOWLEDGED ALARMS:'));
  return lines.slice(0, heading + 5).join('\n') + '\n';
}

/** The log with binary junk in place of its alarm table's last row. */
function junkInsideAlarms(log: string): Buffer {
  const lines = log.split('\n');
  const footer = lines.findIndex((l) => l.startsWith('>>> Total:'));
  return Buffer.concat([Buffer.from(lines.slice(0, footer - 1).join('\n') + '\n'), BINARY_JUNK, Buffer.from(lines.slice(footer).join('\n'))]);
}

describe.each(TEST_DATABASES)('incomplete logs and node identity on $name', (kind) => {
  const parsing = parsingApp(kind, ['LX0001', 'LX0002']);
  const { headers, get } = parsing;
  async function parseArchive(entries: Record<string, string | Buffer>) {
    const res = await parsing.parse(entries);
    expect(res.statusCode).toBe(200);
    return res.json<ParseResponse>();
  }
  const list = <T>(route: string, filters: Record<string, string>) =>
    get(`/api/Monitoring/${route}?page=1&size=100&filters=${encodeURIComponent(JSON.stringify(filters))}`).then((r) => r.json<T>());
  const alarmsOf = (node: string) => list<AlarmPage>('GetFaultManagement', { nodeName: node }).then((p) => p.rows.filter((r) => r.nodeName === node));
  const summaryOf = (node: string) =>
    list<FaultSummaryPage>('GetFaultManagementSummary', { nodeName: node }).then((p) => p.rows.find((r) => r.nodeName === node));
  const siteOf = (site: string) => list<OverallSiteSummaryPage>('GetOverallSiteSummary', { siteId: site }).then((p) => p.rows.find((r) => r.siteId === site));

  describe('a log cut inside its alarm table', () => {
    it('first, complete logs: LX0001 Warning-only (OK), LX0002 Warning-only (OK)', async () => {
      await parseArchive({
        'LX0001.log': lteNodeLog('LX0001', { alarms: WARNINGS }),
        'LX0002.log': lteNodeLog('LX0002', { alarms: WARNINGS }),
      });
      expect(await summaryOf('LX0001')).toMatchObject({ alarmStatus: 'OK', alarmCount: 2 });
      expect((await alarmsOf('LX0001')).map((a) => a.stale)).toEqual(['No', 'No']);
    });

    it("then cut (LX0001) and with junk in the table (LX0002): 'Incomplete log', the previous alarms kept and marked stale, the summaries not OK", async () => {
      const parsed = await parseArchive({
        'LX0001.log': cutInsideAlarms(lteNodeLog('LX0001', { alarms: [MAJOR, ...WARNINGS], header: { time: '240501-10:00:00' } })),
        'LX0002.log': junkInsideAlarms(lteNodeLog('LX0002', { alarms: [MAJOR, ...WARNINGS], header: { time: '240501-10:00:00' } })),
      });
      for (const node of ['LX0001', 'LX0002']) {
        const summary = await summaryOf(node);
        expect(summary).toMatchObject({ alarmStatus: 'Incomplete log', alarmCount: 2 });
        expect(summary!.alarmComments).toMatch(new RegExp(`^Incomplete log: ${node}\\.log line \\d+: .+ The previous log's alarms are kept, marked stale`));
        // Not replaced by what the cut log printed: the two previous Warnings, stale; not the Major it did print.
        const alarms = await alarmsOf(node);
        expect(alarms.map((a) => [a.AlarmName, a.severity, a.stale]).sort()).toEqual([
          ['Fan Failure', 'Warning', 'Yes'],
          ['Link Degraded', 'Warning', 'Yes'],
        ]);
        const site = await siteOf(node);
        expect(site).toMatchObject({ alarmStatus: 'Incomplete log' });
        expect(site!.overallSiteStatus).not.toBe('OK');
      }
      // LX0001's log ends inside its alarm table: its st tables never printed, so its states are kept (stale) too.
      const states = await parsing.database.db.selectFrom('monitoring_states').select(['stale']).where('node_name', '=', 'LX0001').execute();
      expect(states.length).toBeGreaterThan(0);
      expect(states.every((st) => Number(st.stale) === 1)).toBe(true);
      const configuration = (await list<ConfigurationSummaryPage>('GetConfigurationManagementSummary', { nodeName: 'LX0001' })).rows[0];
      expect(configuration).toMatchObject({ radioStatus: 'Incomplete log', coreStatus: 'Incomplete log' });
      // The parse report says why, with file and line.
      const report = (await get(`/api/Parser/GetParseReport?id=${parsed.parseId}`)).json<ParseReport>();
      const byFile = new Map(report.files.map((f) => [f.file, f]));
      expect(byFile.get('LX0001.log')!.reason).toMatch(/^Incomplete log: line \d+: /);
      expect(byFile.get('LX0001.log')!.problems.map((p) => p.reason)).toEqual(
        expect.arrayContaining([
          'UNACKNOWLEDGED ALARMS says 3, rows read: 1',
          expect.stringMatching(/^alarm table without its >>> Total footer: the log ends after line \d+/),
        ]),
      );
      expect(byFile.get('LX0002.log')!.reason).toMatch(/^Incomplete log: line \d+: binary data/);
      const note = await parsing.database.db
        .selectFrom('notifications')
        .select('title')
        .where('key', '=', `monitoring-parse-${parsed.parseId}`)
        .executeTakeFirstOrThrow();
      expect(note.title).toContain('2 logs cut short, previous results kept (LX0001, LX0002).');
    });

    it('a complete log again replaces the stale alarms and ends the Incomplete log status', async () => {
      await parseArchive({ 'LX0001.log': lteNodeLog('LX0001', { alarms: [MAJOR], header: { time: '240502-10:00:00' } }) });
      expect(await summaryOf('LX0001')).toMatchObject({ alarmStatus: 'NOK', alarmCount: 1 });
      const states = await parsing.database.db.selectFrom('monitoring_states').select(['stale']).where('node_name', '=', 'LX0001').execute();
      expect(states.map((st) => Number(st.stale))).toEqual(states.map(() => 0));
      expect((await alarmsOf('LX0001')).map((a) => [a.AlarmName, a.stale])).toEqual([['Resource Configuration Failure', 'No']]);
      // LX0002 was not in this parse: still as the cut log left it.
      expect(await summaryOf('LX0002')).toMatchObject({ alarmStatus: 'Incomplete log' });
    });

    it("a node's first log cut short: what it printed is shown, marked stale, and the node is 'Incomplete log'", async () => {
      await parseArchive({ 'LX0003.log': cutInsideAlarms(lteNodeLog('LX0003', { alarms: [MAJOR, ...WARNINGS] })) });
      expect(await summaryOf('LX0003')).toMatchObject({ alarmStatus: 'Incomplete log', alarmCount: 1 });
      expect((await alarmsOf('LX0003')).map((a) => [a.AlarmName, a.stale])).toEqual([['Resource Configuration Failure', 'Yes']]);
    });
  });

  it("a log of which nothing could be read, beside readable ones: the node it names keeps its rows, stale, and is 'Incomplete log'", async () => {
    await parseArchive({ 'LX0005.log': lteNodeLog('LX0005', { alarms: WARNINGS }) });
    expect(await summaryOf('LX0005')).toMatchObject({ alarmStatus: 'OK', alarmCount: 2 });
    const junk = Buffer.concat(Array.from({ length: 40 }, () => BINARY_JUNK));
    await parseArchive({ 'LX0001.log': lteNodeLog('LX0001', { alarms: [MAJOR], header: { time: '240503-10:00:00' } }), 'logs/LX0005.log': junk });
    const summary = await summaryOf('LX0005');
    expect(summary).toMatchObject({ alarmStatus: 'Incomplete log', alarmCount: 2 });
    expect(summary!.alarmComments).toMatch(/^Incomplete log: nothing could be read from logs\/LX0005\.log \(line 1: binary data/);
    expect((await alarmsOf('LX0005')).map((a) => a.stale)).toEqual(['Yes', 'Yes']);
    expect((await siteOf('LX0005'))!.overallSiteStatus).not.toBe('OK');
    expect(await summaryOf('LX0001')).toMatchObject({ alarmStatus: 'NOK' });
  });

  describe('node identity is case-insensitive', () => {
    const archive = () => ({
      'logs/TEL_AVIV.log': lteNodeLog('TEL_AVIV', { alarms: WARNINGS }),
      'logs/KFAR_SABA.log': lteNodeLog('KFAR_SABA', { alarms: [WARNINGS[0]!] }),
    });
    const rowsOf = async () =>
      (
        await parsing.database.db
          .selectFrom('monitoring_nodes')
          .select(['node_name', 'in_inventory', 'alarm_count'])
          .where('node_name', 'in', ['TEL_AVIV', 'tel_aviv', 'KFAR_SABA', 'kfar_saba'])
          .orderBy('node_name')
          .execute()
      ).map((r) => [r.node_name, Number(r.in_inventory), Number(r.alarm_count)]);
    const alarmCount = async () =>
      Number(
        (
          await parsing.database.db
            .selectFrom('monitoring_alarms')
            .select((eb) => eb.fn.countAll<number | string>().as('n'))
            .where(sql`lower(node_name)`, 'in', ['tel_aviv', 'kfar_saba'])
            .executeTakeFirstOrThrow()
        ).n,
      );

    it('the same archive parsed before and after its nodes are imported (lower-case MeContexts, upper-case prompts): one row per node, the same alarms', async () => {
      await parseArchive(archive());
      expect(await rowsOf()).toEqual([
        ['KFAR_SABA', 0, 1],
        ['TEL_AVIV', 0, 2],
      ]);
      expect(await alarmCount()).toBe(3);
      // Acknowledged while the node was known by its prompt's name.
      const fan = (await alarmsOf('TEL_AVIV')).find((a) => a.AlarmName === 'Fan Failure')!;
      const ack = await parsing.app.inject({
        method: 'POST',
        url: '/api/Monitoring/AcknowledgeAlarm',
        payload: { alarmId: fan.id, note: 'RRU fan ordered' },
        headers: headers(),
      });
      expect(ack.statusCode).toBe(200);

      await parsing.database.db
        .insertInto('network_nodes')
        .values(['tel_aviv', 'kfar_saba'].map((name) => ({ name, dn: `SubNetwork=1,MeContext=${name}`, site_id: null, technology: '4G', type: 'RadioNode' })))
        .execute();
      await parseArchive(archive());
      expect(await rowsOf()).toEqual([
        ['kfar_saba', 1, 1],
        ['tel_aviv', 1, 2],
      ]);
      expect(await alarmCount()).toBe(3);
      const alarms = await parsing.database.db
        .selectFrom('monitoring_alarms')
        .select('node_name')
        .where(sql`lower(node_name)`, 'in', ['tel_aviv', 'kfar_saba'])
        .execute();
      expect(new Set(alarms.map((a) => a.node_name))).toEqual(new Set(['tel_aviv', 'kfar_saba']));
      // The acknowledgement followed the node to its inventory name.
      expect((await alarmsOf('tel_aviv')).map((a) => [a.AlarmName, a.acknowledged, a.ackNote]).sort()).toEqual([
        ['Fan Failure', 'Yes', 'RRU fan ordered'],
        ['Link Degraded', 'No', null],
      ]);

      // Parsed once more: still one row each, no alarm twice.
      await parseArchive(archive());
      expect(await rowsOf()).toEqual([
        ['kfar_saba', 1, 1],
        ['tel_aviv', 1, 2],
      ]);
      expect(await alarmCount()).toBe(3);
    });
  });
});
