import fs from 'node:fs';
import ExcelJS from 'exceljs';
import type { FastifyInstance, InjectOptions } from 'fastify';
import type { FrequencyPlan, RunHistoryPage, RunResponse } from 'contracts';
import { haversineKm, isOnN78ChannelRaster } from '../src/domain/planning';
import { findExport } from '../src/files';
import { importDump } from '../src/network';
import { DEMO_FREQUENCY_PLANS, seedFrequencyPlans } from '../src/planning/frequency-plans';
import { PLANNING_SHEETS } from '../src/planning/sheets';
import { testApp } from './support/app';
import { runInOperator } from '../src/db/operator-scope';
import { TEST_DATABASES, type TestDatabase } from './support/databases';
import { headersOf, MISSING_ID, setUpCallers, type Caller, type Callers } from './support/principals';
import { demoFile, removeTempDirs } from './fixtures/network-import/dumps';

/*
 * The demo network of 30 sites (seed 1), whose plan planDemoNetwork gives: LX0006 has L800, L1800 and
 * L2100 (and NR cells already, which the first run replans); LX0005 has L800 and L1800 only, no L700 or
 * L2100; LX0003 carries n78 cells (NR-ARFCN 636666, PCIs 339–341, TAC 5008); LX0002, LX0013 and LX0014
 * have no NR and are neighbours (LX0002–LX0013 1.0 km, LX0002–LX0014 4.6 km).
 */
const FULL_SITE = 'LX0006';
const TWO_BAND_SITE = 'LX0005';

