import { Migrator, sql, type Kysely, type Migration, type MigrationProvider } from 'kysely';
import * as m0016 from '../src/db/migrations/0016_operator_tenancy';
import { MIGRATIONS, migrationsUpTo } from '../src/db/migrate';
import { runUnscoped, TENANT_TABLES } from '../src/db/operator-scope';
import { TEST_DATABASES, type EmptyTestDatabase } from './support/databases';

/**
 * Issue 42, acceptance: migration 0016 keeps every row an installed console has. The database is
 * migrated to 0015 as a console of the day left it, every table gets rows (found in the catalogue, so
 * a table nobody thought of is filled too), then 0016 runs and every row is read back.
 */
const BEFORE_TENANCY = migrationsUpTo('0015_site_lookups');

const provider = (migrations: Record<string, Migration>): MigrationProvider => ({ getMigrations: () => Promise.resolve(migrations) });

/**
 * The engineering tables 0016 gives an operator, with the natural key that becomes unique per
 * operator (null: a serial id, which stays global). Written here from the issue, not read from the
 * migration, so a key the migration forgets fails.
 */
const ENGINEERING: Record<string, readonly string[] | null> = {
  network_sites: ['id'],
  network_nodes: ['name'],
  network_cells: ['dn'],
  network_cell_alt_dns: ['alt_dn'],
  network_external_cells: ['dn'],
  network_relations: ['id'],
  network_imports: null,
  monitoring_parses: null,
  monitoring_nodes: ['node_name'],
  monitoring_alarms: null,
  monitoring_alarm_acks: ['alarm_key'],
  monitoring_states: null,
  monitoring_attributes: null,
  monitoring_findings: null,
  monitoring_ret: null,
  monitoring_performance: ['node_name'],
  tracking_commissioning_plan: ['id'],
  tracking_tracker: ['id'],
  tracking_work_orders: ['id'],
  tracking_wo_delta: ['id'],
  runs: null,
};

/**
 * Tables with an operator_id after 0016 that are not scoped tenant data: they say which operator a user,
 * project, job or notification concerns, or are keyed by the operator itself (one frequency plan each).
 */
const NOT_TENANT_DATA = ['projects', 'users', 'user_operators', 'operator_pictures', 'frequency_plans', 'jobs', 'notifications'];

/** The 'last import' stamps of the one global data set (tracking's three and the PM counters'). */
const STAMP_KEYS = [
  'tracking.commissioningPlan.importedAt',
  'tracking.tracker.updatedAt',
  'tracking.workOrderStatus.importedAt',
  'monitoring.performance.importedAt',
];

/** Two operators; the first (lowest id) is not 1, so a migration that assumed id 1 fails. */
const FIRST = 7;
const SECOND = 9;

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the catalogue is read at run time, no schema type fits
type AnyDb = Kysely<any>;
type Row = Record<string, unknown>;

interface Column {
  name: string;
  type: string;
  maxLength: number | null;
}

interface Catalogue {
  tables: () => Promise<string[]>;
  columns: (table: string) => Promise<Column[]>;
  /** Single-column foreign keys: column → referenced table and column. */
  foreignKeys: (table: string) => Promise<Array<{ column: string; table: string; to: string }>>;
  primaryKey: (table: string) => Promise<string[]>;
  /** Every index but the primary key's, with its first column (null for an expression) and its access method. */
  indexes: (table: string) => Promise<Array<{ name: string; first: string | null; unique: boolean; method: string }>>;
}

