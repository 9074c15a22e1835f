import { DummyDriver, Kysely, PostgresAdapter, PostgresIntrospector, PostgresQueryCompiler, sql, type Compilable, type CompiledQuery } from 'kysely';
import type { FastifyInstance } from 'fastify';
import {
  NoCurrentOperatorError,
  OperatorScopeError,
  OperatorScopePlugin,
  runInOperator,
  runUnscoped,
  scopedTo,
  setOperatorOutsideScopesForTests,
} from '../src/db/operator-scope';
import type { Database } from '../src/db/schema';
import type { Config } from '../src/config';
import { testApp } from './support/app';
import { TEST_DATABASES, type TestDatabase } from './support/databases';
import { TEST_OPERATOR_ID } from './support/operator';
import { headersOf, insertUser, setUpCallers } from './support/principals';
import { DEMO_PASSWORD } from '../src/seed';

/**
 * The operator scope (issue 42): the one query-layer helper every read and write of engineering data
 * goes through. Queries are compiled, not run, so each test reads the exact SQL a route would send.
 */
const db = new Kysely<Database>({
  dialect: {
    createAdapter: () => new PostgresAdapter(),
    createDriver: () => new DummyDriver(),
    createIntrospector: (k) => new PostgresIntrospector(k),
    createQueryCompiler: () => new PostgresQueryCompiler(),
  },
  plugins: [new OperatorScopePlugin()],
});

const OPERATOR = 3;

