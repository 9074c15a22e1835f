import { refreshSiteStatuses } from '../src/monitoring/site-statuses';
import { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import type { FaultSummaryPage, OverallSiteSummaryPage, RunResponse, SiteMapResponse, SiteOption, SiteReport } from 'contracts';
import { runInOperator } from '../src/db/operator-scope';
import { importDump } from '../src/network';
import { RANSHARE_MESSAGES } from '../src/validation/ranshare';
import { testApp } from './support/app';
import { TEST_DATABASES, type TestDatabase } from './support/databases';
import { headersOf, setUpCallers, type Caller } from './support/principals';
import { NOS_SHARED_DUMP, VODAFONE_SHARED_DUMP } from './fixtures/ranshare/shared-dumps';
import { nodeRow } from './fixtures/monitoring-queries/rows';

/**
 * Issue 42, RAN sharing: Vodafone PT shares LX0811 and LX0812 with NOS as MORAN (each its own layer)
 * and LX0814 as MOCN (Vodafone PT's one layer). The RAN-share validation checks across both operators'
 * layers and PLMNs from either side, its picker lists the shared sites only, and every site list marks
 * a shared site 'shared with X' without showing anything of a site that is not shared.
 */
describe.each(TEST_DATABASES)('RAN sharing between two operators on $name', (kind) => {
  let database: TestDatabase;
  let app: FastifyInstance;
  /** Manager: Vodafone PT + NOS, switched between them as Settings does. */
  let manager: Caller;
  /** CellwiseHQ: Vodafone PT + MEO, switched to MEO (no share with either). */
  let hq: Caller;
  const ids = { vodafone: 0, nos: 0, meo: 0 };
  type Side = keyof typeof ids;

  beforeAll(async () => {
    database = await kind.open();
    let config;
    ({ app, config } = await testApp(database));
    const callers = await setUpCallers(app, database, config);
    manager = callers.Manager;
    hq = callers.CellwiseHQ;
    for (const [side, name] of [
      ['vodafone', 'Vodafone PT'],
      ['nos', 'NOS'],
      ['meo', 'MEO'],
    ] as const) {
      ids[side] = (await database.db.selectFrom('operators').select('id').where('name', '=', name).executeTakeFirstOrThrow()).id;
    }
    const load = (side: Side, dump: string) =>
      runInOperator(ids[side], () => importDump(database.db, Readable.from([dump]), { fileName: `${side}.txt`, format: 'cmedit', coords: 'microdegrees' }));
    await load('vodafone', VODAFONE_SHARED_DUMP);
    await load('nos', NOS_SHARED_DUMP);
    // The dumps carry no coordinates; the map draws only sites that have them.
    for (const side of ['vodafone', 'nos'] as const) {
      await runInOperator(ids[side], () => database.db.updateTable('network_sites').set({ lat: 38.7, lon: -9.1 }).execute());
    }
    await runInOperator(ids.vodafone, () =>
      database.db
        .insertInto('network_site_shares')
        .values([
          { site_id: 'LX0811', partner_operator_id: ids.nos, mode: 'MORAN' },
          { site_id: 'LX0812', partner_operator_id: ids.nos, mode: 'MORAN' },
          { site_id: 'LX0814', partner_operator_id: ids.nos, mode: 'MOCN' },
        ])
        .execute(),
    );
    // NOS's logs name Vodafone PT's MOCN node (not in NOS's inventory) and the node of a Vodafone PT site not shared.
    await runInOperator(ids.nos, () =>
      database.db
        .insertInto('monitoring_nodes')
        .values([nodeRow('LX0814', { site_id: 'LX0814', in_inventory: 0 }), nodeRow('LX0813', { site_id: 'LX0813', in_inventory: 0 })])
        .execute()
        .then(() => refreshSiteStatuses(database.db)),
    );
    await runInOperator(ids.vodafone, () =>
      database.db
        .insertInto('monitoring_nodes')
        .values(nodeRow('LX0811', { site_id: 'LX0811' }))
        .execute()
        .then(() => refreshSiteStatuses(database.db)),
    );
  });
  afterAll(async () => {
    await app.close();
    await database.dispose();
  });

  const switchTo = (caller: Caller, side: Side) => database.db.updateTable('users').set({ operator_id: ids[side] }).where('id', '=', caller.userId!).execute();
  const get = (url: string, caller: Caller = manager) => app.inject({ url: `/api/${url}`, headers: headersOf(caller) });
  const ranShare = (site: string, caller: Caller = manager) => get(`Validation/RunRanShareNbrRelationsValidation?site=${site}&userId=${caller.userId}`, caller);

  it("the fixture: each operator's nodes on the shared sites are its own, on the owner's site ids", async () => {
    const sitesOf = (side: Side) =>
      runInOperator(ids[side], async () =>
        (await database.db.selectFrom('network_sites').select('id').where('operator_id', '=', ids[side]).orderBy('id').execute()).map((s) => s.id),
      );
    expect(await sitesOf('vodafone')).toEqual(['LX0811', 'LX0812', 'LX0813', 'LX0814']);
    expect(await sitesOf('nos')).toEqual(['LX0811', 'LX0812', 'PO0811']);
  });

  describe('RAN-share validation across both layers', () => {
    it("as the owner, MORAN: NOS's layer is read and its missing mirror relation found; its relation to its own unshared site is left out", async () => {
      await switchTo(manager, 'vodafone');
      const res = await ranShare('LX0811');
      expect(res.statusCode).toBe(200);
      const answer = res.json<RunResponse>();
      expect(answer.message).toBe(
        'RAN-share validation of LX0811 (MORAN, Vodafone PT shared with NOS): MORAN 0 OK, 1 MISSING; 1 relation of the other operator to sites not shared left out.',
      );
      expect(answer.preview.rows).toEqual([
        {
          plmn: '268-03',
          operator: 'NOS',
          hostSource: 'LX0811_L800_1',
          hostTarget: 'LX0812_L800_1',
          source: 'NOS_LX0811_L800_1',
          expectedTarget: 'NOS_LX0812_L800_1',
          verdict: 'MISSING',
          reason: 'LX0811_L800_1 → LX0812_L800_1 exists on the host layer, NOS_LX0811_L800_1 → NOS_LX0812_L800_1 is missing for 268-03',
        },
      ]);
      expect(JSON.stringify(answer)).not.toContain('PO0811');
      const ok = (await ranShare('LX0812')).json<RunResponse>();
      expect(ok.message).toBe('RAN-share validation of LX0812 (MORAN, Vodafone PT shared with NOS): MORAN 1 OK.');
    });

    it('as the partner, MORAN: the same verdicts, the owner layer read in its scope', async () => {
      await switchTo(manager, 'nos');
      const answer = (await ranShare('LX0811')).json<RunResponse>();
      // From NOS's side its own relation to PO0811 is its own data: nothing of Vodafone PT is left out here.
      expect(answer.message).toBe('RAN-share validation of LX0811 (MORAN, Vodafone PT shared with NOS): MORAN 0 OK, 1 MISSING.');
      expect(answer.preview.rows.map((r) => [r.hostSource, r.source, r.expectedTarget, r.verdict])).toEqual([
        ['LX0811_L800_1', 'NOS_LX0811_L800_1', 'NOS_LX0812_L800_1', 'MISSING'],
      ]);
      // The run is NOS's: its history has it, Vodafone PT's does not.
      const nosHistory = await get('Validation/GetRanShareValidationHistory?size=100');
      expect(nosHistory.json<{ rows: Array<{ id: number }> }>().rows.map((r) => r.id)).toContain(answer.runId);
      await switchTo(manager, 'vodafone');
      const vfHistory = await get('Validation/GetRanShareValidationHistory?size=100');
      expect(vfHistory.json<{ rows: Array<{ id: number }> }>().rows.map((r) => r.id)).not.toContain(answer.runId);
    });

    it("MOCN as the owner: a cell not broadcasting NOS's PLMN, a target missing it, its own unshared neighbour judged", async () => {
      await switchTo(manager, 'vodafone');
      const answer = (await ranShare('LX0814')).json<RunResponse>();
      expect(answer.message).toBe('RAN-share validation of LX0814 (MOCN, Vodafone PT shared with NOS): MOCN 0 OK, 3 MISSING_PLMN.');
      expect(answer.preview.rows.map((r) => [r.source, r.target, r.verdict, r.missingOperators])).toEqual([
        ['LX0814_L800_2', null, 'MISSING_PLMN', 'NOS'],
        ['LX0814_L800_1', 'LX0814_L800_2', 'MISSING_PLMN', 'NOS'],
        ['LX0814_L800_1', 'LX0813_L800_1', 'MISSING_PLMN', 'NOS'],
      ]);
      expect(answer.preview.rows[0]!.reason).toBe('LX0814_L800_2 does not broadcast 268-03 (NOS), with whom the site is shared (MOCN)');
    });

    it("MOCN as the partner: the owner's one layer and both PLMNs, its relation to a Vodafone PT site not shared left out and not named", async () => {
      await switchTo(manager, 'nos');
      const answer = (await ranShare('LX0814')).json<RunResponse>();
      expect(answer.message).toBe(
        'RAN-share validation of LX0814 (MOCN, Vodafone PT shared with NOS): MOCN 0 OK, 2 MISSING_PLMN; 1 relation of the other operator to sites not shared left out.',
      );
      expect(answer.preview.rows.map((r) => [r.source, r.target, r.verdict])).toEqual([
        ['LX0814_L800_2', null, 'MISSING_PLMN'],
        ['LX0814_L800_1', 'LX0814_L800_2', 'MISSING_PLMN'],
      ]);
      expect(answer.summary).toContainEqual({ label: 'Relations to sites not shared (left out)', count: 1, tone: 'info' });
      expect(JSON.stringify(answer)).not.toContain('LX0813');
    });

    it("refuses a site not shared (599): its own unshared site, the other operator's unshared site (404: not seen), and a site shared with neither for MEO", async () => {
      await switchTo(manager, 'vodafone');
      expect([(await ranShare('LX0813')).statusCode, (await ranShare('LX0813')).json()]).toEqual([599, { message: RANSHARE_MESSAGES.notShared('LX0813') }]);
      expect((await ranShare('PO0811')).statusCode).toBe(404);
      await switchTo(manager, 'nos');
      expect((await ranShare('LX0813')).statusCode).toBe(404);
      await switchTo(hq, 'meo');
      expect((await ranShare('LX0811', hq)).statusCode).toBe(404);
      await switchTo(hq, 'vodafone');
    });

    it('the picker lists shared sites only, to both parties, filtered by the typed text; nothing to MEO', async () => {
      const picker = async (caller: Caller, query = '') =>
        (await get(`Validation/GetRanShareSites?query=${encodeURIComponent(query)}`, caller)).json<SiteOption[]>();
      await switchTo(manager, 'vodafone');
      expect(await picker(manager)).toEqual([
        { value: 'LX0811', text: 'LX0811 – Partilhado Norte' },
        { value: 'LX0812', text: 'LX0812 – Partilhado Sul' },
        { value: 'LX0814', text: 'LX0814 – MOCN Centro' },
      ]);
      expect(await picker(manager, 'mocn')).toEqual([{ value: 'LX0814', text: 'LX0814 – MOCN Centro' }]);
      await switchTo(manager, 'nos');
      // NOS's own names for its layer sites, Vodafone PT's for the MOCN site it has no row of.
      expect(await picker(manager)).toEqual([
        { value: 'LX0811', text: 'LX0811 – NOS Partilhado Norte' },
        { value: 'LX0812', text: 'LX0812 – NOS Partilhado Sul' },
        { value: 'LX0814', text: 'LX0814 – MOCN Centro' },
      ]);
      await switchTo(hq, 'meo');
      expect(await picker(hq)).toEqual([]);
      await switchTo(hq, 'vodafone');
      expect((await get('Validation/GetRanShareSites?query=x&extra=1')).statusCode).toBe(400);
    });
  });

  describe("'shared with X' wherever sites are listed", () => {
    it('the site map: each party sees the other named, a site not shared carries nothing and the partner never sees it', async () => {
      const mapOf = async (caller: Caller = manager) => {
        const res = await get('Monitoring/GetSiteMap', caller);
        expect(res.statusCode).toBe(200);
        return new Map(res.json<SiteMapResponse>().sites.map((s) => [s.id, [s.name, s.sharedWith, s.shareMode]]));
      };
      await switchTo(manager, 'vodafone');
      expect(await mapOf()).toEqual(
        new Map([
          ['LX0811', ['Partilhado Norte', 'NOS', 'MORAN']],
          ['LX0812', ['Partilhado Sul', 'NOS', 'MORAN']],
          ['LX0813', ['Segredo VF', null, null]],
          ['LX0814', ['MOCN Centro', 'NOS', 'MOCN']],
        ]),
      );
      await switchTo(manager, 'nos');
      // One row per site id, NOS's own name first; Vodafone PT's LX0813 is not shared and not there.
      expect(await mapOf()).toEqual(
        new Map([
          ['LX0811', ['NOS Partilhado Norte', 'Vodafone PT', 'MORAN']],
          ['LX0812', ['NOS Partilhado Sul', 'Vodafone PT', 'MORAN']],
          ['LX0814', ['MOCN Centro', 'Vodafone PT', 'MOCN']],
          ['PO0811', ['Segredo NOS', null, null]],
        ]),
      );
      await switchTo(hq, 'meo');
      expect((await mapOf(hq)).size).toBe(0);
      await switchTo(hq, 'vodafone');
    });

    it('the overall site summary: the shared site named and marked for the partner, one row each; a site not shared unnamed and unmarked', async () => {
      await switchTo(manager, 'nos');
      const page = (await get('Monitoring/GetOverallSiteSummary?size=100')).json<OverallSiteSummaryPage>();
      expect(page.rows.map((r) => [r.siteId, r.siteName, r.sharedWith, r.shareMode])).toEqual([
        ['LX0813', null, null, null],
        ['LX0814', 'MOCN Centro', 'Vodafone PT', 'MOCN'],
      ]);
      const faults = (await get('Monitoring/GetFaultManagementSummary?size=100')).json<FaultSummaryPage>();
      expect(faults.rows.map((r) => [r.nodeName, r.siteName])).toEqual([
        ['LX0813', null],
        ['LX0814', 'MOCN Centro'],
      ]);
      // Sorting and filtering on the name reach the shared one too.
      const filtered = (
        await get(`Monitoring/GetOverallSiteSummary?size=100&filters=${encodeURIComponent(JSON.stringify({ siteName: 'centro' }))}`)
      ).json<OverallSiteSummaryPage>();
      expect(filtered.rows.map((r) => r.siteId)).toEqual(['LX0814']);
      await switchTo(manager, 'vodafone');
      const own = (await get('Monitoring/GetOverallSiteSummary?size=100')).json<OverallSiteSummaryPage>();
      expect(own.rows.map((r) => [r.siteId, r.siteName, r.sharedWith, r.shareMode])).toEqual([['LX0811', 'Partilhado Norte', 'NOS', 'MORAN']]);
    });

    it('the site report header: shared with the other party, from either side; nothing for a site not shared', async () => {
      const report = async (siteId: string) => {
        const res = await get(`Monitoring/GetSiteReport?siteId=${siteId}`);
        return res.statusCode === 200
          ? (({ siteId: id, siteName, sharedWith, shareMode }: SiteReport) => ({ id, siteName, sharedWith, shareMode }))(res.json<SiteReport>())
          : res.statusCode;
      };
      await switchTo(manager, 'vodafone');
      expect(await report('LX0811')).toEqual({ id: 'LX0811', siteName: 'Partilhado Norte', sharedWith: 'NOS', shareMode: 'MORAN' });
      expect(await report('LX0813')).toEqual({ id: 'LX0813', siteName: 'Segredo VF', sharedWith: null, shareMode: null });
      await switchTo(manager, 'nos');
      expect(await report('LX0811')).toEqual({ id: 'LX0811', siteName: 'NOS Partilhado Norte', sharedWith: 'Vodafone PT', shareMode: 'MORAN' });
      expect(await report('LX0814')).toEqual({ id: 'LX0814', siteName: 'MOCN Centro', sharedWith: 'Vodafone PT', shareMode: 'MOCN' });
      // NOS's log of LX0813 is its own; Vodafone PT's site of that id is not shared: no name, no mark.
      expect(await report('LX0813')).toEqual({ id: 'LX0813', siteName: null, sharedWith: null, shareMode: null });
      await switchTo(hq, 'meo');
      expect(await (async () => (await get('Monitoring/GetSiteReport?siteId=LX0811', hq)).statusCode)()).toBe(404);
      await switchTo(hq, 'vodafone');
    });
  });
});
