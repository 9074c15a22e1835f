import fs from 'node:fs';
import path from 'node:path';
import { sql, type Kysely } from 'kysely';
import type { FastifyInstance } from 'fastify';
import { verifyPassword } from '../src/auth/passwords';
import { userInfoOf } from '../src/auth/accounts';
import { runInOperator, runUnscoped } from '../src/db/operator-scope';
import type { Database } from '../src/db/schema';
import { LISBON, planDemoNetwork } from '../src/demo/network';
import type { DemoParseParams } from '../src/demo/logs';
import type { DumpImportAnswer, DumpImportParams } from '../src/network/jobs';
import { DEMO_CREDENTIALS, DEMO_PASSWORD, seed } from '../src/seed';
import { DEMO_DATA, DEMO_SHARES, layerSitesOf, seedDemoData, type DemoDataOptions, type DemoOperatorData, type DemoShare } from '../src/seed/demo-data';
import { testApp } from './support/app';
import { TEST_DATABASES, type TestDatabase } from './support/databases';

const CONFIG = { adminEmail: 'Chief@Example.pt', adminPassword: 'Chief-Password-1', demoData: true };
const TABLES = ['roles', 'operators', 'projects', 'users', 'user_operators', 'user_projects'] as const satisfies ReadonlyArray<keyof Database>;

async function counts(database: TestDatabase): Promise<Record<string, number>> {
  const result: Record<string, number> = {};
  for (const table of TABLES) {
    const row = await database.db
      .selectFrom(table)
      .select(sql<number>`count(*)`.as('n'))
      .executeTakeFirstOrThrow();
    result[table] = Number(row.n);
  }
  return result;
}

