import { CompiledQuery } from 'kysely';
import { runInOperator } from '../src/db/operator-scope';
import { ParseStaging } from '../src/monitoring/parse-staging';
import { TEST_DATABASES, type TestDatabase } from './support/databases';
import { TEST_OPERATOR_ID } from './support/operator';

const LOGS = 600;

/**
 * A re-parse reads its staged alarms back a chunk of logs at a time (the alarm changes). The staging
 * tables are made without indexes, since the copy reads each row once; without one on parse_id every chunk
 * read every staged alarm, chunks × alarms, 1,081 ms instead of 307 ms at the bench's 2× input.
 */
describe.each(TEST_DATABASES)('parse staging read-back on $name', (kind) => {
  let database: TestDatabase;

  beforeAll(async () => {
    database = await kind.open();
  });
  afterAll(async () => {
    await database.dispose();
  });

  it('reads a chunk of logs’ staged alarms by log through an index, each log its own alarms', async () => {
    await runInOperator(TEST_OPERATOR_ID, () =>
      database.db.connection().execute(async (conn) => {
        const staging = await ParseStaging.open(conn);
        try {
          for (let log = 1; log <= LOGS; log += 1) {
            const alarm = (n: number) => ({
              node_name: `N${log}`,
              parse_id: log,
              alarm_key: `N${log}|${n}`,
              severity: 'Major',
              specific_problem: `Problem ${log}-${n}`,
              mo: `ManagedElement=N${log}`,
              alarm_at: '2024-05-01 10:00:00',
              stale: 0,
            });
            await staging.add({ node_name: `N${log}`, parse_id: log }, { alarms: [alarm(1), alarm(2)], states: [], attributes: [], ret: [], findings: [] });
          }
          await staging.flush();

          const chunk = [7, 300, 599];
          const read = await staging.alarmsOf(conn, chunk);
          expect([...read.keys()].sort((a, b) => a - b)).toEqual(chunk);
          expect(
            read
              .get(300)
              ?.map((r) => r.specific_problem)
              .sort(),
          ).toEqual(['Problem 300-1', 'Problem 300-2']);

          const select = 'select parse_id, alarm_key from parse_monitoring_alarms where parse_id in (7, 300, 599)';
          if (kind.name === 'sqlite') {
            const { rows } = await conn.executeQuery<{ detail: string }>(CompiledQuery.raw(`explain query plan ${select}`));
            expect(rows.map((r) => r.detail)).toEqual([expect.stringMatching(/^SEARCH parse_monitoring_alarms USING INDEX \S+ \(parse_id=\?\)$/)]);
          } else {
            // PostgreSQL has no statistics on a temporary table until analysed, and with them it may still
            // scan 1,200 rows: the index itself is what the read-back relies on.
            const { rows } = await conn.executeQuery<{ indexdef: string }>(
              CompiledQuery.raw(`select indexdef from pg_indexes where tablename = 'parse_monitoring_alarms'`),
            );
            expect(rows.map((r) => r.indexdef)).toEqual([expect.stringMatching(/\(parse_id\)$/)]);
          }
        } finally {
          await staging.close();
        }
      }),
    );
  });
});
