import { sql, type Kysely } from 'kysely';
import { BatchInsert } from '../src/db/batch-insert';
import * as listIndexes from '../src/db/migrations/0013_list_indexes';
import { containsPattern } from '../src/domain/tracking';
import { listFrom, scopedSql, tenantScope } from '../src/db/list';
import { runUnscoped, scopedTo } from '../src/db/operator-scope';
import { ALARM_FIELDS } from 'contracts';
import { ALARM_LIST, listAlarms } from '../src/monitoring/queries';
import { COMMISSIONING_PLAN_TABLE, WORK_ORDER_STATUS_TABLE } from '../src/tracking/datasets';
import { listRows } from '../src/tracking/queries';
import { TEST_DATABASES, type TestDatabase } from './support/databases';

const SITES = ['LIS0001', 'lis0002', 'OPO0003', 'Opo0004', 'FAR_05', 'FAR%06', 'Évora07', 'évora08'];
const DATES = ['2024-03-05', null, '2023-12-31', '2024-03-05', null, '2025-01-02', '2024-11-30', '2022-07-14'];

/** Migration 0013 adds indexes only: every list answers exactly the same with and without them. */
describe.each(TEST_DATABASES)('list indexes (migration 0013) on $name', (kind) => {
  let database: TestDatabase;

  beforeAll(async () => {
    database = await kind.open();
    const db = database.db;
    const plan = new BatchInsert(db, 'tracking_commissioning_plan', ['id', 'local_id', 'comm_date', 'project', 'week']);
    const orders = new BatchInsert(db, 'tracking_work_orders', ['id', 'site_id', 'wo_type', 'wo_id', 'wow_status', 'wow_last_update']);
    const alarms = new BatchInsert(db, 'monitoring_alarms', [
      'node_name',
      'parse_id',
      'mo',
      'tech',
      'site_id',
      'alarm_at',
      'alarm_time',
      'time_basis',
      'severity',
      'specific_problem',
      'info',
      'node_acknowledged',
      'alarm_key',
      'archive',
      'file',
      'line',
    ]);
    for (let i = 0; i < 120; i += 1) {
      const site = SITES[i % SITES.length] ?? '';
      const date = DATES[(i * 3) % DATES.length] ?? null;
      await plan.add({ id: i + 1, local_id: site, comm_date: date, project: i % 3 === 0 ? 'Fibre Swap' : 'Densification', week: i % 52 });
      await orders.add({ id: i + 1, site_id: site, wo_type: 'Installation', wo_id: `WO${i}`, wow_status: i % 4 ? 'Open' : 'Closed', wow_last_update: date });
      await alarms.add({
        node_name: `${site}_L${i % 3}`,
        parse_id: 1,
        mo: `Cell=${i}`,
        tech: '4G',
        site_id: site,
        alarm_at: date ? `${date}T0${i % 10}:00:00.000Z` : null,
        alarm_time: '2024-01-01 00:00:00',
        time_basis: 'UTC',
        severity: ['Critical', 'Major', 'Minor'][i % 3],
        specific_problem: i % 2 ? 'Link Failure' : 'Heartbeat Failure',
        info: '',
        node_acknowledged: 0,
        alarm_key: `${site}|Cell=${i}|${i % 2}`,
        archive: 'logs.zip',
        file: 'a.log',
        line: i,
      });
    }
    await plan.flush();
    await orders.flush();
    await alarms.flush();
    await db.insertInto('network_sites').values({ id: 'LIS0001', name: 'Lisboa Centro', lat: null, lon: null }).execute();
    await db
      .insertInto('monitoring_alarm_acks')
      .values({
        alarm_key: 'LIS0001|Cell=0|0',
        node_name: 'LIS0001_L0',
        note: 'seen',
        acked_by: null,
        acked_by_name: 'Ana',
        acked_at: '2024-01-01T00:00:00.000Z',
      })
      .execute();
  });
  afterAll(async () => {
    await database.dispose();
  });

  const QUERIES = [
    {},
    { page: 2, size: 7 },
    { sort: 'commDate', order: 'descend' as const, page: 1, size: 20 },
    { sort: 'commDate', order: 'ascend' as const, page: 6, size: 20 },
    { filters: JSON.stringify({ localId: 'LIS', project: 'fibre' }) },
    { filters: JSON.stringify({ localId: '_0', commDate: '03-2024' }) },
  ];
  const ORDER_QUERIES = [
    { sort: 'wowLastUpdate', order: 'descend' as const, size: 30 },
    { sort: 'wowLastUpdate', order: 'ascend' as const, page: 4, size: 30 },
  ];
  const ALARM_QUERIES = [
    {},
    { sort: 'alarmDatetime', order: 'ascend' as const, size: 50 },
    { page: 3, size: 50 },
    { filters: JSON.stringify({ nodeName: 'opo', AlarmName: 'LINK' }) },
    { filters: JSON.stringify({ acknowledged: 'yes' }) },
  ];
  const everything = async () => ({
    plan: await Promise.all(QUERIES.map((q) => listRows(database.db, COMMISSIONING_PLAN_TABLE, q))),
    orders: await Promise.all(ORDER_QUERIES.map((q) => listRows(database.db, WORK_ORDER_STATUS_TABLE, q))),
    alarms: await Promise.all(ALARM_QUERIES.map((q) => listAlarms(database.db, q))),
  });

  test('pages, sorts, filters and totals are the same with the indexes as without them', async () => {
    const withIndexes = await everything();
    // In a transaction, as the migrator runs them on PostgreSQL, and unscoped, as it runs them.
    await runUnscoped(() => database.db.transaction().execute((trx) => listIndexes.down(trx as unknown as Kysely<unknown>)));
    const without = await everything();
    await runUnscoped(() => database.db.transaction().execute((trx) => listIndexes.up(trx as unknown as Kysely<unknown>)));
    expect(withIndexes).toEqual(without);
    expect(await everything()).toEqual(withIndexes);
  });

  test('a sort puts blanks last in both directions and breaks ties in file order', async () => {
    for (const order of ['ascend', 'descend'] as const) {
      const { rows, total } = await listRows<{ id: number; commDate: string | null }>(database.db, COMMISSIONING_PLAN_TABLE, {
        sort: 'commDate',
        order,
        size: 100,
        page: 1,
      });
      const rest = await listRows<{ id: number; commDate: string | null }>(database.db, COMMISSIONING_PLAN_TABLE, {
        sort: 'commDate',
        order,
        size: 100,
        page: 2,
      });
      const all = [...rows, ...rest.rows];
      expect(all).toHaveLength(total);
      const expected = [...all].sort((a, b) => {
        if ((a.commDate === null) !== (b.commDate === null)) return a.commDate === null ? 1 : -1;
        if (a.commDate !== b.commDate && a.commDate !== null && b.commDate !== null) return (a.commDate < b.commDate ? -1 : 1) * (order === 'ascend' ? 1 : -1);
        return Number(a.id) - Number(b.id);
      });
      expect(all).toEqual(expected);
    }
  });

  test('a contains-filter matches exactly the rows of lower(column) like the lowered text, whatever the case', async () => {
    for (const needle of ['LIS', 'lis0', 'opo', '_0', '%', 'ÉVORA', 'évora', 'vora0']) {
      const { total } = await listRows(database.db, COMMISSIONING_PLAN_TABLE, { filters: JSON.stringify({ localId: needle }) });
      const { rows } = await sql<{ n: number | string }>`select count(*) as n from tracking_commissioning_plan
        where ${scopedTo('')} and lower(local_id) like ${containsPattern(needle)} escape '\\'`.execute(database.db);
      expect({ needle, total }).toEqual({ needle, total: Number(rows[0]?.n) });
    }
    // Case does not matter for ASCII letters.
    const upper = await listRows(database.db, COMMISSIONING_PLAN_TABLE, { filters: JSON.stringify({ localId: 'LIS' }) });
    const lower = await listRows(database.db, COMMISSIONING_PLAN_TABLE, { filters: JSON.stringify({ localId: 'lis' }) });
    expect(upper.total).toBe(30);
    expect(upper).toEqual(lower);
  });

  test('the alarms total without a filter, counted from the alarms alone, is the number of rows the list shows', async () => {
    const { rows } = await scopedSql(sql<{ n: number | string }>`select count(*) as n from (${ALARM_LIST.from}) as q`).execute(database.db);
    const page = await listAlarms(database.db, { size: 100 });
    expect(page.total).toBe(Number(rows[0]?.n));
    expect(page.total).toBe(120);
    const pages = [page, await listAlarms(database.db, { size: 100, page: 2 })];
    expect(new Set(pages.flatMap((p) => p.rows.map((r) => r.id))).size).toBe(120);
  });

  test('an alarm page chosen on the alarms table first is the page the whole list shows, for every sort and filter', async () => {
    const { keyed, ...whole } = ALARM_LIST;
    expect(keyed).toBeDefined();
    const queries = [
      ...ALARM_FIELDS.flatMap((sort) => [
        { sort, order: 'ascend' as const, size: 25, page: 2 },
        { sort, order: 'descend' as const, size: 25, page: 1 },
      ]),
      { filters: JSON.stringify({ severity: 'maj', moName: 'cell=1' }), size: 5, page: 2 },
      { filters: JSON.stringify({ alarmDatetime: '03-2024', id: '1' }), sort: 'nodeName', order: 'descend' as const },
      { filters: JSON.stringify({ source: 'a.log:1' }), sort: 'severity' },
      // A joined field in the filter or the sort: the whole list is read.
      { filters: JSON.stringify({ siteName: 'lisboa' }), sort: 'severity' },
      { sort: 'siteName', order: 'descend' as const, page: 3, size: 7 },
      { page: 99 },
    ];
    for (const query of queries) {
      const chosenFirst = await listAlarms(database.db, query);
      expect({ query, page: chosenFirst }).toEqual({ query, page: await listFrom(database.db, whole, query) });
    }
    // The page is chosen on the keyed table exactly when every field of the sort and filters is one of its
    // columns: told apart here by a keyed table that holds only the first 60 alarms.
    const halfKeyed = { ...ALARM_LIST, keyed: { ...keyed!, table: sql`(select * from monitoring_alarms m where ${tenantScope('m')} and id <= 60) a` } };
    const ids = async (query: object) => (await listFrom<{ id: number }>(database.db, halfKeyed, { size: 100, ...query })).rows.map((r) => Number(r.id));
    expect(Math.max(...(await ids({ sort: 'severity' })))).toBeLessThanOrEqual(60);
    expect(Math.max(...(await ids({ sort: 'siteName' })))).toBeGreaterThan(60);
    expect(Math.max(...(await ids({ sort: 'severity', filters: JSON.stringify({ acknowledged: 'no' }) })))).toBeGreaterThan(60);
    // Not vacuous: the pages hold rows, and a sort by an alarm column orders them.
    const bySeverity = await listAlarms(database.db, { sort: 'severity', size: 100 });
    expect(bySeverity.total).toBe(120);
    expect(bySeverity.rows.map((r) => r.severity)).toEqual([...bySeverity.rows.map((r) => r.severity)].sort());
  });

  test('the migration leaves the indexes the sorts need (and, on PostgreSQL with pg_trgm, the trigram ones)', async () => {
    const names =
      database.dialect === 'sqlite'
        ? (await sql<{ name: string }>`select name from sqlite_master where type = 'index'`.execute(database.db)).rows.map((r) => r.name)
        : (await sql<{ name: string }>`select indexname as name from pg_indexes where schemaname = current_schema()`.execute(database.db)).rows.map(
            (r) => r.name,
          );
    for (const name of [
      'tracking_commissioning_plan_comm_date_asc',
      'tracking_commissioning_plan_comm_date_desc',
      'monitoring_alarms_at_desc',
      'tracking_work_orders_last_update_desc',
    ])
      expect(names).toContain(name);
    if (database.dialect === 'postgres') {
      const { rows } = await sql<{ n: number | string }>`select count(*) as n from pg_extension where extname = 'pg_trgm'`.execute(database.db);
      if (Number(rows[0]?.n) > 0) expect(names).toContain('monitoring_alarms_node_name_trgm');
    } else {
      expect(names.some((n) => n.endsWith('_trgm'))).toBe(false);
    }
  });
});
