import { runInOperator } from '../src/db/operator-scope';
import { importDemoTrackingIfEmpty } from '../src/tracking';
import { TEST_DATABASES, type TestDatabase } from './support/databases';

describe.each(TEST_DATABASES)('tracking demo data on $name', (kind) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await kind.open();
  });
  afterAll(async () => {
    await database.dispose();
  });

  it('writes nothing without network sites, then a plan, WOW, tracker and delta naming those sites, once', async () => {
    expect(await importDemoTrackingIfEmpty(database.db)).toBeNull();
    const sites = Array.from({ length: 20 }, (_, i) => ({ id: `LX${String(i + 1).padStart(4, '0')}`, name: `Lisboa ${i + 1}`, lat: 38.7, lon: -9.1 }));
    await database.db.insertInto('network_sites').values(sites).execute();

    const result = await importDemoTrackingIfEmpty(database.db);
    expect(result).toEqual({ planRows: 50, workOrders: expect.any(Number), trackerSites: 20 });
    const ids = new Set(sites.map((s) => s.id));
    const planSites = await database.db.selectFrom('tracking_commissioning_plan').select('local_id').execute();
    expect(planSites.every((r) => ids.has(r.local_id))).toBe(true);
    const actions = await database.db.selectFrom('tracking_wo_delta').select('action').distinct().execute();
    expect(actions.map((a) => a.action).sort()).toEqual(expect.arrayContaining(['Missing in WOW', 'Missing in tracker']));
    const stamps = await database.db.selectFrom('tracking_stamps').select('key').execute();
    expect(stamps).toHaveLength(3);

    expect(await importDemoTrackingIfEmpty(database.db)).toBeNull();
  });

  it("an operator's demo plan names its own sites only, not a site another operator shares with it, with its areas", async () => {
    const now = new Date().toISOString();
    await database.db
      .insertInto('operators')
      .values([
        { name: 'Owner', avatar: null, created_at: now },
        { name: 'Partner', avatar: null, created_at: now },
      ])
      .execute();
    const ops = await database.db.selectFrom('operators').select(['id', 'name']).where('name', 'in', ['Owner', 'Partner']).execute();
    const owner = ops.find((o) => o.name === 'Owner')!.id;
    const partner = ops.find((o) => o.name === 'Partner')!.id;
    await runInOperator(owner, async () => {
      await database.db.insertInto('network_sites').values({ id: 'LX0500', name: 'Shared', lat: 38.7, lon: -9.1 }).execute();
      await database.db
        .withTables<{ network_site_shares: { operator_id?: number; site_id: string; partner_operator_id: number; mode: string } }>()
        .insertInto('network_site_shares')
        .values({ site_id: 'LX0500', partner_operator_id: partner, mode: 'MOCN' })
        .execute();
    });
    await runInOperator(partner, async () => {
      await database.db
        .insertInto('network_sites')
        .values(['PO0001', 'PO0002', 'LX0010'].map((id) => ({ id, name: id, lat: 41.1, lon: -8.6 })))
        .execute();
      // The shared site is visible to the partner, but it is the owner's rollout.
      expect((await database.db.selectFrom('network_sites').select('id').orderBy('id').execute()).map((s) => s.id)).toEqual([
        'LX0010',
        'LX0500',
        'PO0001',
        'PO0002',
      ]);
      const result = await importDemoTrackingIfEmpty(database.db, new Date(), {
        seed: 8,
        areas: [
          { prefix: 'PO', area: 'Porto', project: 'Rollout Porto' },
          { prefix: 'LX', area: 'Lisboa', project: 'MORAN Lisboa' },
        ],
        wowOnlySite: 'PO9999',
      });
      expect(result).toMatchObject({ planRows: 7, trackerSites: 3 });
      const plan = await database.db
        .selectFrom('tracking_commissioning_plan')
        .select(['local_id', 'bts_area', 'project'])
        .distinct()
        .orderBy('local_id')
        .execute();
      expect(plan).toEqual([
        { local_id: 'LX0010', bts_area: 'Lisboa', project: 'MORAN Lisboa' },
        { local_id: 'PO0001', bts_area: 'Porto', project: 'Rollout Porto' },
        { local_id: 'PO0002', bts_area: 'Porto', project: 'Rollout Porto' },
      ]);
      const orders = await database.db.selectFrom('tracking_work_orders').select('site_id').distinct().execute();
      expect(orders.map((o) => o.site_id)).toContain('PO9999');
      expect(orders.map((o) => o.site_id)).not.toContain('LX0500');
    });
  });
});