/** The query as compiled in `operator`'s work (the plugin runs at compile time, as at execution). */
function compiled(query: Compilable, operator: number | null = OPERATOR): CompiledQuery {
  return runInOperator(operator, () => query.compile());
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

const text = (query: CompiledQuery) => ({ sql: query.sql, parameters: [...query.parameters] });

describe('the operator scope rewrites every query on engineering data', () => {
  test('select: the table gets operator_id = the current operator', () => {
    expect(text(compiled(db.selectFrom('network_nodes').select(['name', 'dn']).where('site_id', '=', 'LX0001')))).toEqual({
      sql: 'select "name", "dn" from "network_nodes" where "site_id" = $1 and "network_nodes"."operator_id" = $2',
      parameters: ['LX0001', OPERATOR],
    });
  });

  test('select with an alias: the filter names the alias', () => {
    expect(text(compiled(db.selectFrom('tracking_tracker as t').select('t.local_id')))).toEqual({
      sql: 'select "t"."local_id" from "tracking_tracker" as "t" where "t"."operator_id" = $1',
      parameters: [OPERATOR],
    });
  });

  test('the operator is read when the query is compiled: the same builder in two operators gives two filters', () => {
    const query = db.selectFrom('runs').select('id');
    expect(compiled(query, 4).parameters).toEqual([4]);
    expect(compiled(query, 5).parameters).toEqual([5]);
  });

  test('tables that are not engineering data are left alone', () => {
    expect(text(compiled(db.selectFrom('users').select('email').where('id', '=', 1)))).toEqual({
      sql: 'select "email" from "users" where "id" = $1',
      parameters: [1],
    });
  });

  test('inner and left joins: each tenant table is filtered in its ON, so a left join stays a left join', () => {
    const query = db
      .selectFrom('network_cells as c')
      .innerJoin('network_nodes as n', 'n.name', 'c.node_name')
      .leftJoin('monitoring_nodes as m', 'm.node_name', 'n.name')
      .leftJoin('users as u', 'u.id', 'm.parse_id')
      .select(['c.dn', 'n.name', 'm.node_name']);
    expect(text(compiled(query))).toEqual({
      sql:
        'select "c"."dn", "n"."name", "m"."node_name" from "network_cells" as "c"' +
        ' inner join "network_nodes" as "n" on "n"."name" = "c"."node_name" and "n"."operator_id" = $1' +
        ' left join "monitoring_nodes" as "m" on "m"."node_name" = "n"."name" and "m"."operator_id" = $2' +
        ' left join "users" as "u" on "u"."id" = "m"."parse_id"' +
        ' where "c"."operator_id" = $3',
      parameters: [OPERATOR, OPERATOR, OPERATOR],
    });
  });

  test('a subquery is filtered once, in itself, and the outer query in itself', () => {
    // Built in the operator's work, as a route builds its queries: an embedded builder is rewritten when it is embedded.
    const query = runInOperator(OPERATOR, () =>
      db
        .selectFrom('monitoring_alarms')
        .select('id')
        .where('node_name', 'in', db.selectFrom('network_nodes').select('name').where('site_id', '=', 'LX0001')),
    );
    expect(text(compiled(query))).toEqual({
      sql:
        'select "id" from "monitoring_alarms" where "node_name" in' +
        ' (select "name" from "network_nodes" where "site_id" = $1 and "network_nodes"."operator_id" = $2)' +
        ' and "monitoring_alarms"."operator_id" = $3',
      parameters: ['LX0001', OPERATOR, OPERATOR],
    });
  });

  test('a subquery in FROM and one in the select list are filtered too', () => {
    const query = runInOperator(OPERATOR, () =>
      db
        .selectFrom(db.selectFrom('tracking_work_orders').select(['site_id']).as('w'))
        .select((eb) => [
          'w.site_id',
          eb.selectFrom('tracking_wo_delta as d').select('d.action').whereRef('d.site_id', '=', 'w.site_id').limit(1).as('action'),
        ]),
    );
    const { sql: statement, parameters } = text(compiled(query));
    expect(statement).toContain('from "tracking_work_orders" where "tracking_work_orders"."operator_id" = $');
    expect(statement).toContain('"d"."site_id" = "w"."site_id" and "d"."operator_id" = $');
    expect(parameters.filter((p) => p === OPERATOR)).toHaveLength(2);
  });

  test("network_sites: the operator's own sites and the sites a partner shares with it; share rows for both parties", () => {
    expect(text(compiled(db.selectFrom('network_sites').select('id')))).toEqual({
      sql:
        'select "id" from "network_sites" where ("network_sites"."operator_id" = $1 or exists' +
        ' (select 1 from "network_site_shares" as "cw_share" where "cw_share"."site_id" = "network_sites"."id"' +
        ' and "cw_share"."operator_id" = "network_sites"."operator_id" and "cw_share"."partner_operator_id" = $2))',
      parameters: [OPERATOR, OPERATOR],
    });
    // The share table is typed with the RAN-sharing code; the scope knows it by name.
    const untyped = db as unknown as Kysely<Record<string, { site_id: string }>>;
    expect(text(compiled(untyped.selectFrom('network_site_shares').select('site_id')))).toEqual({
      sql: 'select "site_id" from "network_site_shares" where ("network_site_shares"."operator_id" = $1 or "network_site_shares"."partner_operator_id" = $2)',
      parameters: [OPERATOR, OPERATOR],
    });
  });

  test('update: only the operator’s own rows, and operator_id cannot be changed', () => {
    expect(text(compiled(db.updateTable('monitoring_alarm_acks').set({ note: 'n' }).where('alarm_key', '=', 'k')))).toEqual({
      sql: 'update "monitoring_alarm_acks" set "note" = $1 where "alarm_key" = $2 and "monitoring_alarm_acks"."operator_id" = $3',
      parameters: ['n', 'k', OPERATOR],
    });
    expect(() => compiled(db.updateTable('network_nodes').set({ operator_id: 4 } as never))).toThrow(OperatorScopeError);
  });

  test('delete: only the operator’s own rows', () => {
    expect(text(compiled(db.deleteFrom('tracking_commissioning_plan')))).toEqual({
      sql: 'delete from "tracking_commissioning_plan" where "tracking_commissioning_plan"."operator_id" = $1',
      parameters: [OPERATOR],
    });
    expect(text(compiled(db.deleteFrom('network_relations').where('id', '>', 10)))).toEqual({
      sql: 'delete from "network_relations" where "id" > $1 and "network_relations"."operator_id" = $2',
      parameters: [10, OPERATOR],
    });
  });

  test('insert: every row gets the current operator; naming it is allowed, naming another refused', () => {
    const node = (name: string) => ({ name, dn: `dn-${name}`, site_id: 'LX0001', technology: 'LTE', type: 'eNB' });
    expect(text(compiled(db.insertInto('network_nodes').values([node('A'), node('B')])))).toEqual({
      sql: 'insert into "network_nodes" ("name", "dn", "site_id", "technology", "type", "operator_id") values ($1, $2, $3, $4, $5, $6), ($7, $8, $9, $10, $11, $12)',
      parameters: ['A', 'dn-A', 'LX0001', 'LTE', 'eNB', OPERATOR, 'B', 'dn-B', 'LX0001', 'LTE', 'eNB', OPERATOR],
    });
    expect(compiled(db.insertInto('network_nodes').values({ ...node('A'), operator_id: OPERATOR })).parameters).toEqual([
      'A',
      'dn-A',
      'LX0001',
      'LTE',
      'eNB',
      OPERATOR,
    ]);
    expect(() => compiled(db.insertInto('network_nodes').values({ ...node('A'), operator_id: OPERATOR + 1 }))).toThrow(OperatorScopeError);
  });

  test('insert … select must name the operator it inserts; the select is scoped', () => {
    const copy = db
      .insertInto('tracking_tracker')
      .columns(['id', 'local_id'])
      .expression(db.selectFrom('tracking_commissioning_plan').select(['id', 'local_id']));
    expect(() => compiled(copy)).toThrow(/must name operator_id/);
    const named = db
      .insertInto('tracking_tracker')
      .columns(['id', 'local_id', 'operator_id'])
      .expression(db.selectFrom('tracking_commissioning_plan').select(['id', 'local_id', sql.lit(OPERATOR).as('operator_id')]));
    expect(text(compiled(named)).sql).toContain('from "tracking_commissioning_plan" where "tracking_commissioning_plan"."operator_id" = $1');
  });

  test('raw SQL naming a tenant table without scopedTo is refused; with one scopedTo per table it is filtered', () => {
    expect(() => runInOperator(OPERATOR, () => sql`select count(*) from network_nodes`.compile(db))).toThrow(/needs scopedTo/);
    const scoped = runInOperator(OPERATOR, () => sql`select count(*) from network_nodes n where ${scopedTo('n')}`.compile(db));
    expect(text(scoped)).toEqual({ sql: 'select count(*) from network_nodes n where "n"."operator_id" = $1', parameters: [OPERATOR] });
    // Two tenant tables, one scope: the second would read every operator's rows.
    expect(() =>
      runInOperator(OPERATOR, () => sql`select 1 from network_nodes n join network_cells c on c.node_name = n.name where ${scopedTo('n')}`.compile(db)),
    ).toThrow(/1 of 2/);
    // A raw fragment inside a builder query is held to the same rule.
    expect(() =>
      compiled(
        db
          .selectFrom('users')
          .select('id')
          .where(sql<boolean>`exists (select 1 from runs where runs.user_id = users.id)`),
      ),
    ).toThrow(/needs scopedTo/);
    // Raw SQL on other tables needs nothing.
    expect(runInOperator(OPERATOR, () => sql`select count(*) from users`.compile(db)).sql).toBe('select count(*) from users');
  });

  test('unscoped work (migrations, purges) is not rewritten, and scopedTo is always true there', () => {
    expect(runUnscoped(() => db.selectFrom('network_nodes').select('name').compile()).sql).toBe('select "name" from "network_nodes"');
    expect(runUnscoped(() => db.deleteFrom('runs').compile()).sql).toBe('delete from "runs"');
    expect(runUnscoped(() => sql`select 1 from runs r where ${scopedTo('r')}`.compile(db)).sql).toBe('select 1 from runs r where 1 = 1');
  });

  describe('work outside any scope', () => {
    beforeEach(() => setOperatorOutsideScopesForTests(null));
    afterEach(() => setOperatorOutsideScopesForTests(TEST_OPERATOR_ID));

    test('touching engineering data throws, reads and writes alike; other tables work', () => {
      expect(() => db.selectFrom('network_nodes').select('name').compile()).toThrow(OperatorScopeError);
      expect(() => db.deleteFrom('tracking_tracker').compile()).toThrow(OperatorScopeError);
      expect(() =>
        db
          .insertInto('runs')
          .values({} as never)
          .compile(),
      ).toThrow(OperatorScopeError);
      expect(() => sql`select 1 from runs r where ${scopedTo('r')}`.compile(db)).toThrow(OperatorScopeError);
      expect(db.selectFrom('users').select('id').compile().sql).toBe('select "id" from "users"');
    });
  });

  describe('a user without a current operator', () => {
    test('reads match nothing (no operator has id -1) and every write is refused with 409', () => {
      expect(text(compiled(db.selectFrom('network_nodes').select('name'), null))).toEqual({
        sql: 'select "name" from "network_nodes" where "network_nodes"."operator_id" = $1',
        parameters: [-1],
      });
      for (const write of [
        db.insertInto('monitoring_alarm_acks').values({ alarm_key: 'k', note: 'n' } as never),
        db.updateTable('network_nodes').set({ type: 'x' }),
        db.deleteFrom('runs'),
      ]) {
        let thrown: unknown;
        try {
          compiled(write, null);
        } catch (error) {
          thrown = error;
        }
        expect(thrown).toBeInstanceOf(NoCurrentOperatorError);
        expect((thrown as NoCurrentOperatorError).statusCode).toBe(409);
      }
    });
  });
});

describe.each(TEST_DATABASES)('the operator scope on $name', (kind) => {
  let database: TestDatabase;
  let app: FastifyInstance;
  let config: Config;
  let operators: { first: number; second: number };

  beforeAll(async () => {
    database = await kind.open();
    ({ app, config } = await testApp(database));
    await setUpCallers(app, database, config);
    const ids = (await database.db.selectFrom('operators').select(['id', 'name']).orderBy('id').execute()).map((o) => o.id);
    operators = { first: ids[0]!, second: ids[1]! };
  });
  afterAll(async () => {
    await app.close();
    await database.dispose();
  });

  const node = (name: string, site: string) => ({ name, dn: `SubNetwork=1,MeContext=${name}`, site_id: site, technology: 'LTE', type: 'eNB' });

  test('the same node name under two operators: each operator reads, updates and deletes only its own', async () => {
    const { db: real } = database;
    await runInOperator(operators.first, () => real.insertInto('network_nodes').values(node('SCOPE-NODE', 'SCOPE1')).execute());
    await runInOperator(operators.second, () => real.insertInto('network_nodes').values(node('SCOPE-NODE', 'SCOPE2')).execute());
    const sitesOf = (operator: number) =>
      runInOperator(operator, () => real.selectFrom('network_nodes').select('site_id').where('name', '=', 'SCOPE-NODE').execute());
    expect(await sitesOf(operators.first)).toEqual([{ site_id: 'SCOPE1' }]);
    expect(await sitesOf(operators.second)).toEqual([{ site_id: 'SCOPE2' }]);

    const updated = await runInOperator(operators.second, () =>
      real.updateTable('network_nodes').set({ type: 'gNB' }).where('name', '=', 'SCOPE-NODE').executeTakeFirst(),
    );
    expect(Number(updated.numUpdatedRows)).toBe(1);
    const types = await runUnscoped(() =>
      real.selectFrom('network_nodes').select(['operator_id', 'type']).where('name', '=', 'SCOPE-NODE').orderBy('operator_id').execute(),
    );
    expect(types).toEqual([
      { operator_id: operators.first, type: 'eNB' },
      { operator_id: operators.second, type: 'gNB' },
    ]);

    await runInOperator(operators.second, () => real.deleteFrom('network_nodes').where('name', '=', 'SCOPE-NODE').execute());
    expect(await sitesOf(operators.first)).toEqual([{ site_id: 'SCOPE1' }]);
    expect(await sitesOf(operators.second)).toEqual([]);
    // The same key twice under one operator is still refused by the database.
    const twice = runInOperator(operators.first, () => real.insertInto('network_nodes').values(node('SCOPE-NODE', 'SCOPE3')).execute());
    expect(await rejection(twice)).toMatch(/unique|duplicate/i);
  });

  test('a request runs in its user’s current operator, read from the user record at each request', async () => {
    const { db: real } = database;
    const email = 'scope.switcher@example.pt';
    const userId = await insertUser(real, {
      email,
      role: 'CellwiseHQ',
      operators: ['Vodafone PT', 'MEO'],
      projects: [
        ['Vodafone PT', 'Operations'],
        ['MEO', 'Operations'],
      ],
    });
    const [vodafone, meo] = await Promise.all(
      ['Vodafone PT', 'MEO'].map(async (name) => (await real.selectFrom('operators').select('id').where('name', '=', name).executeTakeFirstOrThrow()).id),
    );
    await runInOperator(meo!, () => real.insertInto('network_sites').values({ id: 'SCOPE-MEO', name: 'Only MEO', lat: 38.7, lon: -9.1 }).execute());
    const token = await app.auth.issueToken(userId);
    const sites = async () => {
      const res = await app.inject({ url: '/api/Monitoring/GetSiteList', headers: { authorization: `Bearer ${token!}` } });
      expect(res.statusCode).toBe(200);
      return JSON.stringify(res.json());
    };
    expect(await sites()).not.toContain('SCOPE-MEO');
    // Switched in another session (or by an Administrator): the very next request sees MEO's data.
    await real.updateTable('users').set({ operator_id: meo! }).where('id', '=', userId).execute();
    expect(await sites()).toContain('SCOPE-MEO');
    await real.updateTable('users').set({ operator_id: vodafone! }).where('id', '=', userId).execute();
    expect(await sites()).not.toContain('SCOPE-MEO');
  });

  test('a signed-in user without a current operator sees no engineering rows and gets 409 on a write', async () => {
    const { db: real } = database;
    const email = 'no.operator@example.pt';
    const userId = await insertUser(real, {
      email,
      role: 'CellwiseOS',
      operators: ['Vodafone PT'],
      projects: [['Vodafone PT', 'Operations']],
      password: DEMO_PASSWORD,
    });
    await real.updateTable('users').set({ operator_id: null }).where('id', '=', userId).execute();
    const token = await app.auth.issueToken(userId);
    const headers = headersOf({
      name: 'CellwiseOS',
      userId,
      email,
      token,
      principal: { authenticated: true, role: 'CellwiseOS', operatorId: null, projects: ['Operations'] },
    });

    const plan = await app.inject({ url: '/api/Tracker/GetCommissioningPlan', headers });
    expect(plan.statusCode).toBe(200);
    expect(plan.json<{ data?: unknown[]; rows?: unknown[] }>()).toMatchObject({ total: 0 });
    const summary = await app.inject({ url: '/api/Network/GetSummary', headers });
    expect([200, 403]).toContain(summary.statusCode);

    // The tracker sync writes the tracker from the plan: refused, with a message saying why.
    const sync = await app.inject({ url: '/api/Tracker/TrackerUpload', headers });
    expect({ status: sync.statusCode, body: sync.json() }).toEqual({ status: 409, body: { message: new NoCurrentOperatorError().message } });
  });
});
