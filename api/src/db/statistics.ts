import { PostgresAdapter, sql, type Kysely } from 'kysely';
import { runUnscoped } from './operator-scope';
import type { Database } from './schema';

/**
 * Refreshes PostgreSQL's planner statistics of tables a bulk write has just refilled.
 *
 * Why: until autovacuum's next pass (a minute or more, never where it is turned off) the planner believes
 * a table refilled with 120,000 rows still holds the handful it held: it then reads every matching row
 * and sorts them to show ten (a filtered plan page: 95 ms), instead of walking the primary key and
 * stopping at the tenth (0.8 ms). bench/fairness.mjs measured 35 req/s on the filtered plan list at 50
 * connections before this, against 1,600-1,900 on SQLite. The statistics cover every operator's rows,
 * as the table does: not a read of anyone's data, so it runs outside the operator scope. SQLite's
 * planner has no such statistics by default and needs none here.
 */
export async function refreshStatistics(db: Kysely<Database>, tables: readonly string[]): Promise<void> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter) || tables.length === 0) return;
  await runUnscoped(() => sql`analyze ${sql.join(tables.map((t) => sql.table(t)))}`.execute(db));
}
