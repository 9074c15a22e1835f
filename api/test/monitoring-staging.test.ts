import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openDatabase, type DatabaseHandle } from '../src/db/database';
import { runInOperator } from '../src/db/operator-scope';
import { ingestArchives, LogArchiveError, type IngestOptions } from '../src/monitoring/ingest';
import { seed } from '../src/seed';
import { testApp } from './support/app';
import { TEST_DATABASES, type TestDatabase } from './support/databases';
import { TEST_OPERATOR_ID } from './support/operator';
import { zip } from './fixtures/files/zips';
import { LTE_CELL, lteNodeLog } from './fixtures/monitoring/logs';

/**
 * The parse job stages each batch of logs as it reads them and swaps them in at the end, in one
 * transaction (docs/engines/amos.md#the-parse): what it holds is one batch, and a parse that fails
 * midway changes nothing.
 */

/** Every table a parse writes, with an order that makes a snapshot comparable. */
const TABLES = {
  monitoring_parses: 'id',
  monitoring_nodes: 'node_name',
  monitoring_alarms: 'id',
  monitoring_alarm_acks: 'alarm_key',
  monitoring_states: 'id',
  monitoring_attributes: 'id',
  monitoring_ret: 'id',
  monitoring_findings: 'id',
  monitoring_site_statuses: 'site',
} as const;

const NODES = Array.from({ length: 10 }, (_, i) => `LX${String(3001 + i)}`);

/** A node's log with one alarm named after `tag`, so which log a stored row came from is plain. */
function nodeLog(node: string, tag: string, time = '240601-10:00:00'): string {
  return lteNodeLog(node, {
    header: { time },
    alarms: [{ at: '2024-05-01 10:00:00', severity: 'M', problem: `${tag} Alarm`, mo: LTE_CELL(node, 1), info: tag }],
  });
}

