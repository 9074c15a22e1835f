import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseMobatchResult, parseNodeLog, type NodeLogResult } from '../src/domain/amos';
import { evaluateNode, type InventoryCell } from '../src/domain/monitoring';
import { readArchive } from '../src/files/zip';
import { MOBATCH_RESULT_FILE, parseDemoLogsIfNone, writeDemoLogArchive, type DemoLogSummary, type DemoParseParams } from '../src/demo/logs';
import { importDemoNetworkIfEmpty } from '../src/network/demo';
import type { FaultSummaryPage, ParseResponse } from 'contracts';
import { seed } from '../src/seed';
import { testApp } from './support/app';
import { TEST_DATABASES, type TestDatabase } from './support/databases';

const NOW = new Date('2025-03-10T09:30:00Z');
const SITES = 16;

async function entries(file: string): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for await (const entry of readArchive(file)) {
    const chunks: Buffer[] = [];
    for await (const chunk of entry.content) chunks.push(chunk);
    out.set(entry.name, Buffer.concat(chunks).toString('utf8'));
  }
  return out;
}

const sha = (file: string) => createHash('sha256').update(fs.readFileSync(file)).digest('hex');

describe.each(TEST_DATABASES)('demo MoBatch logs on $name', (kind) => {
  let database: TestDatabase;
  let dir: string;
  let file: string;
  let summary: DemoLogSummary;
  let texts: Map<string, string>;
  let logs: Map<string, NodeLogResult>;

  beforeAll(async () => {
    database = await kind.open();
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cellwise-demo-logs-'));
    await importDemoNetworkIfEmpty(database.db, { dataDir: dir, sites: SITES });
    file = path.join(dir, 'logs.zip');
    summary = await writeDemoLogArchive(database.db, file, { seed: 1, now: NOW });
    texts = await entries(file);
    logs = new Map();
    for (const [name, text] of texts) if (name.endsWith('.log')) logs.set(name, parseNodeLog(text, { archive: 'logs.zip', file: name }));
  });
  afterAll(async () => {
    await database.dispose();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('writes one log per inventory node and mobatch_result.txt, the same bytes for the same seed', async () => {
    const nodes = await database.db.selectFrom('network_nodes').select('name').orderBy('name').execute();
    expect([...logs.keys()].sort()).toEqual(nodes.map((n) => `${n.name}.log`).sort());
    expect(texts.has(MOBATCH_RESULT_FILE)).toBe(true);
    expect(summary.logs).toBe(nodes.length);
    const again = path.join(dir, 'again.zip');
    await writeDemoLogArchive(database.db, again, { seed: 1, now: NOW });
    expect(sha(again)).toBe(sha(file));
    const other = path.join(dir, 'other.zip');
    await writeDemoLogArchive(database.db, other, { seed: 2, now: NOW });
    expect(sha(other)).not.toBe(sha(file));
  });

  it('parses without a single problem, with the real quirks present', () => {
    for (const [name, log] of logs) expect({ name, problems: log.problems }).toEqual({ name, problems: [] });
    const result = parseMobatchResult(texts.get(MOBATCH_RESULT_FILE)!);
    expect(result.problems).toEqual([]);
    expect(result.entries).toHaveLength(logs.size);

    expect(summary.crlfFiles.length).toBeGreaterThan(0);
    for (const name of summary.crlfFiles) expect(texts.get(name)).toContain('\r\n');
    expect(texts.get(summary.ipPrefixedFile!)).toMatch(/^10\.\d+\.\d+\.\d+: [A-Z0-9]+> alt$/m);
    expect([...logs.values()].filter((l) => l.cvs.length > 0).map((l) => `${l.node}.log`)).toEqual([summary.cvlsFile]);
    // Every block header carries the +0000 zone, so every log has a date.
    for (const log of logs.values()) if (!log.unreachable) expect(log.header?.zone).toBe('+0000');
  });

  it('has exactly one unreachable node, in its log and in mobatch_result.txt', () => {
    const unreachable = [...logs.values()].filter((l) => l.unreachable);
    expect(unreachable.map((l) => l.node)).toEqual([summary.unreachable]);
    expect(unreachable[0]!.unreachableReason).toBe('Checking ip contact...Not OK');
    const result = parseMobatchResult(texts.get(MOBATCH_RESULT_FILE)!);
    expect(result.entries.filter((e) => e.unreachable).map((e) => [e.status, e.node])).toEqual([['no contact', summary.unreachable]]);
    expect(result.entries.filter((e) => e.ok)).toHaveLength(logs.size - 1);
  });

  it('shows every severity in both alarm tables, across many nodes', () => {
    const alarms = [...logs.values()].flatMap((l) => l.alarms);
    for (const acknowledged of [false, true]) {
      const severities = new Set(alarms.filter((a) => a.acknowledged === acknowledged).map((a) => a.severity));
      expect([...severities].sort()).toEqual(['Critical', 'Major', 'Minor', 'Warning']);
    }
    expect(alarms.filter((a) => a.acknowledged).every((a) => a.operator !== null)).toBe(true);
    const count = (acknowledged: boolean, code: string) => alarms.filter((a) => a.acknowledged === acknowledged && a.severityCode === code).length;
    for (const code of ['C', 'M', 'm', 'w'] as const) {
      expect(count(false, code)).toBe(summary.alarms.unacknowledged[code]);
      expect(count(true, code)).toBe(summary.alarms.acknowledged[code]);
    }
    const nodesWithAlarms = new Set(alarms.map((a) => a.node));
    expect(nodesWithAlarms.size).toBeGreaterThan(SITES / 2);
  });

  it('reads RET rows on every reachable site, tilts in tenths of a degree', () => {
    for (const log of logs.values()) {
      if (log.unreachable || !/^LX\d+$/.test(log.node)) continue;
      expect(log.ret.length).toBeGreaterThanOrEqual(2);
      for (const ret of log.ret) {
        expect(ret.electricalAntennaTilt).not.toBeNull();
        expect(ret.tiltDegrees).toBe(ret.electricalAntennaTilt! / 10);
        expect(ret.maxTiltDegrees).not.toBeNull();
        expect(ret.userLabel).toMatch(new RegExp(`^${log.node}_S\\d_(LB|HB)$`));
        expect(ret.serialNumber).toMatch(/^CN1018A\d{6}$/);
      }
    }
  });

  it('gives the node checks clean, warning-only and NOK sites, locked and disabled cells, disabled links and deviations', async () => {
    const cells = await database.db.selectFrom('network_cells').selectAll().execute();
    const inventoryOf = (node: string): InventoryCell[] =>
      cells
        .filter((c) => c.node_name === node)
        .map((c) => ({
          name: c.name,
          tech: c.tech,
          pci: c.pci,
          psc: c.psc,
          tac: c.tac,
          nrTac: c.nr_tac,
          lac: c.lac,
          channel: c.channel,
          maxTxPower: c.max_tx_power,
        }));
    const evaluation = new Map([...logs.values()].map((l) => [l.node, evaluateNode(l, { cells: inventoryOf(l.node) })]));

    expect(summary.clean.length).toBeGreaterThan(0);
    for (const node of summary.clean) {
      expect(evaluation.get(node)).toMatchObject({ alarmStatus: 'OK', alarmCount: 0, radioStatus: 'OK', coreStatus: 'OK' });
    }
    expect(summary.warningsOnly.length).toBeGreaterThan(0);
    for (const node of summary.warningsOnly) expect(evaluation.get(node)!.alarmStatus).toBe('OK');
    expect([...evaluation.values()].filter((e) => e.alarmStatus === 'NOK').length).toBeGreaterThan(SITES / 3);
    expect(evaluation.get(summary.unreachable!)!.alarmStatus).toBe('N/A');

    expect(summary.lockedCells.length).toBeGreaterThan(0);
    expect(summary.disabledCells.length).toBeGreaterThan(0);
    for (const entry of [...summary.lockedCells, ...summary.disabledCells]) {
      const [node, mo] = entry.split(' ') as [string, string];
      expect(evaluation.get(node)!.radioStatus).toBe('NOK');
      expect(evaluation.get(node)!.radioComments).toContain(mo.slice(mo.lastIndexOf(',') + 1));
    }
    expect(summary.disabledTermPoints.length).toBeGreaterThan(0);
    for (const entry of summary.disabledTermPoints) {
      const [node, mo] = entry.split(' ') as [string, string];
      expect(evaluation.get(node)!.coreStatus).toBe('NOK');
      expect(evaluation.get(node)!.coreComments).toContain(mo.slice(mo.lastIndexOf(',') + 1));
    }
    expect(summary.deviations.length).toBeGreaterThan(0);
    for (const entry of summary.deviations) {
      const node = entry.slice(0, entry.indexOf(' '));
      const cell = entry.slice(entry.lastIndexOf('=', entry.indexOf(':')) + 1, entry.indexOf(':'));
      expect(evaluation.get(node)!.findings.some((f) => f.status === 'NOK' && f.cell === cell && f.area === 'radio')).toBe(true);
    }
  });

  it('on first start writes the archive under DATA_DIR/demo and hands it to the parse, once', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cellwise-demo-data-'));
    try {
      const calls: DemoParseParams[] = [];
      const first = await parseDemoLogsIfNone(database.db, {
        dataDir,
        now: NOW,
        parse: async (params) => {
          calls.push(params);
          return 'parsed';
        },
      });
      expect(calls).toEqual([{ archives: [{ name: 'demo-mobatch-logs.zip', file: path.join('demo', 'demo-mobatch-logs.zip') }], ownerId: null }]);
      expect(first).toMatchObject({ file: path.join(dataDir, 'demo', 'demo-mobatch-logs.zip'), parsed: 'parsed' });
      expect(fs.readdirSync(path.join(dataDir, 'demo'))).toEqual(['demo-mobatch-logs.zip']);
      expect(sha(first!.file)).toBe(sha(file));

      await database.db
        .insertInto('monitoring_parses')
        .values({
          parsed_at: NOW.toISOString(),
          parsed_by: null,
          job_id: null,
          archives: '[]',
          logs_date: null,
          files: 0,
          parsed: 0,
          unreachable: 0,
          not_in_inventory: 0,
          failed: 0,
          problems: 0,
          report: '{}',
        })
        .execute();
      expect(await parseDemoLogsIfNone(database.db, { dataDir, parse: async () => 'again' })).toBeNull();
      expect(calls).toHaveLength(1);
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe.each(TEST_DATABASES)('first start with the demo logs on $name', (kind) => {
  it('parses the demo archive through the real monitoring.parse job, so the fault summary is alive', async () => {
    const database = await kind.open();
    const { app, config } = await testApp(database);
    try {
      await seed(database.db, config);
      await importDemoNetworkIfEmpty(database.db, { dataDir: config.dataDir, sites: SITES });
      const done = await parseDemoLogsIfNone(database.db, {
        dataDir: config.dataDir,
        now: NOW,
        parse: async (params) => {
          const job = await app.jobs.run<DemoParseParams>('monitoring.parse', null, params);
          expect(job.outcome?.status).toBe(200);
          return job.outcome!.body as ParseResponse;
        },
      });
      const nodes = await database.db.selectFrom('network_nodes').select('name').execute();
      expect(done!.parsed.message).toBe(`Successfully parsed ${nodes.length - 1} files.`);
      // mobatch_result.txt is a file of the archive too.
      expect(done!.parsed.counts).toMatchObject({ files: nodes.length + 1, parsed: nodes.length - 1, unreachable: 1, failed: 0, problems: 0 });

      const admin = await database.db.selectFrom('users').select('id').where('email', '=', config.adminEmail).executeTakeFirstOrThrow();
      const token = (await app.auth.issueToken(admin.id))!;
      const res = await app.inject({ url: '/api/Monitoring/GetFaultManagementSummary?size=100', headers: { authorization: `Bearer ${token}` } });
      expect(res.statusCode).toBe(200);
      const rows = res.json<FaultSummaryPage>().rows;
      const status = (node: string) => rows.find((r) => r.nodeName === node)?.alarmStatus;
      const { summary } = done!;
      expect(status(summary.unreachable!)).toBe('N/A');
      for (const node of summary.clean) expect(status(node)).toBe('OK');
      for (const node of summary.warningsOnly) expect(status(node)).toBe('OK');
      expect(rows.filter((r) => r.alarmStatus === 'NOK').length).toBeGreaterThan(SITES / 3);

      // Once parsed, a restart leaves the parse alone.
      expect(await parseDemoLogsIfNone(database.db, { dataDir: config.dataDir, parse: async () => null })).toBeNull();
    } finally {
      await app.close();
      await database.dispose();
    }
  });
});