describe.each(TEST_DATABASES)('parameter planning on $name', (kind) => {
  let database: TestDatabase;
  let app: FastifyInstance;
  let callers: Callers;
  let dataDir: string;

  beforeAll(async () => {
    database = await kind.open();
    let config;
    ({ app, config } = await testApp(database));
    dataDir = config.dataDir;
    callers = await setUpCallers(app, database, config);
    const { file, summary } = await demoFile({ sites: 30, seed: 1 });
    await importDump(database.db, fs.createReadStream(file), { fileName: 'demo.xml', format: 'bulkcm', coords: summary.coords, importedBy: null });
  }, 120_000);
  afterAll(async () => {
    await app.close();
    await database.dispose();
    removeTempDirs();
  });

  const as = (caller: Caller, options: InjectOptions) => app.inject({ ...options, headers: { ...headersOf(caller), ...(options.headers ?? {}) } });
  const run = (caller: Caller, query: { siteId?: string; antenna?: string; lteBands?: string; userId?: number | null; replanExisting?: string }) => {
    const params = new URLSearchParams({
      siteId: query.siteId ?? FULL_SITE,
      antenna: query.antenna ?? 'AIR3227/78',
      lteBands: query.lteBands ?? 'L800,L1800,L2100',
      userId: String(query.userId === undefined ? caller.userId : query.userId),
      ...(query.replanExisting === undefined ? {} : { replanExisting: query.replanExisting }),
    });
    return as(caller, { url: `/api/Parameters/RunParameterPlanning?${params.toString()}` });
  };
  const runCount = async () =>
    Number(
      (
        await database.db
          .selectFrom('runs')
          .select((eb) => eb.fn.countAll<number | string>().as('n'))
          .where('kind', '=', 'parameterPlanning')
          .executeTakeFirstOrThrow()
      ).n,
    );
  /** The node of a site's NR cells in the dump. */
  const gnbOf = async (siteId: string) =>
    (await database.db.selectFrom('network_cells').select('node_name').where('site_id', '=', siteId).where('tech', '=', '5G').executeTakeFirstOrThrow())
      .node_name;
  const reservations = (runId?: number) => {
    let q = database.db.selectFrom('planned_cells').selectAll().orderBy('cell_name');
    if (runId !== undefined) q = q.where('run_id', '=', runId);
    return q.execute();
  };
  const discard = (caller: Caller, payload: unknown) => as(caller, { method: 'POST', url: '/api/Parameters/DiscardPlan', payload: payload as object });
  /** Brute force over the dump's NR cells and every reservation: no reserved cell shares its PCI with a co-channel cell within 5 km. */
  const collisions = async () => {
    const sites = new Map(
      (await database.db.selectFrom('network_sites').select(['id', 'lat', 'lon']).execute()).map((s) => [s.id, { lat: s.lat!, lon: s.lon! }]),
    );
    const inventory = (await database.db.selectFrom('network_cells').select(['name', 'site_id', 'channel', 'pci']).where('tech', '=', '5G').execute()).map(
      (c) => ({
        name: c.name,
        site: c.site_id,
        channel: c.channel,
        pci: c.pci,
        ...sites.get(c.site_id)!,
      }),
    );
    const reserved = (await reservations()).map((r) => ({ name: r.cell_name, site: r.site_id, channel: r.nr_arfcn, pci: r.pci, lat: r.lat, lon: r.lon }));
    const names = new Set(reserved.map((r) => r.name));
    const all = [...inventory.filter((c) => !names.has(c.name)), ...reserved];
    const found: string[] = [];
    for (const p of reserved) {
      for (const y of all) {
        if (y !== p && y.channel === p.channel && y.pci === p.pci && haversineKm(p, y) <= 5) found.push(`${p.name}/${y.name} PCI ${p.pci}`);
      }
    }
    return found;
  };
  const workbookOf = async (file: string, caller: Caller) => {
    const stored = await findExport(database.db, dataDir, file, caller.userId!);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.readFile(stored.file);
    return workbook;
  };

  test("the demo operators have their seeded plans, an Administrator sees every operator's, a planner only those of the operators they work for, and seeding again adds nothing", async () => {
    // CellwiseOS works for Vodafone PT only: the other operators' spectrum is not theirs to see.
    const own = await as(callers.CellwiseOS, { url: '/api/Parameters/GetFrequencyPlans' });
    expect(own.statusCode).toBe(200);
    expect(own.json<FrequencyPlan[]>().map((p) => p.operatorName)).toEqual(['Vodafone PT']);
    const answer = await as(callers.Administrator, { url: '/api/Parameters/GetFrequencyPlans' });
    expect(answer.statusCode).toBe(200);
    const plans = answer.json<FrequencyPlan[]>();
    expect(plans.map((p) => p.operatorName)).toEqual(['MEO', 'NOS', 'Vodafone PT']);
    for (const plan of plans) {
      expect(plan).toMatchObject(DEMO_FREQUENCY_PLANS[plan.operatorName]!);
      expect(isOnN78ChannelRaster(plan.nrArfcn, 30)).toBe(true);
    }
    // Three distinct n78 blocks.
    expect(new Set(plans.map((p) => p.nrArfcn)).size).toBe(3);
    expect(await seedFrequencyPlans(database.db)).toBe(0);
  });

  test("a run plans the site on the caller's operator's plan, records it in the history, and its workbook reads back", async () => {
    const before = await runCount();
    const answer = await run(callers.CellwiseOS, { replanExisting: 'true' });
    expect(answer.statusCode).toBe(200);
    const body = answer.json<RunResponse>();
    expect(body.file).toEqual(expect.any(String));
    expect(body.message).toMatch(
      /^Parameter planning of LX0006 \(AIR3227\/78 on L800, L1800, L2100\): 3 NR cells, 9 LTE anchors, 9 EN-DC relations, X2 to 1 eNB\.$/,
    );
    const count = (label: string) => body.summary.find((s) => s.label === label)?.count;
    expect([count('NR cells'), count('LTE anchors'), count('EN-DC relations'), count('Missing bands')]).toEqual([3, 9, 9, 0]);
    expect(body.preview.title).toBe('NR Cells');
    expect(body.preview.total).toBe(3);
    expect(await runCount()).toBe(before + 1);

    // Vodafone PT's n78 carrier (NR-ARFCN 643334); PCIs in 0–1007, distinct mod 3 on the site.
    const pcis = body.preview.rows.map((r) => r.pci as number);
    for (const row of body.preview.rows) {
      expect(row.nrArfcn).toBe(643334);
      expect(row.gscn).toEqual(expect.any(Number));
      expect(row.pci).toBeGreaterThanOrEqual(0);
      expect(row.pci).toBeLessThanOrEqual(1007);
      expect(row.txRx).toBe('32T32R');
    }
    expect(new Set(pcis.map((p) => p % 3)).size).toBe(3);

    // No co-channel NR cell of another site within the 5 km reuse distance has a planned PCI.
    const site = await database.db.selectFrom('network_sites').selectAll().where('id', '=', FULL_SITE).executeTakeFirstOrThrow();
    const others = await database.db
      .selectFrom('network_cells as c')
      .innerJoin('network_sites as s', 's.id', 'c.site_id')
      .select(['c.name', 'c.pci', 's.lat', 's.lon'])
      .where('c.tech', '=', '5G')
      .where('c.channel', '=', 643334)
      .where('c.site_id', '<>', FULL_SITE)
      .execute();
    for (const other of others) {
      if (haversineKm({ lat: site.lat!, lon: site.lon! }, { lat: other.lat!, lon: other.lon! }) <= 5) expect(pcis).not.toContain(other.pci);
    }

    const workbook = await workbookOf(body.file!, callers.CellwiseOS);
    expect(workbook.worksheets.map((s) => s.name)).toEqual([...PLANNING_SHEETS]);
    const nr = workbook.getWorksheet('NR Cells')!;
    expect(nr.getRow(1).getCell(8).value).toBe('NR-ARFCN');
    expect(nr.rowCount).toBe(4);
    expect(workbook.getWorksheet('LTE Anchors')!.rowCount).toBe(10);
    // LX0006 had NR: its gNB stays the node its NR cells were on.
    expect(workbook.getWorksheet('X2')!.getRow(2).values).toEqual([undefined, FULL_SITE, await gnbOf(FULL_SITE)]);
    const parameters = workbook.getWorksheet('Parameters')!;
    const values = new Map<string, unknown>();
    parameters.eachRow((row, n) => n > 1 && values.set(String(row.getCell(1).value), row.getCell(2).value));
    expect(values.get('Operator')).toBe('Vodafone PT');
    expect(values.get('Antenna')).toBe('AIR3227/78');

    // The history shows it (user, site, antenna, lteBands), and anyone may download the workbook again.
    const history = (await as(callers.CellwiseHQ, { url: '/api/Parameters/GetPlanningHistory' })).json<RunHistoryPage>();
    expect(history.rows[0]).toMatchObject({
      id: body.runId,
      user: 'Inês Costa',
      site: FULL_SITE,
      antenna: 'AIR3227/78',
      lteBands: 'L800, L1800, L2100',
      hasFile: true,
    });
    const again = await as(callers.CellwiseHQ, { url: `/api/Parameters/GetParameterPlanningExport?parameterPlanningId=${body.runId}` });
    expect(again.statusCode).toBe(200);
    const copy = await workbookOf(again.json<{ file: string }>().file, callers.CellwiseHQ);
    expect(copy.worksheets.map((s) => s.name)).toEqual([...PLANNING_SHEETS]);
    const missing = await as(callers.CellwiseHQ, { url: `/api/Parameters/GetParameterPlanningExport?parameterPlanningId=${MISSING_ID}` });
    expect([missing.statusCode, missing.json()]).toEqual([404, { message: 'Run not found.' }]);

    // The job's notification says what the run found.
    const notification = await database.db
      .selectFrom('notifications')
      .select('title')
      .where('user_id', '=', callers.CellwiseOS.userId!)
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    expect(notification.title).toBe(body.message);
  }, 60_000);

  test('the AIR6488 radio is 64T64R, and a site lacking a chosen band is planned on the others, the answer naming the missing band', async () => {
    const answer = await run(callers.CellwiseOS, { siteId: TWO_BAND_SITE, antenna: 'AIR6488', lteBands: 'L2100,l800 , L1800', replanExisting: 'true' });
    expect(answer.statusCode).toBe(200);
    const body = answer.json<RunResponse>();
    expect(body.message).toContain('LX0005 has no LTE cell on L2100: no anchor there.');
    expect(body.summary).toContainEqual({ label: 'Missing bands', count: 1, tone: 'warning' });
    expect(body.preview.rows.every((r) => r.txRx === '64T64R' && r.antenna === 'AIR6488')).toBe(true);
    const history = (
      await as(callers.CellwiseOS, { url: `/api/Parameters/GetPlanningHistory?filters=${encodeURIComponent(JSON.stringify({ site: TWO_BAND_SITE }))}` })
    ).json<RunHistoryPage>();
    expect(history.rows[0]).toMatchObject({ antenna: 'AIR6488', lteBands: 'L800, L1800, L2100' });
  }, 60_000);

  test("a site with n78 cells keeps them (NR-ARFCN, PCIs, TAC) and reserves nothing; 'replanExisting' plans them anew on the operator's carrier", async () => {
    const kept = await run(callers.CellwiseOS, { siteId: 'LX0003' });
    expect(kept.statusCode).toBe(200);
    const body = kept.json<RunResponse>();
    expect(body.preview.rows.map((r) => [r.cell, r.nrStatus, r.nrArfcn, r.pci, r.tac])).toEqual([
      ['LX0003_N78_1', 'Kept (inventory)', 636666, 339, 5008],
      ['LX0003_N78_2', 'Kept (inventory)', 636666, 340, 5008],
      ['LX0003_N78_3', 'Kept (inventory)', 636666, 341, 5008],
    ]);
    const count = (b: RunResponse, label: string) => b.summary.find((s) => s.label === label)?.count;
    expect([count(body, 'NR cells'), count(body, 'NR cells kept')]).toEqual([0, 3]);
    expect(body.message).toContain('0 NR cells planned, 3 kept');
    expect(await reservations(body.runId)).toEqual([]);

    const replanned = (await run(callers.CellwiseOS, { siteId: 'LX0003', replanExisting: 'true' })).json<RunResponse>();
    const lteTac = (
      await database.db.selectFrom('network_cells').select('tac').where('site_id', '=', 'LX0003').where('tech', '=', '4G').executeTakeFirstOrThrow()
    ).tac;
    expect(replanned.preview.rows.map((r) => [r.nrStatus, r.nrArfcn, r.tac])).toEqual(Array(3).fill(['Planned', 643334, lteTac]));
    expect((await reservations(replanned.runId)).map((r) => [r.cell_name, r.nr_arfcn, r.pci])).toEqual(
      replanned.preview.rows.map((r) => [r.cell, 643334, r.pci]),
    );
  }, 60_000);

  test('a cluster in one run, then a neighbour alone: no reserved PCI collides within 5 km; Discard plan frees the reservations and the history says so', async () => {
    const os = callers.CellwiseOS;
    const cluster = await run(os, { siteId: 'LX0002, LX0013', lteBands: 'L800,L1800' });
    expect(cluster.statusCode).toBe(200);
    const one = cluster.json<RunResponse>();
    expect(one.message).toMatch(/^Parameter planning of 2 sites \(LX0002, LX0013\) \(AIR3227\/78 on L800, L1800\): 6 NR cells, /);
    expect(one.summary).toContainEqual({ label: 'Sites', count: 2, tone: 'ok' });
    expect(one.summary).toContainEqual({ label: 'Errors', count: 0, tone: 'ok' });
    const held = await reservations(one.runId);
    expect(held.map((r) => r.site_id)).toEqual(['LX0002', 'LX0002', 'LX0002', 'LX0013', 'LX0013', 'LX0013']);
    expect(new Set(held.map((r) => r.pci)).size).toBe(6);

    // LX0014 is 4.6 km from LX0002: planned alone, it reads the cluster's reservations and avoids their PCIs.
    const neighbour = (await run(os, { siteId: 'LX0014', lteBands: 'L800,L1800' })).json<RunResponse>();
    const near = held.filter((r) => r.site_id === 'LX0002').map((r) => r.pci);
    expect(neighbour.preview.rows.map((r) => r.pci).filter((p) => near.includes(p as number))).toEqual([]);
    expect(await collisions()).toEqual([]);

    // A reservation whose cell a dump now shows as planned (name, NR-ARFCN, PCI) is dropped by the next planning
    // read; LX0006's replanned cells, named as its cells in the dump but not yet what the dump shows, are kept.
    const shown = await database.db.selectFrom('network_cells').select(['name', 'channel', 'pci']).where('name', '=', 'LX0004_N78_1').executeTakeFirstOrThrow();
    await database.db
      .updateTable('planned_cells')
      .set({ cell_name: shown.name, nr_arfcn: shown.channel!, pci: shown.pci! })
      .where('cell_name', '=', 'LX0014_N78_1')
      .execute();
    await run(os, { siteId: 'LX0020', lteBands: 'L800,L1800' });
    const live = (await reservations()).map((r) => [r.cell_name, r.nr_arfcn]);
    expect(live.map(([name]) => name)).not.toContain(shown.name);
    expect(live).toContainEqual(['LX0006_N78_1', 643334]);

    const discarded = await discard(os, { parameterPlanningId: one.runId });
    expect([discarded.statusCode, discarded.json()]).toEqual([
      200,
      { runId: one.runId, freed: 6, message: `Plan ${one.runId} discarded: 6 reserved NR cells freed.` },
    ]);
    expect(await reservations(one.runId)).toEqual([]);
    const history = (await as(os, { url: '/api/Parameters/GetPlanningHistory' })).json<RunHistoryPage>();
    const row = history.rows.find((r) => r.id === one.runId)!;
    expect(row.outcome).toMatch(/^Discarded 1, Sites 2, NR cells 6,/);
    expect(row.message).toMatch(
      /^Discarded by Inês Costa on \d\d-\d\d-\d{4} \d\d:\d\d:\d\d UTC: its reserved NR cells were freed\. Parameter planning of 2 sites/,
    );

    const again = await discard(os, { parameterPlanningId: one.runId });
    expect(again.statusCode).toBe(409);
    expect(again.json<{ message: string }>().message).toMatch(/^This plan was already discarded \(.* by Inês Costa\)\.$/);
    expect([(await discard(os, { parameterPlanningId: MISSING_ID })).statusCode]).toEqual([404]);
    // Another operator's run (MEO's) is not found, and keeps its reservation.
    const meo = await database.db.selectFrom('operators').select('id').where('name', '=', 'MEO').executeTakeFirstOrThrow();
    const theirs = await runInOperator(meo.id, async () => {
      const inserted = await database.db
        .insertInto('runs')
        .values({
          kind: 'parameterPlanning',
          user_id: null,
          user_name: 'MEO planner',
          sites: 'LX0002',
          files: '',
          parameters: '{}',
          run_date: new Date().toISOString(),
          job_id: null,
          message: null,
          summary: '[]',
          preview: '{}',
          stored_name: null,
          file_name: null,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      await database.db
        .insertInto('planned_cells')
        .values({
          plan_key: 'meo',
          run_id: inserted.id,
          site_id: 'LX0002',
          cell_name: 'LX0002_N78_1',
          nr_arfcn: 629334,
          pci: 0,
          prach_root: 0,
          tac: 1,
          lat: 38.7,
          lon: -9.2,
          azimuth: 0,
          created_at: new Date().toISOString(),
        })
        .execute();
      return inserted.id;
    });
    const foreign = await discard(os, { parameterPlanningId: theirs });
    expect([foreign.statusCode, foreign.json()]).toEqual([404, { message: 'Run not found.' }]);
    expect(await runInOperator(meo.id, () => database.db.selectFrom('planned_cells').select('cell_name').execute())).toEqual([{ cell_name: 'LX0002_N78_1' }]);
  }, 120_000);

  test('bad cluster and discard requests answer 400 / 404 and change nothing', async () => {
    const before = [await runCount(), (await reservations()).length];
    const os = callers.CellwiseOS;
    const refused = async (response: Awaited<ReturnType<typeof run>>, status: number, message: string | RegExp) => {
      expect(response.statusCode).toBe(status);
      const text = response.json<{ message: string }>().message;
      if (typeof message === 'string') expect(text).toBe(message);
      else expect(text).toMatch(message);
    };
    await refused(await run(os, { siteId: ' , ,' }), 400, 'Choose at least one site.');
    await refused(
      await run(os, { siteId: Array.from({ length: 21 }, (_, i) => `LX${String(i + 1).padStart(4, '0')}`).join(',') }),
      400,
      'Choose at most 20 sites for one run.',
    );
    await refused(await run(os, { siteId: 'LX0002,NO-SUCH-SITE' }), 404, 'Site NO-SUCH-SITE not found.');
    await refused(await run(os, { replanExisting: 'maybe' }), 400, /replanExisting/);
    await refused(await run(os, { siteId: 'LX0005,LX0018', lteBands: 'L2100' }), 400, /^None of the sites LX0005, LX0018 has an LTE cell on L2100/);
    await refused(await discard(os, {}), 400, /parameterPlanningId/);
    await refused(await discard(os, { parameterPlanningId: 'one' }), 400, /parameterPlanningId/);
    await refused(await discard(os, { parameterPlanningId: 1, extra: true }), 400, /extra|additional/i);
    expect([await runCount(), (await reservations()).length]).toEqual(before);
  }, 60_000);

  test('refusals answer a clear message and record nothing', async () => {
    const before = await runCount();
    const os = callers.CellwiseOS;
    const expectRefusal = async (response: Awaited<ReturnType<typeof run>>, status: number, message: string | RegExp) => {
      expect(response.statusCode).toBe(status);
      const body = response.json<{ message: string }>();
      if (typeof message === 'string') expect(body.message).toBe(message);
      else expect(body.message).toMatch(message);
    };
    await expectRefusal(await run(os, { siteId: 'NO-SUCH-SITE' }), 404, 'Site NO-SUCH-SITE not found.');
    await expectRefusal(await run(os, { antenna: 'AIR9999' }), 400, 'Unknown antenna "AIR9999": choose AIR3227/78 or AIR6488.');
    await expectRefusal(await run(os, { lteBands: '' }), 400, 'Choose at least one LTE band (L700, L800, L1800, L2100).');
    await expectRefusal(await run(os, { lteBands: ' , ' }), 400, 'Choose at least one LTE band (L700, L800, L1800, L2100).');
    await expectRefusal(await run(os, { lteBands: 'L800,L2600' }), 400, 'Unknown LTE band "L2600": choose among L700, L800, L1800, L2100.');
    await expectRefusal(await run(os, { userId: callers.CellwiseHQ.userId }), 403, 'You can only run this as yourself.');
    await expectRefusal(await run(os, { userId: null }), 400, /userId/);
    await expectRefusal(
      await run(os, { siteId: TWO_BAND_SITE, lteBands: 'L700,L2100' }),
      400,
      'Site LX0005 has no LTE cell on L700, L2100: there is nothing to anchor the NR cells on. Choose a band the site has.',
    );
    expect(await runCount()).toBe(before);
  }, 60_000);

  test('without a plan for the current operator the run is refused, naming the operator and that an Administrator sets it', async () => {
    const before = await runCount();
    const vodafone = await database.db.selectFrom('operators').select('id').where('name', '=', 'Vodafone PT').executeTakeFirstOrThrow();
    const saved = await database.db.selectFrom('frequency_plans').selectAll().where('operator_id', '=', vodafone.id).executeTakeFirstOrThrow();
    await database.db.deleteFrom('frequency_plans').where('operator_id', '=', vodafone.id).execute();
    try {
      const answer = await run(callers.CellwiseOS, {});
      expect(answer.statusCode).toBe(400);
      expect(answer.json<{ message: string }>().message).toBe(
        'Vodafone PT has no frequency plan: an Administrator must set it (Frequency plans, on Parameter Planning) before a parameter planning can run.',
      );
      expect(await runCount()).toBe(before);
    } finally {
      await database.db.insertInto('frequency_plans').values(saved).execute();
    }
  });

  test('Administrators save plans: on the n78 raster, inside n78, EARFCNs in their bands; others may only read them', async () => {
    const admin = callers.Administrator;
    const meo = await database.db.selectFrom('operators').select('id').where('name', '=', 'MEO').executeTakeFirstOrThrow();
    const save = (caller: Caller, payload: object) => as(caller, { method: 'POST', url: '/api/Parameters/SaveFrequencyPlan', payload });
    const good = { operatorId: meo.id, nrArfcn: 628000, nrBandwidthMhz: 60, lteCarriers: { L800: 6420, L2100: 550 } };

    const ok = await save(admin, good);
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({ operatorName: 'MEO', nrArfcn: 628000, nrBandwidthMhz: 60, lteCarriers: { L800: 6420, L2100: 550 } });
    const listed = (await as(admin, { url: '/api/Parameters/GetFrequencyPlans' })).json<FrequencyPlan[]>();
    expect(listed.find((p) => p.operatorName === 'MEO')).toMatchObject({ nrArfcn: 628000, lteCarriers: { L800: 6420, L2100: 550 } });
    expect(listed.find((p) => p.operatorName === 'MEO')!.lteCarriers).not.toHaveProperty('L1800');

    const refused = async (payload: object, status: number, message: RegExp) => {
      const answer = await save(admin, payload);
      expect(answer.statusCode).toBe(status);
      expect(answer.json<{ message: string }>().message).toMatch(message);
    };
    await refused({ ...good, nrArfcn: 628001 }, 400, /^NR-ARFCN 628001 is not on the n78 channel raster/);
    await refused({ ...good, nrArfcn: 653332, nrBandwidthMhz: 100 }, 400, /does not fit in n78 \(3300–3800 MHz\)/);
    await refused({ ...good, nrBandwidthMhz: 35 }, 400, /^35 MHz is not an NR channel bandwidth with 30 kHz SCS/);
    await refused({ ...good, lteCarriers: { L800: 1300 } }, 400, /L800/);
    await refused({ ...good, nrArfcn: 700000 }, 400, /nrArfcn/);
    await refused({ ...good, operatorId: MISSING_ID }, 404, /^Operator not found\.$/);
    // Nothing changed by the refusals.
    const after = (await as(admin, { url: '/api/Parameters/GetFrequencyPlans' })).json<FrequencyPlan[]>();
    expect(after.find((p) => p.operatorName === 'MEO')).toMatchObject({ nrArfcn: 628000, nrBandwidthMhz: 60 });

    for (const caller of [callers.CellwiseOS, callers.Manager]) {
      const answer = await save(caller, good);
      expect(answer.statusCode).toBe(403);
    }
  });
});