function sqliteCatalogue(db: AnyDb): Catalogue {
  return {
    tables: async () =>
      (
        await sql<{
          name: string;
        }>`select name from sqlite_master where type = 'table' and name not like 'sqlite_%' and name not like 'kysely_%' order by name`.execute(db)
      ).rows.map((r) => r.name),
    columns: async (table) =>
      (await sql<{ name: string; type: string }>`select name, type from pragma_table_info(${table})`.execute(db)).rows.map((r) => {
        const length = /\((\d+)\)/.exec(r.type);
        return { name: r.name, type: r.type.toLowerCase(), maxLength: length ? Number(length[1]) : null };
      }),
    foreignKeys: async (table) =>
      (await sql<{ from: string; table: string; to: string }>`select "from", "table", "to" from pragma_foreign_key_list(${table})`.execute(db)).rows.map(
        (r) => ({ column: r.from, table: r.table, to: r.to }),
      ),
    primaryKey: async (table) =>
      (await sql<{ name: string; pk: number }>`select name, pk from pragma_table_info(${table}) where pk > 0 order by pk`.execute(db)).rows.map((r) => r.name),
    indexes: async (table) => {
      const { rows } = await sql<{ name: string; origin: string; unique: number }>`select name, origin, "unique" from pragma_index_list(${table})`.execute(db);
      const found = [];
      for (const index of rows.filter((r) => r.origin !== 'pk')) {
        const { rows: first } = await sql<{ name: string | null }>`select name from pragma_index_xinfo(${index.name}) where seqno = 0`.execute(db);
        found.push({ name: index.name, first: first[0]?.name ?? null, unique: index.unique === 1, method: 'btree' });
      }
      return found;
    },
  };
}

function postgresCatalogue(db: AnyDb): Catalogue {
  return {
    tables: async () =>
      (
        await sql<{ name: string }>`select table_name as name from information_schema.tables
          where table_schema = current_schema() and table_type = 'BASE TABLE' and table_name not like 'kysely_%' order by table_name`.execute(db)
      ).rows.map((r) => r.name),
    columns: async (table) =>
      (
        await sql<{ name: string; type: string; max: number | null }>`select column_name as name, data_type as type, character_maximum_length as max
          from information_schema.columns where table_schema = current_schema() and table_name = ${table} order by ordinal_position`.execute(db)
      ).rows.map((r) => ({ name: r.name, type: r.type, maxLength: r.max === null ? null : Number(r.max) })),
    foreignKeys: async (table) =>
      (
        await sql<{ column: string; table: string; to: string }>`
          select a.attname as "column", rt.relname as "table", ra.attname as "to"
          from pg_constraint c
          join pg_class t on t.oid = c.conrelid join pg_namespace n on n.oid = t.relnamespace
          join pg_attribute a on a.attrelid = c.conrelid and a.attnum = c.conkey[1]
          join pg_class rt on rt.oid = c.confrelid
          join pg_attribute ra on ra.attrelid = c.confrelid and ra.attnum = c.confkey[1]
          where c.contype = 'f' and n.nspname = current_schema() and t.relname = ${table}`.execute(db)
      ).rows,
    primaryKey: async (table) =>
      (
        await sql<{ name: string }>`
          select a.attname as name
          from pg_index i
          join pg_class t on t.oid = i.indrelid join pg_namespace n on n.oid = t.relnamespace
          join lateral unnest(i.indkey) with ordinality as k(attnum, position) on true
          join pg_attribute a on a.attrelid = t.oid and a.attnum = k.attnum
          where i.indisprimary and n.nspname = current_schema() and t.relname = ${table}
          order by k.position`.execute(db)
      ).rows.map((r) => r.name),
    indexes: async (table) =>
      (
        await sql<{ name: string; first: string; unique: boolean; method: string }>`
          select c.relname as name, pg_get_indexdef(i.indexrelid, 1, true) as first, i.indisunique as "unique", am.amname as method
          from pg_index i
          join pg_class c on c.oid = i.indexrelid
          join pg_am am on am.oid = c.relam
          join pg_class t on t.oid = i.indrelid join pg_namespace n on n.oid = t.relnamespace
          where not i.indisprimary and n.nspname = current_schema() and t.relname = ${table}`.execute(db)
      ).rows.map((r) => ({ name: r.name, first: /^[a-z_]+$/.test(r.first) ? r.first : null, unique: r.unique, method: r.method })),
  };
}