describe.each(TEST_DATABASES)('log parse batches on $name', (kind) => {
  let database: TestDatabase;
  /** A second connection to the same database: what everyone else sees while a parse runs. */
  let other: DatabaseHandle;
  let dir: string;

  beforeAll(async () => {
    database = await kind.open();
    const { app, config } = await testApp(database);
    await seed(database.db, config);
    await app.close();
    other = openDatabase(database.options);
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cellwise-staging-'));
  });
  afterAll(async () => {
    await other.close();
    await database.dispose();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  let archives = 0;
  function archive(entries: ReadonlyArray<{ name: string; data: string | Buffer; method?: 0 | 8 }>): { name: string; file: string } {
    archives += 1;
    const name = `logs-${archives}.zip`;
    const file = path.join(dir, name);
    fs.writeFileSync(file, zip(entries));
    return { name, file };
  }
  const ingest = (input: { name: string; file: string }, options: Partial<IngestOptions> = {}) =>
    ingestArchives(database.db, [input], { parsedBy: null, jobId: null, ...options });

  /** Every row of every table a parse writes, as another connection reads them. */
  async function snapshot(db = other.db): Promise<Record<string, unknown[]>> {
    const out: Record<string, unknown[]> = {};
    await runInOperator(TEST_OPERATOR_ID, async () => {
      for (const [table, order] of Object.entries(TABLES)) {
        out[table] = await db
          .selectFrom(table as keyof typeof TABLES)
          .selectAll()
          .orderBy(order as never)
          .execute();
      }
    });
    return out;
  }
  const alarmsOf = (node: string) =>
    runInOperator(TEST_OPERATOR_ID, async () =>
      (await other.db.selectFrom('monitoring_alarms').select('specific_problem').where('node_name', '=', node).execute()).map((a) => a.specific_problem),
    );

  it('writes each batch before reading the next, and no one sees a row of it until the swap', async () => {
    const before = await snapshot();
    const staged: Array<{ logs: number; rows: number; read: number; visible: number }> = [];
    let read = 0;
    const input = archive(NODES.map((node) => ({ name: `${node}.log`, data: nodeLog(node, 'First') })));
    const report = await ingest(input, {
      batchLogs: 3,
      progress: (_percent, text) => {
        if (text.startsWith('Parsing ')) read += 1;
      },
      staged: async (logs, rows) => {
        const visible = (await snapshot()).monitoring_nodes!.length;
        staged.push({ logs, rows, read, visible });
      },
    });
    expect(report.counts.notInInventory).toBe(NODES.length);
    // Four batches (3 + 3 + 3 + 1), each written while later logs were still unread.
    expect(staged.map((s) => s.logs)).toEqual([3, 6, 9, 10]);
    expect(staged.map((s) => s.read)).toEqual([3, 6, 9, 10]);
    // Every batch's rows are in the staging area (a node row, its alarm, states, RET, findings)...
    for (let i = 1; i < staged.length; i += 1) expect(staged[i]!.rows).toBeGreaterThan(staged[i - 1]!.rows);
    expect(staged[0]!.rows).toBeGreaterThan(3 * 5);
    // ...and none in the monitoring tables until the swap.
    expect(staged.map((s) => s.visible)).toEqual(staged.map(() => before.monitoring_nodes!.length));
    const after = await snapshot();
    expect(after.monitoring_nodes!.map((n) => (n as { node_name: string }).node_name)).toEqual(NODES);
    expect(after.monitoring_site_statuses).toHaveLength(NODES.length);
    expect(await alarmsOf(NODES[9]!)).toEqual(['First Alarm']);
  });

  it('leaves the previous data exactly as it was when a parse fails midway', async () => {
    const before = await snapshot();
    expect(before.monitoring_alarms!.length).toBeGreaterThan(0);
    const second = archive(NODES.map((node) => ({ name: `${node}.log`, data: nodeLog(node, 'Second') })));
    let batches = 0;
    await expect(
      ingest(second, {
        batchLogs: 2,
        staged: () => {
          batches += 1;
          if (batches === 3) throw new Error('the disk is full');
        },
      }),
    ).rejects.toThrow('the disk is full');
    expect(batches).toBe(3);
    expect(await snapshot()).toEqual(before);
    // The staging tables went with the failed parse: the next one starts clean and stores every node.
    await ingest(second, { batchLogs: 4 });
    expect(await alarmsOf(NODES[0]!)).toEqual(['Second Alarm']);
    expect((await snapshot()).monitoring_alarms).toHaveLength(NODES.length);
  });

  it('leaves the previous data as it was when an entry read after several batches is damaged', async () => {
    const before = await snapshot();
    const entries = NODES.map((node) => ({ name: `${node}.log`, data: nodeLog(node, 'Third'), method: 0 as const }));
    const input = archive(entries);
    // A byte of the ninth log changed after zipping: its CRC-32 no longer matches.
    const buf = fs.readFileSync(input.file);
    const at = buf.indexOf(entries[8]!.data) + 100;
    buf[at] = buf[at] === 0x41 ? 0x42 : 0x41;
    fs.writeFileSync(input.file, buf);
    let batches = 0;
    await expect(ingest(input, { batchLogs: 2, staged: () => void (batches += 1) })).rejects.toThrow(LogArchiveError);
    expect(batches).toBe(4);
    expect(await snapshot()).toEqual(before);
  });

  it('keeps the newer log of a node read twice in different batches, whichever comes first', async () => {
    const [a, b] = [NODES[0]!, NODES[1]!];
    const input = archive([
      { name: `${a}-new.log`, data: nodeLog(a, 'Newer', '240701-10:00:00') },
      { name: `${b}-old.log`, data: nodeLog(b, 'Older', '240601-10:00:00') },
      { name: `${a}-old.log`, data: nodeLog(a, 'Older', '240601-10:00:00') },
      { name: `${b}-new.log`, data: nodeLog(b, 'Newer', '240701-10:00:00') },
    ]);
    const report = await ingest(input, { batchLogs: 1 });
    expect(report.logsDate).toBe('2024-07-01T10:00:00.000Z');
    expect(await alarmsOf(a)).toEqual(['Newer Alarm']);
    expect(await alarmsOf(b)).toEqual(['Newer Alarm']);
    const rows = await snapshot();
    for (const node of [a, b]) {
      const stored = rows.monitoring_nodes!.find((n) => (n as { node_name: string }).node_name === node) as { file: string; parse_id: number };
      expect(stored.file).toBe(`${node}-new.log`);
      expect(stored.parse_id).toBe(report.id);
      const states = rows.monitoring_states!.filter((s) => (s as { node_name: string }).node_name === node) as Array<{ file: string; parse_id: number }>;
      expect(states.length).toBeGreaterThan(0);
      expect(states.every((s) => s.file === `${node}-new.log` && s.parse_id === report.id)).toBe(true);
    }
  });
});
