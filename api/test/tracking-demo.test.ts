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
    const stamps = await database.db.selectFrom('app_meta').select('key').where('key', 'like', 'tracking.%').execute();
    expect(stamps).toHaveLength(3);

    expect(await importDemoTrackingIfEmpty(database.db)).toBeNull();
  });
});