/** Columns whose check constraint the generic values below do not meet. */
const CHECKED: Record<string, unknown> = { 'notifications.icon': 'info', 'notifications.readed': 1 };

/** A value of the column's type, distinct per call (unique columns stay unique), short enough for any varchar. */
function valueFor(column: Column, n: number): unknown {
  const type = column.type;
  if (/char|text|clob/.test(type)) return `v${n}`;
  if (/^(integer|int|int4|smallint|bigint|int8)$/.test(type)) return n;
  if (/double|real|float|numeric/.test(type)) return n + 0.5;
  if (/blob|bytea/.test(type)) return Buffer.from([0x89, 0x50, n % 256]);
  throw new Error(`tenancy-migration: no test value for ${column.name} of type ${type}: teach valueFor`);
}

/** Comparable form of a row: its columns in name order, as JSON (pg answers bigint as text both times). */
function comparable(row: Row, columns: readonly string[]): string {
  return JSON.stringify(columns.map((c) => [c, row[c] instanceof Buffer ? (row[c] as Buffer).toString('hex') : row[c]]));
}

/**
 * What a promise was rejected with, as text (null: it resolved). better-sqlite3 makes its errors with
 * the Error of the first test file that loaded it, so in a later file's realm they are no `Error` and
 * `rejects.toThrow` would call them 'did not throw'.
 */
async function rejection(work: Promise<unknown>): Promise<string | null> {
  try {
    await work;
    return null;
  } catch (error) {
    return String((error as { message?: unknown }).message ?? error);
  }
}

async function allRows(db: AnyDb, table: string): Promise<Row[]> {
  return (await sql<Row>`select * from ${sql.table(table)}`.execute(db)).rows;
}

