import { sql } from 'kysely';
import { listFrom, type ListSource } from '../src/db/list';
import { scopedTo } from '../src/db/operator-scope';
import { OVERALL_SITE_SUMMARY_FIELDS, type OverallSiteSummaryRow, type ParseResponse } from 'contracts';
import { parseDemoLogsIfNone, type DemoParseParams } from '../src/demo/logs';
import { OVERALL_SITE_SUMMARY_LIST } from '../src/monitoring/queries';
import { importDemoNetworkIfEmpty } from '../src/network/demo';
import { seed } from '../src/seed';
import { importDemoTrackingIfEmpty } from '../src/tracking/demo';
import { testApp } from './support/app';
import { TEST_DATABASES } from './support/databases';

const NOW = new Date('2025-03-10T09:30:00Z');

/** The summary as it was computed before the keyed path: every site's row built, then sorted and paged. */
const ALL_ROWS: ListSource = { ...OVERALL_SITE_SUMMARY_LIST, keyed: undefined, countFrom: undefined };

describe.each(TEST_DATABASES)('overall site summary, chosen by status first, on $name', (kind) => {
  it('answers the same pages and totals as building every row, for every sort, order, page and filter', async () => {
    const database = await kind.open();
    const { app, config } = await testApp(database);
    try {
      await seed(database.db, config);
      await importDemoNetworkIfEmpty(database.db, { dataDir: config.dataDir, sites: 12 });
      await importDemoTrackingIfEmpty(database.db, NOW);
      await parseDemoLogsIfNone(database.db, {
        dataDir: config.dataDir,
        now: NOW,
        parse: async (params) => (await app.jobs.run<DemoParseParams>('monitoring.parse', null, params)).outcome!.body as ParseResponse,
      });
      // PM verdicts on some nodes, so the performance rank takes part (NOK on one, OK on others).
      const nodes = await database.db.selectFrom('monitoring_nodes').select(['node_name', 'site_id']).orderBy('node_name').execute();
      expect(nodes.length).toBeGreaterThan(12);
      for (const [i, n] of nodes.slice(0, 6).entries()) {
        await database.db
          .insertInto('monitoring_performance')
          .values({
            node_name: n.node_name,
            site_id: n.site_id,
            status: i === 0 ? 'NOK' : 'OK',
            comments: '',
            measured_at: null,
            file_name: 'pm.zip',
            imported_at: '2025-03-10T09:00:00Z',
          })
          .execute();
      }

      const statuses = new Set<string>();
      for (const sort of OVERALL_SITE_SUMMARY_FIELDS) {
        for (const order of ['ascend', 'descend'] as const) {
          for (const filters of [
            undefined,
            JSON.stringify({ overallSiteStatus: 'ok' }),
            JSON.stringify({ alarmStatus: 'n', siteId: 'LX' }),
            JSON.stringify({ siteName: 'a' }),
          ]) {
            for (const page of [1, 2, 3]) {
              const query = { page, size: 5, sort, order, filters };
              const chosen = await listFrom<OverallSiteSummaryRow>(database.db, OVERALL_SITE_SUMMARY_LIST, query);
              const built = await listFrom<OverallSiteSummaryRow>(database.db, ALL_ROWS, query);
              expect({ query, ...chosen }).toEqual({ query, ...built });
              for (const row of chosen.rows) statuses.add(row.overallSiteStatus);
            }
          }
        }
      }
      // The comparison covered sites of each verdict, and a total of more than one page.
      expect([...statuses].sort()).toEqual(expect.arrayContaining(['NOK', 'OK']));
      expect((await listFrom(database.db, OVERALL_SITE_SUMMARY_LIST, { size: 5 })).total).toBeGreaterThan(5);
    } finally {
      await app.close();
      await database.dispose();
    }
  });
});

// PostgreSQL's planner chooses by its statistics; SQLite's choice follows from the schema alone.
describe.each(TEST_DATABASES.filter((k) => k.name === 'sqlite'))('site look-ups on $name', (kind) => {
  it("looks a site's commissioning date up with one seek of the (local_id, comm_date, technology) index (migration 0015)", async () => {
    const database = await kind.open();
    try {
      const plan = await sql<{ detail: string }>`explain query plan
        select min(p.comm_date) from tracking_commissioning_plan p where ${scopedTo('p')} and p.local_id = ${'LX0001'}`.execute(database.db);
      expect(plan.rows.map((r) => r.detail).join('\n')).toMatch(/COVERING INDEX tracking_commissioning_plan_site_date/);
    } finally {
      await database.dispose();
    }
  });
});