describe.each(TEST_DATABASES)('first-start seeding on $name', (kind) => {
  let database: TestDatabase;
  beforeEach(async () => {
    database = await kind.open();
  });
  afterEach(async () => database.dispose());

  const idOf = async (email: string) => (await database.db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirstOrThrow()).id;

  test('is idempotent: a second run creates nothing and changes no count', async () => {
    const first = await seed(database.db, CONFIG);
    expect(first.createdUsers.sort()).toEqual(['chief@example.pt', ...DEMO_CREDENTIALS.map((c) => c.email)].sort());
    const after = await counts(database);
    expect(after).toEqual({ roles: 5, operators: 3, projects: 7, users: 5, user_operators: 3 + 2 + 2 + 1 + 1, user_projects: 3 + 3 + 2 + 2 + 1 });
    const second = await seed(database.db, CONFIG);
    expect(second.createdUsers).toEqual([]);
    expect(await counts(database)).toEqual(after);
  });

  test('two instances starting at once agree', async () => {
    await Promise.all([seed(database.db, CONFIG), seed(database.db, CONFIG)]);
    expect(await counts(database)).toMatchObject({ roles: 5, operators: 3, projects: 7, users: 5 });
  });

  test('the administrator is confirmed, belongs to every operator and every Operations project, and starts on Vodafone PT', async () => {
    await seed(database.db, CONFIG);
    const admin = await database.db.selectFrom('users').selectAll().where('email', '=', 'chief@example.pt').executeTakeFirstOrThrow();
    expect(Number(admin.email_confirmed)).toBe(1);
    expect(admin.deactivated_at).toBeNull();
    expect(await verifyPassword(admin.password_hash ?? '', CONFIG.adminPassword)).toBe(true);
    const info = await userInfoOf(database.db, admin.id);
    expect(info).toMatchObject({ role: 'Administrator', operator: { name: 'Vodafone PT' }, projects: ['Operations'] });
    const memberships = await database.db
      .selectFrom('user_projects')
      .innerJoin('projects', 'projects.id', 'user_projects.project_id')
      .innerJoin('operators', 'operators.id', 'projects.operator_id')
      .select(['operators.name as operator', 'projects.name as project'])
      .where('user_projects.user_id', '=', admin.id)
      .orderBy('operators.name')
      .execute();
    expect(memberships).toEqual([
      { operator: 'MEO', project: 'Operations' },
      { operator: 'NOS', project: 'Operations' },
      { operator: 'Vodafone PT', project: 'Operations' },
    ]);
  });

  test('one confirmed demo user per other role, with the demo password; only the Client lacks Operations', async () => {
    await seed(database.db, CONFIG);
    expect(DEMO_CREDENTIALS.map((c) => [c.email, c.role, c.password])).toEqual([
      ['manager@cellwise.local', 'Manager', DEMO_PASSWORD],
      ['hq@cellwise.local', 'CellwiseHQ', DEMO_PASSWORD],
      ['os@cellwise.local', 'CellwiseOS', DEMO_PASSWORD],
      ['client@cellwise.local', 'Client', DEMO_PASSWORD],
    ]);
    expect(DEMO_PASSWORD).toBe('Cellwise-Demo-1');
    const seen: Record<string, unknown> = {};
    for (const { email } of DEMO_CREDENTIALS) {
      const row = await database.db.selectFrom('users').select(['password_hash', 'email_confirmed']).where('email', '=', email).executeTakeFirstOrThrow();
      expect(await verifyPassword(row.password_hash ?? '', DEMO_PASSWORD)).toBe(true);
      expect(Number(row.email_confirmed)).toBe(1);
      const info = await userInfoOf(database.db, await idOf(email));
      seen[email] = [info?.role, info?.operator?.name, info?.projects];
    }
    expect(seen).toEqual({
      'manager@cellwise.local': ['Manager', 'Vodafone PT', ['Operations', 'Rollout 5G']],
      'hq@cellwise.local': ['CellwiseHQ', 'Vodafone PT', ['Operations']],
      'os@cellwise.local': ['CellwiseOS', 'Vodafone PT', ['Operations', 'Swap 2026']],
      'client@cellwise.local': ['Client', 'NOS', ['Rollout 5G']],
    });
  });

  test('a restart keeps what users changed since: passwords and current operator', async () => {
    await seed(database.db, CONFIG);
    const nos = await database.db.selectFrom('operators').select('id').where('name', '=', 'NOS').executeTakeFirstOrThrow();
    await database.db.updateTable('users').set({ password_hash: 'changed', operator_id: nos.id }).where('email', '=', 'chief@example.pt').execute();
    await seed(database.db, CONFIG);
    const admin = await database.db
      .selectFrom('users')
      .select(['password_hash', 'operator_id'])
      .where('email', '=', 'chief@example.pt')
      .executeTakeFirstOrThrow();
    expect(admin).toEqual({ password_hash: 'changed', operator_id: nos.id });
  });

  test('DEMO_DATA=0: roles and the administrator only', async () => {
    await seed(database.db, { ...CONFIG, demoData: false });
    expect(await counts(database)).toEqual({ roles: 5, operators: 0, projects: 0, users: 1, user_operators: 0, user_projects: 0 });
    const roles = await database.db.selectFrom('roles').select('name').orderBy('id').execute();
    expect(roles.map((r) => r.name)).toEqual(['Administrator', 'Manager', 'CellwiseHQ', 'CellwiseOS', 'Client']);
  });
});

describe('the demo operators and their shares', () => {
  const vodafone = DEMO_DATA.find((d) => d.operator === 'Vodafone PT')!;
  const nos = DEMO_DATA.find((d) => d.operator === 'NOS')!;

  test("Vodafone PT's demo network is the one of the releases before tenancy (the e2e suites count it)", () => {
    expect(DEMO_DATA.map((d) => d.operator)).toEqual(['Vodafone PT', 'NOS', 'MEO']);
    expect(vodafone.network).toEqual({ sites: 120, seed: 1, region: LISBON });
    expect(vodafone.tracking).toEqual({});
    expect(vodafone.logs).toEqual({ seed: 1, fileName: 'demo-mobatch-logs.zip' });
    // Every operator writes its own files under DATA_DIR/demo.
    expect(new Set(DEMO_DATA.map((d) => d.network.fileName ?? 'demo-network.xml')).size).toBe(3);
    expect(new Set(DEMO_DATA.map((d) => d.logs.fileName)).size).toBe(3);
  });

  test('MORAN sites are single-PLMN owner sites carrying the partner layer on their antennas; the MOCN site broadcasts both PLMNs', () => {
    const plan = new Map(planDemoNetwork(vodafone.network).map((s) => [s.id, s]));
    const moran = DEMO_SHARES.filter((s) => s.mode === 'MORAN').flatMap((s) => s.siteIds);
    const mocn = DEMO_SHARES.filter((s) => s.mode === 'MOCN').flatMap((s) => s.siteIds);
    expect(moran.length).toBeGreaterThanOrEqual(2);
    expect(mocn).toEqual(['LX0006']);
    for (const id of moran) expect({ id, mocn: plan.get(id)?.shared }).toEqual({ id, mocn: false });
    for (const id of mocn) expect({ id, mocn: plan.get(id)?.shared }).toEqual({ id, mocn: true });

    const layers = layerSitesOf(nos, DEMO_DATA, DEMO_SHARES);
    expect(layers.map((l) => [l.id, l.node])).toEqual(moran.map((id) => [id, `NOS_${id}`]));
    for (const l of layers) {
      const owner = plan.get(l.id)!;
      expect([l.lat, l.lon, l.name, l.azimuths]).toEqual([owner.lat, owner.lon, owner.name, owner.azimuths]);
    }
    const own = planDemoNetwork({ ...nos.network, layerSites: layers });
    expect(own.filter((s) => s.id.startsWith('LX')).map((s) => [s.id, s.node, s.plmn])).toEqual(
      moran.map((id) => [id, `NOS_${id}`, { mcc: '268', mnc: '03' }]),
    );
  });
});

