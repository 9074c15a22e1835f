import { Migrator, type Kysely, type Migration, type MigrationProvider } from 'kysely';
import { migrationsUpTo } from '../src/db/migrate';
import { runInOperator, runUnscoped } from '../src/db/operator-scope';
import type { Database } from '../src/db/schema';
import { refreshSiteStatuses } from '../src/monitoring/site-statuses';
import { nodeRow } from './fixtures/monitoring-queries/rows';
import { TEST_DATABASES, type EmptyTestDatabase } from './support/databases';

/**
 * Issue 44: the overall site summary reads the site statuses kept in monitoring_site_statuses instead of
 * grouping every node per request. Migration 0019 fills the table from what a console already holds, per
 * operator, and a recount (what the parse and the PM import run) replaces only the current operator's rows.
 */
const provider = (migrations: Record<string, Migration>): MigrationProvider => ({ getMigrations: () => Promise.resolve(migrations) });

/** Operator ids that are not 1, so code assuming the first operator fails. */
const A = 7;
const B = 9;

type Status = { operator_id: number; site: string; alarm: number; radio: number; core: number; perf: number; unreachable: number };

describe.each(TEST_DATABASES)('site statuses (migration 0019 and the recount) on $name', (kind) => {
  let database: EmptyTestDatabase;
  let db: Kysely<Database>;

  const migrate = async (migrations: Record<string, Migration>) => {
    const migrator = new Migrator({ db, provider: provider(migrations), ...(database.schema ? { migrationTableSchema: database.schema } : {}) });
    const { error } = await database.migrating(() => runUnscoped(() => migrator.migrateToLatest()));
    if (error) throw error instanceof Error ? error : new Error(String(error));
  };
  const statuses = () =>
    runUnscoped(() => db.selectFrom('monitoring_site_statuses').selectAll().orderBy('operator_id').orderBy('site').execute()) as Promise<Status[]>;

  beforeAll(async () => {
    database = await kind.openEmpty();
    db = database.db;
    await migrate(migrationsUpTo('0018_run_findings'));
    await runUnscoped(async () => {
      await db
        .insertInto('monitoring_nodes')
        .values([
          // A: a site with an OK node and a NOK-radio node, a node without a site, an unreachable node.
          { ...nodeRow('LX0001'), site_id: 'LX0001', operator_id: A },
          { ...nodeRow('NR_LX0001', { radio_status: 'NOK' }), site_id: 'LX0001', operator_id: A },
          { ...nodeRow('ORPHAN_1', { core_status: 'Incomplete log' }), operator_id: A },
          { ...nodeRow('LX0002', { unreachable: 1, alarm_status: 'N/A', radio_status: 'N/A', core_status: 'N/A' }), site_id: 'LX0002', operator_id: A },
          // B: the same site id, all OK.
          { ...nodeRow('LX0001'), site_id: 'LX0001', operator_id: B },
        ] as never)
        .execute();
      await db
        .insertInto('monitoring_performance')
        .values([
          {
            operator_id: A,
            node_name: 'LX0001',
            site_id: 'LX0001',
            status: 'NOK',
            comments: '',
            measured_at: null,
            file_name: 'pm.zip',
            imported_at: '2024-03-05T10:00:00Z',
          },
          {
            operator_id: B,
            node_name: 'LX0001',
            site_id: 'LX0001',
            status: 'OK',
            comments: '',
            measured_at: null,
            file_name: 'pm.zip',
            imported_at: '2024-03-05T10:00:00Z',
          },
        ] as never)
        .execute();
    });
    await migrate(migrationsUpTo('0019_site_statuses'));
  });
  afterAll(async () => {
    await database.dispose();
  });

  it('0019 fills one row per site and operator, the worst status of its nodes, a node without a site under its name', async () => {
    expect(await statuses()).toEqual([
      { operator_id: A, site: 'LX0001', alarm: 1, radio: 3, core: 1, perf: 3, unreachable: 0 },
      { operator_id: A, site: 'LX0002', alarm: 0, radio: 0, core: 0, perf: 0, unreachable: 1 },
      { operator_id: A, site: 'ORPHAN_1', alarm: 1, radio: 1, core: 2, perf: 0, unreachable: 0 },
      { operator_id: B, site: 'LX0001', alarm: 1, radio: 1, core: 1, perf: 1, unreachable: 0 },
    ]);
  });

  it("a recount follows the current operator's nodes and leaves the other operator's rows as they were", async () => {
    await runInOperator(A, async () => {
      await db.deleteFrom('monitoring_nodes').where('node_name', '=', 'NR_LX0001').execute();
      await db.updateTable('monitoring_nodes').set({ site_id: 'LX0003' }).where('node_name', '=', 'ORPHAN_1').execute();
      await refreshSiteStatuses(db);
    });
    expect(await statuses()).toEqual([
      { operator_id: A, site: 'LX0001', alarm: 1, radio: 1, core: 1, perf: 3, unreachable: 0 },
      { operator_id: A, site: 'LX0002', alarm: 0, radio: 0, core: 0, perf: 0, unreachable: 1 },
      { operator_id: A, site: 'LX0003', alarm: 1, radio: 1, core: 2, perf: 0, unreachable: 0 },
      { operator_id: B, site: 'LX0001', alarm: 1, radio: 1, core: 1, perf: 1, unreachable: 0 },
    ]);
  });
});
