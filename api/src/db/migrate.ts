import { runUnscoped } from './operator-scope';
import { Migrator, type Kysely, type Migration, type MigrationProvider } from 'kysely';
import * as m0001 from './migrations/0001_platform';
import * as m0002 from './migrations/0002_accounts';
import * as m0003 from './migrations/0003_network';
import * as m0004 from './migrations/0004_notifications';
import * as m0005 from './migrations/0005_management';
import * as m0006 from './migrations/0006_tracking';
import * as m0007 from './migrations/0007_upload_limits';
import * as m0008 from './migrations/0008_jobs';
import * as m0009 from './migrations/0009_monitoring';
import * as m0010 from './migrations/0010_runs';
import * as m0011 from './migrations/0011_dashboards';
import * as m0012 from './migrations/0012_table_settings';
import * as m0013 from './migrations/0013_list_indexes';
import * as m0014 from './migrations/0014_incomplete_logs';
import * as m0015 from './migrations/0015_site_lookups';
import * as m0016 from './migrations/0016_operator_tenancy';
import * as m0017 from './migrations/0017_plan_reservations';
import * as m0018 from './migrations/0018_run_findings';
import * as m0019 from './migrations/0019_site_statuses';
import * as m0020 from './migrations/0020_alarm_changes_digests';
import * as m0021 from './migrations/0021_alarm_trigrams';
import * as m0022 from './migrations/0022_external_cell_lookup';

/** Listed statically (not read from disk) so the compiled server and the tests run the same set. */
export const MIGRATIONS: Readonly<Record<string, Migration>> = {
  '0001_platform': m0001,
  '0002_accounts': m0002,
  '0003_network': m0003,
  '0004_notifications': m0004,
  '0005_management': m0005,
  '0006_tracking': m0006,
  '0007_upload_limits': m0007,
  '0008_jobs': m0008,
  '0009_monitoring': m0009,
  '0010_runs': m0010,
  '0011_dashboards': m0011,
  '0012_table_settings': m0012,
  '0013_list_indexes': m0013,
  '0014_incomplete_logs': m0014,
  '0015_site_lookups': m0015,
  '0016_operator_tenancy': m0016,
  '0017_plan_reservations': m0017,
  '0018_run_findings': m0018,
  '0019_site_statuses': m0019,
  '0020_alarm_changes_digests': m0020,
  '0021_alarm_trigrams': m0021,
  '0022_external_cell_lookup': m0022,
};

/** The migrations up to and including `last`, in order (suites that migrate a database step by step). */
export function migrationsUpTo(last: string): Record<string, Migration> {
  return Object.fromEntries(Object.entries(MIGRATIONS).filter(([name]) => name <= last));
}

class StaticProvider implements MigrationProvider {
  getMigrations(): Promise<Record<string, Migration>> {
    return Promise.resolve(MIGRATIONS);
  }
}

/** `schema`: the PostgreSQL schema in use when not `public` (the bookkeeping tables must live there too). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations are typed against no schema on purpose (they are frozen)
export async function migrateToLatest(db: Kysely<any>, schema?: string): Promise<string[]> {
  const migrator = new Migrator({ db, provider: new StaticProvider(), ...(schema ? { migrationTableSchema: schema } : {}) });
  // Migrations reshape every operator's data at once: they run outside any operator scope.
  const { error, results } = await runUnscoped(() => migrator.migrateToLatest());
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