/** The real demo set-up, smaller: Vodafone PT 12 sites, NOS 5 (+ its layer on two), MEO 5. */
const SMALL: DemoOperatorData[] = DEMO_DATA.map((d) => ({ ...d, network: { ...d.network, sites: d.operator === 'Vodafone PT' ? 12 : 5 } }));
const SMALL_SHARES: DemoShare[] = [
  { owner: 'Vodafone PT', partner: 'NOS', mode: 'MORAN', siteIds: ['LX0003', 'LX0004'] },
  { owner: 'Vodafone PT', partner: 'NOS', mode: 'MOCN', siteIds: ['LX0006'] },
];
const NOW = new Date('2025-03-10T09:30:00Z');
const BOXES: Record<string, { lat: [number, number]; lon: [number, number] }> = {
  'Vodafone PT': { lat: [38.6, 38.9], lon: [-9.4, -9.0] },
  NOS: { lat: [41.1, 41.25], lon: [-8.7, -8.5] },
  MEO: { lat: [37.0, 37.12], lon: [-8.1, -7.8] },
};

describe.each(TEST_DATABASES)('the demo operators’ data on $name', (kind) => {
  let database: TestDatabase;
  let app: FastifyInstance;
  let dir: string;
  let ids: Map<string, number>;
  let options: DemoDataOptions;
  let first: Awaited<ReturnType<typeof seedDemoData>>;
  const as = <T>(operator: string, work: (db: Kysely<Database>) => Promise<T>): Promise<T> => runInOperator(ids.get(operator)!, () => work(database.db));

  beforeAll(async () => {
    database = await kind.open();
    let config;
    ({ app, config } = await testApp(database));
    dir = config.dataDir;
    await seed(database.db, config);
    ids = new Map((await database.db.selectFrom('operators').select(['id', 'name']).execute()).map((o) => [o.name, o.id]));
    const warnings: unknown[] = [];
    options = {
      dataDir: dir,
      now: NOW,
      operators: SMALL,
      shares: SMALL_SHARES,
      importNetwork: async (file, coords, fileName) => {
        const params: DumpImportParams = {
          file: path.relative(dir, file),
          removeAfter: false,
          fileName,
          format: 'bulkcm',
          coords,
          siteRule: null,
          importedBy: null,
        };
        const job = await app.jobs.run<DumpImportParams>('network.import', null, params);
        expect(job.outcome?.status).toBe(200);
        return job.outcome!.body as DumpImportAnswer;
      },
      parseLogs: async (params) => {
        const job = await app.jobs.run<DemoParseParams>('monitoring.parse', null, params);
        expect(job.outcome?.status).toBe(200);
        return job.outcome!.body;
      },
      log: { info: () => undefined, warn: (fields) => warnings.push(fields) },
    };
    first = await seedDemoData(database.db, options);
    expect(warnings).toEqual([]);
  });
  afterAll(async () => {
    await app.close();
    await database.dispose();
  });

  test('each operator gets a network of its own, in its own part of the country, broadcasting its own PLMN', async () => {
    expect(first).toEqual({ networks: ['Vodafone PT', 'NOS', 'MEO'], shares: 3 });
    const own = async (operator: string) =>
      as(operator, (db) => db.selectFrom('network_sites').selectAll().where('operator_id', '=', ids.get(operator)!).orderBy('id').execute());
    const sites = { vodafone: await own('Vodafone PT'), nos: await own('NOS'), meo: await own('MEO') };
    expect(sites.vodafone.map((s) => s.id)).toEqual(Array.from({ length: 12 }, (_, i) => `LX${String(i + 1).padStart(4, '0')}`));
    expect(sites.nos.map((s) => s.id)).toEqual(['LX0003', 'LX0004', 'PO0001', 'PO0002', 'PO0003', 'PO0004', 'PO0005']);
    expect(sites.meo.map((s) => s.id)).toEqual(['FA0001', 'FA0002', 'FA0003', 'FA0004', 'FA0005']);
    const inBox = (operator: string, s: { id: string; lat: number | null; lon: number | null }) => {
      const box = BOXES[operator]!;
      return { id: s.id, inside: s.lat! >= box.lat[0] && s.lat! <= box.lat[1] && s.lon! >= box.lon[0] && s.lon! <= box.lon[1] };
    };
    for (const s of sites.vodafone) expect(inBox('Vodafone PT', s)).toEqual({ id: s.id, inside: true });
    for (const s of sites.meo) expect(inBox('MEO', s)).toEqual({ id: s.id, inside: true });
    // NOS's own sites are around Porto; its layer stands on Vodafone PT's Lisbon sites, at their place.
    for (const s of sites.nos) expect(inBox(s.id.startsWith('PO') ? 'NOS' : 'Vodafone PT', s)).toEqual({ id: s.id, inside: true });
    for (const id of ['LX0003', 'LX0004'])
      expect(sites.nos.find((s) => s.id === id)).toMatchObject({
        lat: sites.vodafone.find((s) => s.id === id)!.lat,
        lon: sites.vodafone.find((s) => s.id === id)!.lon,
      });

    // Node names coincide across operators (every network has its RNC01 and BSC01), each in its own inventory.
    const nodes = async (operator: string) => await as(operator, (db) => db.selectFrom('network_nodes').select(['name', 'site_id']).orderBy('name').execute());
    for (const operator of ['Vodafone PT', 'NOS', 'MEO'])
      expect((await nodes(operator)).map((n) => n.name)).toEqual(expect.arrayContaining(['BSC01', 'RNC01']));
    expect(await nodes('NOS')).toEqual(
      expect.arrayContaining([
        { name: 'NOS_LX0003', site_id: 'LX0003' },
        { name: 'NOS_LX0004', site_id: 'LX0004' },
      ]),
    );
    expect((await nodes('Vodafone PT')).some((n) => n.name.startsWith('NOS_'))).toBe(false);

    const plmns = async (operator: string) =>
      as(operator, (db) => db.selectFrom('network_cells').select(['site_id', 'plmns']).where('operator_id', '=', ids.get(operator)!).execute());
    const primaries = async (operator: string) => [...new Set((await plmns(operator)).map((c) => c.plmns.split(',')[0]))];
    expect(await primaries('Vodafone PT')).toEqual(['268-01']);
    expect(await primaries('NOS')).toEqual(['268-03']);
    expect(await primaries('MEO')).toEqual(['268-06']);
    const mocnSite = (await plmns('Vodafone PT')).filter((c) => c.site_id === 'LX0006');
    expect(mocnSite.length).toBeGreaterThan(0);
    // Every LTE/NR cell of the MOCN site broadcasts both operators' PLMNs (GSM/UMTS cells sit on the controllers, single-PLMN).
    expect(mocnSite.filter((c) => c.plmns === '268-01,268-03').length).toBeGreaterThan(mocnSite.length / 3);
  });

  test('the shares are the owner’s rows, seen by both parties; the partner sees the shared sites, MEO none', async () => {
    const shares = async (operator: string) =>
      as(operator, (db) =>
        db
          .withTables<{ network_site_shares: { operator_id: number; site_id: string; partner_operator_id: number; mode: string } }>()
          .selectFrom('network_site_shares')
          .select(['operator_id', 'site_id', 'partner_operator_id', 'mode'])
          .orderBy('site_id')
          .execute(),
      );
    const expected = [
      { operator_id: ids.get('Vodafone PT'), site_id: 'LX0003', partner_operator_id: ids.get('NOS'), mode: 'MORAN' },
      { operator_id: ids.get('Vodafone PT'), site_id: 'LX0004', partner_operator_id: ids.get('NOS'), mode: 'MORAN' },
      { operator_id: ids.get('Vodafone PT'), site_id: 'LX0006', partner_operator_id: ids.get('NOS'), mode: 'MOCN' },
    ];
    expect(await shares('Vodafone PT')).toEqual(expected);
    expect(await shares('NOS')).toEqual(expected);
    expect(await shares('MEO')).toEqual([]);
    const othersSites = async (operator: string) =>
      as(operator, (db) => db.selectFrom('network_sites').select(['id', 'operator_id']).where('operator_id', '!=', ids.get(operator)!).orderBy('id').execute());
    expect(await othersSites('NOS')).toEqual(['LX0003', 'LX0004', 'LX0006'].map((id) => ({ id, operator_id: ids.get('Vodafone PT') })));
    expect(await othersSites('Vodafone PT')).toEqual([]);
    expect(await othersSites('MEO')).toEqual([]);
  });

  test('plan, work orders, tracker and parsed logs are each operator’s own, naming its own sites and nodes', async () => {
    for (const [operator, wowOnly] of [
      ['Vodafone PT', 'LX9999'],
      ['NOS', 'PO9999'],
      ['MEO', 'FA9999'],
    ] as const) {
      await as(operator, async (db) => {
        const me = ids.get(operator)!;
        const sites = (await db.selectFrom('network_sites').select('id').where('operator_id', '=', me).execute()).map((s) => s.id).sort();
        const plan = await db.selectFrom('tracking_commissioning_plan').select(['local_id', 'bts_area', 'project']).execute();
        expect({ operator, planSites: [...new Set(plan.map((r) => r.local_id))].sort() }).toEqual({ operator, planSites: sites });
        const orders = await db.selectFrom('tracking_work_orders').select('site_id').distinct().execute();
        expect(orders.map((o) => o.site_id)).toContain(wowOnly);
        expect(orders.every((o) => o.site_id === wowOnly || sites.includes(o.site_id))).toBe(true);
        const tracker = new Set((await db.selectFrom('tracking_tracker').select('local_id').execute()).map((t) => t.local_id));
        expect(sites.filter((id) => !tracker.has(id))).toEqual([]);
        const parses = await db.selectFrom('monitoring_parses').select('archives').execute();
        expect(parses).toEqual([{ archives: JSON.stringify([SMALL.find((d) => d.operator === operator)!.logs.fileName]) }]);
        const parsed = (await db.selectFrom('monitoring_nodes').select('node_name').execute()).map((n) => n.node_name).sort();
        const inventory = (await db.selectFrom('network_nodes').select('name').execute()).map((n) => n.name).sort();
        expect({ operator, parsed }).toEqual({ operator, parsed: inventory });
        if (operator === 'NOS') {
          expect(plan.filter((r) => r.local_id === 'LX0003').map((r) => [r.bts_area, r.project])[0]).toEqual(['Lisboa', 'MORAN Lisboa']);
          expect(plan.filter((r) => r.local_id.startsWith('PO')).every((r) => r.bts_area === 'Porto' && r.project === 'Rollout Porto')).toBe(true);
        }
      });
    }
    expect(fs.readdirSync(path.join(dir, 'demo')).sort()).toEqual([
      'demo-mobatch-logs-meo.zip',
      'demo-mobatch-logs-nos.zip',
      'demo-mobatch-logs.zip',
      'demo-network-meo.xml',
      'demo-network-nos.xml',
      'demo-network.xml',
    ]);
  });

  test('a restart writes nothing again', async () => {
    const count = async () =>
      runUnscoped(async () => {
        const n = async (
          table: 'network_sites' | 'network_nodes' | 'tracking_commissioning_plan' | 'tracking_work_orders' | 'monitoring_parses' | 'network_imports',
        ) =>
          Number(
            (
              await database.db
                .selectFrom(table)
                .select(sql<number>`count(*)`.as('n'))
                .executeTakeFirstOrThrow()
            ).n,
          );
        return Promise.all(
          (['network_sites', 'network_nodes', 'tracking_commissioning_plan', 'tracking_work_orders', 'monitoring_parses', 'network_imports'] as const).map(n),
        );
      });
    const before = await count();
    expect(await seedDemoData(database.db, options)).toEqual({ networks: [], shares: 0 });
    expect(await count()).toEqual(before);
  });
});