describe.each(TEST_DATABASES)('migration 0016 (operators as tenants) on $name', (kind) => {
  let database: EmptyTestDatabase;
  let db: AnyDb;
  let catalogue: Catalogue;
  const before = new Map<string, { columns: string[]; rows: Row[] }>();
  let indexesBefore = new Map<string, string[]>();

  const migrate = async (migrations: Record<string, Migration>) => {
    const migrator = new Migrator({ db, provider: provider(migrations), ...(database.schema ? { migrationTableSchema: database.schema } : {}) });
    const { error } = await database.migrating(() => runUnscoped(() => migrator.migrateToLatest()));
    if (error) throw error instanceof Error ? error : new Error(String(error));
  };

  beforeAll(async () => {
    database = await kind.openEmpty();
    db = database.db as unknown as AnyDb;
    catalogue = kind.name === 'postgres' ? postgresCatalogue(db) : sqliteCatalogue(db);
    await migrate(BEFORE_TENANCY);

    await runUnscoped(async () => {
      const tables = await catalogue.tables();
      // Every table gets a row once the tables it references have theirs: the row points at them.
      const firstRowOf = new Map<string, Row>();
      await sql`insert into operators (id, name, avatar, created_at) values (${FIRST}, 'First operator', null, '2025-01-01T00:00:00.000Z'),
        (${SECOND}, 'Second operator', null, '2025-02-01T00:00:00.000Z')`.execute(db);
      firstRowOf.set('operators', { id: FIRST });
      // The tracking stamps of the one global data set, and a key of app_meta that must stay there.
      for (const [i, key] of STAMP_KEYS.entries()) {
        await sql`insert into app_meta (key, value) values (${key}, ${`2025-03-0${i + 1}T10:00:00.000Z`})`.execute(db);
      }
      await sql`insert into app_meta (key, value) values ('lists.trackingDataVersion', '41')`.execute(db);
      firstRowOf.set('app_meta', {});

      let n = 100;
      let pending = tables.filter((t) => !firstRowOf.has(t));
      while (pending.length > 0) {
        const ready = [];
        for (const table of pending) {
          const keys = (await catalogue.foreignKeys(table)).filter((k) => k.table !== table);
          if (keys.every((k) => firstRowOf.has(k.table))) ready.push({ table, keys });
        }
        if (ready.length === 0) throw new Error(`tables referencing each other: ${pending.join(', ')}`);
        for (const { table, keys } of ready) {
          const row: Row = {};
          for (const column of await catalogue.columns(table)) {
            const key = keys.find((k) => k.column === column.name);
            const checked = CHECKED[`${table}.${column.name}`];
            row[column.name] = key ? firstRowOf.get(key.table)![key.to] : checked !== undefined ? checked : valueFor(column, (n += 1));
          }
          // Natural keys of engineering tables become per operator: a second row proves they still differ.
          const rows = ENGINEERING[table]
            ? [
                row,
                Object.fromEntries(
                  Object.entries(row).map(([c, v]) => [
                    c,
                    keys.some((k) => k.column === c) ? v : typeof v === 'string' ? `${v}b` : v instanceof Buffer ? v : (n += 1),
                  ]),
                ),
              ]
            : [row];
          for (const r of rows) {
            const columns = Object.keys(r);
            await sql`insert into ${sql.table(table)} (${sql.join(columns.map((c) => sql.ref(c)))}) values (${sql.join(columns.map((c) => r[c]))})`.execute(db);
          }
          firstRowOf.set(table, row);
        }
        pending = pending.filter((t) => !firstRowOf.has(t));
      }

      for (const table of tables) {
        const columns = (await catalogue.columns(table)).map((c) => c.name).sort();
        before.set(table, { columns, rows: await allRows(db, table) });
      }
      indexesBefore = new Map(await Promise.all(tables.map(async (t) => [t, (await catalogue.indexes(t)).map((i) => i.name).sort()] as const)));
    });

    await migrate({ ...BEFORE_TENANCY, '0016_operator_tenancy': m0016 });
  });
  afterAll(async () => {
    await database.dispose();
  });

  test('before 0016 every table held rows (two operators among them)', () => {
    expect([...before.entries()].filter(([, t]) => t.rows.length === 0).map(([name]) => name)).toEqual([]);
    expect(
      before
        .get('operators')!
        .rows.map((r) => Number(r.id))
        .sort(),
    ).toEqual([FIRST, SECOND]);
    // The engineering tables this test names are the ones the console has.
    expect(Object.keys(ENGINEERING).filter((t) => !before.has(t))).toEqual([]);
  });

  test('every row of every table is kept, value for value', async () => {
    const lost: string[] = [];
    await runUnscoped(async () => {
      for (const [table, { columns, rows }] of before) {
        const expected = (table === 'app_meta' ? rows.filter((r) => !STAMP_KEYS.includes(String(r.key))) : rows).map((r) => comparable(r, columns)).sort();
        const actual = (await allRows(db, table)).map((r) => comparable(r, columns)).sort();
        if (JSON.stringify(actual) !== JSON.stringify(expected)) lost.push(`${table}: ${JSON.stringify({ expected, actual })}`);
      }
    });
    expect(lost).toEqual([]);
  });

  test('every engineering row belongs to the first operator; jobs and notifications name none yet', async () => {
    await runUnscoped(async () => {
      for (const table of Object.keys(ENGINEERING)) {
        const owners = (await allRows(db, table)).map((r) => Number(r.operator_id));
        expect({ table, owners: [...new Set(owners)] }).toEqual({ table, owners: [FIRST] });
        expect(owners.length).toBe(before.get(table)!.rows.length);
      }
      for (const table of ['jobs', 'notifications']) {
        expect({ table, owners: [...new Set((await allRows(db, table)).map((r) => r.operator_id))] }).toEqual({ table, owners: [null] });
      }
    });
  });

  test("the tracking stamps moved from app_meta to the first operator's tracking_stamps", async () => {
    await runUnscoped(async () => {
      const stamps = (await allRows(db, 'tracking_stamps')).map((r) => ({ operator: Number(r.operator_id), key: r.key, value: r.value }));
      expect(stamps.sort((a, b) => String(a.key).localeCompare(String(b.key)))).toEqual(
        [...STAMP_KEYS].sort().map((key) => ({ operator: FIRST, key, value: before.get('app_meta')!.rows.find((r) => r.key === key)!.value })),
      );
      const meta = (await allRows(db, 'app_meta')).map((r) => String(r.key));
      expect(meta.filter((key) => STAMP_KEYS.includes(key))).toEqual([]);
      expect(meta).toContain('lists.trackingDataVersion');
    });
  });

  /** The tables with an operator_id that are not NOT_TENANT_DATA, and the tenant tables that exist, now. */
  const scopedTables = () =>
    runUnscoped(async () => {
      const tables = await catalogue.tables();
      const withOperator: string[] = [];
      for (const table of tables) {
        if ((await catalogue.columns(table)).some((c) => c.name === 'operator_id')) withOperator.push(table);
      }
      return {
        withOperator: withOperator.filter((t) => !NOT_TENANT_DATA.includes(t)).sort(),
        tenant: [...TENANT_TABLES].filter((t) => tables.includes(t)).sort(),
      };
    });

  test('the operator scope knows every table that has engineering rows', async () => {
    const { withOperator, tenant } = await scopedTables();
    expect(withOperator).toEqual(tenant);
  });

  test.each(Object.entries(ENGINEERING).filter(([, key]) => key !== null))(
    '%s: the natural key is unique per operator (the same key under two operators, not twice under one)',
    async (table, key) => {
      await runUnscoped(async () => {
        expect(await catalogue.primaryKey(table)).toEqual(['operator_id', ...key!]);
        const row = (await allRows(db, table))[0]!;
        const insert = (operator: number) => {
          const copy: Row = { ...row, operator_id: operator };
          const columns = Object.keys(copy);
          return sql`insert into ${sql.table(table)} (${sql.join(columns.map((c) => sql.ref(c)))}) values (${sql.join(columns.map((c) => copy[c]))})`.execute(
            db,
          );
        };
        expect(await rejection(insert(SECOND))).toBeNull();
        expect(await rejection(insert(FIRST))).toMatch(/unique|duplicate/i);
        expect(await rejection(insert(SECOND))).toMatch(/unique|duplicate/i);
      });
    },
  );

  test.each(Object.keys(ENGINEERING))('%s: every index leads with operator_id, none lost', async (table) => {
    await runUnscoped(async () => {
      const indexes = await catalogue.indexes(table);
      // PostgreSQL's trigram indexes (GIN, 0013) cannot lead with an integer without btree_gin: they stay
      // on their text, and a contains-filter meets the operator's btree index beside them.
      const btree = indexes.filter((i) => i.method !== 'gin' && i.method !== 'gist');
      expect(btree.filter((i) => i.first !== 'operator_id').map((i) => `${i.name} leads with ${i.first ?? 'an expression'}`)).toEqual([]);
      expect(indexesBefore.get(table)!.filter((name) => !indexes.some((i) => i.name === name))).toEqual([]);
      // A serial id stays the primary key alone: the operator leads an index of its own beside it.
      if (ENGINEERING[table] === null) expect(indexes.length).toBeGreaterThan(0);
    });
  });
  // Last: it runs the migrations after 0016, whose tables the tests above do not know.
  test('after every later migration too, the operator scope knows every table that has engineering rows', async () => {
    await migrate(MIGRATIONS);
    const { withOperator, tenant } = await scopedTables();
    // The alarms' trigram index (0021) is SQLite's: PostgreSQL's pg_trgm indexes need no table.
    const expected = [...TENANT_TABLES].filter((t) => kind.name !== 'postgres' || t !== 'monitoring_alarms_trigrams').sort();
    expect({ withOperator, everyTenantTableExists: tenant.length === expected.length }).toEqual({
      withOperator: expected,
      everyTenantTableExists: true,
    });
  });
});
