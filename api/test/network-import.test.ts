import fs from 'node:fs';
import { Readable } from 'node:stream';
import { sql } from 'kysely';
import {
  compileSiteRule,
  emptyCounts,
  importNetworkDump,
  NetworkOptionError,
  NetworkParseError,
  type Cell,
  type CoordinateEncoding,
  type ExternalCell,
  type NetworkCounts,
  type NetworkNode,
  type Relation,
  type SiteRule,
} from '../src/domain/network';
import {
  countStored,
  findSiteOptions,
  getNetworkSummary,
  importDemoNetworkIfEmpty,
  importDump,
  lastImportDate,
  NetworkImportError,
  type ImportFormat,
} from '../src/network';
import { runInOperator } from '../src/db/operator-scope';
import { loadSiteNetwork } from '../src/network/scope';
import { loadPlanningSurroundings } from '../src/planning/network';
import { TEST_DATABASES, type TestDatabase } from './support/databases';
import { TEST_OPERATOR_ID } from './support/operator';
import { bodastage, demoFile, domainFixture, fixture, RESOLUTION, removeTempDirs, tempDir, TYPE_PREFIXED_SITES } from './fixtures/network-import/dumps';

function counts(patch: {
  sites: number;
  nodes: number;
  cells?: Partial<NetworkCounts['cells']>;
  externalCells?: Partial<NetworkCounts['externalCells']>;
  relations?: Partial<NetworkCounts['relations']>;
}): NetworkCounts {
  const c = emptyCounts();
  return {
    sites: patch.sites,
    nodes: patch.nodes,
    cells: { ...c.cells, ...patch.cells },
    externalCells: { ...c.externalCells, ...patch.externalCells },
    relations: { ...c.relations, ...patch.relations },
  };
}

const RESOLUTION_COUNTS = counts({
  sites: 3,
  nodes: 3,
  cells: { '3G': 2, '4G': 3, '5G': 1 },
  externalCells: { '4G': 2 },
  relations: { 'UTRAN-UTRAN': 1, 'LTE-LTE': 4, 'LTE-NR': 1 },
});

describe.each(TEST_DATABASES)('network import on $name', (kind) => {
  let database: TestDatabase;

  beforeAll(async () => {
    database = await kind.open();
  });
  afterAll(async () => {
    await database.dispose();
    removeTempDirs();
  });

  const importFile = (file: string, options: { format?: ImportFormat; coords?: CoordinateEncoding; batchSize?: number; siteRule?: SiteRule } = {}) =>
    importDump(database.db, fs.createReadStream(file, { highWaterMark: 4096 }), {
      fileName: file.split('/').pop() ?? file,
      coords: 'microdegrees',
      ...options,
    });

  /** Everything stored, to prove a failed import changed nothing at all (not just the counts). */
  async function snapshot(): Promise<unknown> {
    const db = database.db;
    return {
      sites: await db.selectFrom('network_sites').selectAll().orderBy('id').execute(),
      nodes: await db.selectFrom('network_nodes').selectAll().orderBy('name').execute(),
      cells: await db.selectFrom('network_cells').selectAll().orderBy('dn').execute(),
      altDns: await db.selectFrom('network_cell_alt_dns').selectAll().orderBy('alt_dn').execute(),
      externals: await db.selectFrom('network_external_cells').selectAll().orderBy('dn').execute(),
      relations: await db.selectFrom('network_relations').selectAll().orderBy('id').execute(),
      imports: await db.selectFrom('network_imports').selectAll().orderBy('id').execute(),
    };
  }

  describe('the bodastage samples', () => {
    test('bulkcm.xml: one LTE cell and a 3G external cell, stored as mapped', async () => {
      const result = await importFile(bodastage('bulkcm.xml'));
      expect(result.counts).toEqual(counts({ sites: 1, nodes: 1, cells: { '4G': 1 }, externalCells: { '3G': 1 } }));
      expect(await database.db.selectFrom('network_sites').selectAll().execute()).toEqual([
        { id: '4698', name: 'Some Element Name', lat: null, lon: null, operator_id: TEST_OPERATOR_ID },
      ]);
      expect(await database.db.selectFrom('network_nodes').selectAll().execute()).toEqual([
        {
          name: '4698',
          dn: 'SubNetwork=BS_NRM_ROOT,SubNetwork=101,MeContext=4698',
          site_id: '4698',
          technology: '4G',
          type: 'SDR',
          operator_id: TEST_OPERATOR_ID,
        },
      ]);
      const cell = await database.db.selectFrom('network_cells').selectAll().executeTakeFirstOrThrow();
      expect(cell).toMatchObject({ name: 'Q0001', node_name: '4698', site_id: '4698', tech: '4G', tac: 9, plmns: '', global_id: null });
      expect(Number(cell.cell_id)).toBe(1);
      const external = await database.db.selectFrom('network_external_cells').selectAll().executeTakeFirstOrThrow();
      expect(external).toMatchObject({
        name: 'xxxxxx',
        kind: '3G',
        psc: 283,
        channel: 10738,
        band: 'U2100',
        lac: 17734,
        plmn: '214-01',
        global_id: '214-01-134-6551',
      });
      expect([Number(external.owner_id), Number(external.cell_id), external.real_cell_dn]).toEqual([134, 6551, null]);
    });

    test('bulkcm2.xml replaces the previous data set', async () => {
      await importFile(bodastage('bulkcm.xml'));
      const result = await importFile(bodastage('bulkcm2.xml'));
      expect(result.counts).toEqual(counts({ sites: 1, nodes: 1, cells: { '4G': 2 } }));
      const cells = await database.db.selectFrom('network_cells').select(['name', 'cell_id']).orderBy('name').execute();
      expect(cells.map((c) => [c.name, Number(c.cell_id)])).toEqual([
        ['Q0001', 1001],
        ['Q0002', 1002],
      ]);
      expect(await database.db.selectFrom('network_external_cells').selectAll().execute()).toEqual([]);
    });

    test('bulkcm_parent_child_same_name.xml: a node without cells', async () => {
      const result = await importFile(bodastage('bulkcm_parent_child_same_name.xml'));
      expect(result.counts).toEqual(counts({ sites: 1, nodes: 1 }));
      expect(await database.db.selectFrom('network_nodes').select(['name', 'technology']).execute()).toEqual([{ name: '4698', technology: null }]);
    });
  });

  describe('a generated demo network', () => {
    test('the stored rows are exactly what the generator wrote, in several batches', async () => {
      const { file, summary } = await demoFile({ sites: 25, seed: 5 });
      // More relations than one batch holds, or the batching would not be exercised.
      expect(Object.values(summary.counts.relations).reduce((a, b) => a + b, 0)).toBeGreaterThan(1500);
      const result = await importFile(file);
      expect(result.counts).toEqual(summary.counts);
      expect(await countStored(database.db)).toEqual(summary.counts);
      expect(result.bytes).toBe(summary.bytes);

      // The demo's neighbours are all inside the dump: nearly every relation finds its cell.
      const resolved = await database.db
        .selectFrom('network_relations')
        .select((eb) => [eb.fn.countAll<number | string>().as('all'), eb.fn.count<number | string>('target_cell_dn').as('resolved')])
        .executeTakeFirstOrThrow();
      expect(Number(resolved.resolved)).toBeGreaterThan(Number(resolved.all) * 0.9);
      const ids = await database.db.selectFrom('network_relations').select('id').orderBy('id').execute();
      expect(ids.map((r) => r.id)).toEqual(ids.map((_, i) => i + 1));

      const site = await database.db.selectFrom('network_sites').selectAll().orderBy('id').executeTakeFirstOrThrow();
      expect(site.lat).toBeGreaterThan(38.6);
      expect(site.lon).toBeLessThan(-9);
    });

    test('every stored row holds exactly the entity the mapper handed over, column by column', async () => {
      const { file } = await demoFile({ sites: 12, seed: 9 });
      const got = { cells: [] as Cell[], externals: [] as ExternalCell[], relations: [] as Relation[], nodes: [] as NetworkNode[] };
      await importNetworkDump(
        fs.createReadStream(file),
        {
          site: () => undefined,
          node: (n) => void got.nodes.push(n),
          cell: (c) => void got.cells.push(c),
          externalCell: (e) => void got.externals.push(e),
          relation: (r) => void got.relations.push(r),
        },
        { coords: 'microdegrees' },
      );
      // Small batches: full batches, remainders and the final flush all write rows.
      await importFile(file, { batchSize: 7 });
      const db = database.db;
      // pg answers bigint columns as text; the values compared are numbers.
      const num = (v: unknown) => (v === null ? null : Number(v));
      // Sorted here, not by the database: PostgreSQL's collation orders '_' and case differently.
      const by =
        <T>(key: (x: T) => string) =>
        (a: T, b: T) =>
          key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0;

      const cells = (await db.selectFrom('network_cells').selectAll().execute()).sort(by((r) => r.dn));
      const expectedCells = [...got.cells].sort(by((c) => c.dn));
      expect(
        cells.map((r) => ({ ...r, cell_id: num(r.cell_id), local_cell_id: num(r.local_cell_id), owner_id: num(r.owner_id), azimuth: num(r.azimuth) })),
      ).toEqual(
        expectedCells.map((c) => ({
          dn: c.dn,
          name: c.name,
          node_name: c.nodeName,
          site_id: c.siteId,
          tech: c.tech,
          band: c.band,
          channel: c.channel,
          pci: c.pci,
          psc: c.psc,
          bsic: c.bsic,
          lac: c.lac,
          tac: c.tac,
          nr_tac: c.nrTac,
          azimuth: c.azimuth,
          cpich_power: c.cpichPower,
          max_tx_power: c.maxTxPower,
          plmns: c.plmns.join(','),
          rach_root_sequence: c.rachRootSequence,
          ssb: c.ssb,
          cell_id: c.cellId,
          local_cell_id: c.localCellId,
          owner_id: c.ownerId,
          global_id: c.globalId,
          operator_id: TEST_OPERATOR_ID,
        })),
      );
      const altDns = (await db.selectFrom('network_cell_alt_dns').selectAll().execute()).sort(by((r) => r.alt_dn));
      expect(altDns).toEqual(
        got.cells.flatMap((c) => c.altDns.map((alt) => ({ alt_dn: alt, cell_dn: c.dn, operator_id: TEST_OPERATOR_ID }))).sort(by((r) => r.alt_dn)),
      );

      const externals = (await db.selectFrom('network_external_cells').selectAll().execute()).sort(by((r) => r.dn));
      expect(externals.map(({ real_cell_dn: _real, ...r }) => ({ ...r, owner_id: num(r.owner_id), cell_id: num(r.cell_id) }))).toEqual(
        [...got.externals].sort(by((e) => e.dn)).map((e) => ({
          dn: e.dn,
          name: e.name,
          kind: e.kind,
          node_name: e.nodeName,
          pci: e.pci,
          psc: e.psc,
          bsic: e.bsic,
          channel: e.channel,
          band: e.band,
          tac: e.tac,
          lac: e.lac,
          plmn: e.plmn,
          owner_id: e.ownerId,
          cell_id: e.cellId,
          global_id: e.globalId,
          operator_id: TEST_OPERATOR_ID,
        })),
      );

      const relations = await db.selectFrom('network_relations').selectAll().orderBy('id').execute();
      expect(relations.map(({ target_cell_dn: _cell, target_external_dn: _external, ...r }) => r)).toEqual(
        got.relations.map((r, i) => ({
          id: i + 1,
          dn: r.dn,
          name: r.name,
          node_name: r.nodeName,
          kind: r.kind,
          source_cell_dn: r.sourceCellDn,
          target_ref: r.targetRef,
          created_by: r.createdBy,
          is_remove_allowed: r.isRemoveAllowed ? 1 : 0,
          is_ho_allowed: r.isHoAllowed ? 1 : 0,
          operator_id: TEST_OPERATOR_ID,
        })),
      );
      const nodes = (await db.selectFrom('network_nodes').selectAll().execute()).sort(by((r) => r.name));
      expect(nodes).toEqual(
        [...got.nodes]
          .sort(by((n) => n.name))
          .map((n) => ({ name: n.name, dn: n.dn, site_id: n.siteId, technology: n.technology, type: n.type, operator_id: TEST_OPERATOR_ID })),
      );
    });

    test('importDemoNetworkIfEmpty imports once into an empty database, then leaves it alone', async () => {
      await database.db.deleteFrom('network_imports').execute();
      const dataDir = tempDir();
      const first = await importDemoNetworkIfEmpty(database.db, { dataDir, sites: 8, seed: 3 });
      expect(first).not.toBeNull();
      expect(first?.file).toBe(`${dataDir}/demo/demo-network.xml`);
      expect(first?.summary.sites).toBe(8);
      expect(first?.counts).toEqual(first?.summary.counts);
      expect(await countStored(database.db)).toEqual(first?.summary.counts);
      expect(fs.statSync(`${dataDir}/demo/demo-network.xml`).size).toBe(first?.summary.bytes);
      expect(fs.readdirSync(`${dataDir}/demo`)).toEqual(['demo-network.xml']);
      expect(await lastImportDate(database.db)).toBe(first?.importedAt);

      const imports = await database.db.selectFrom('network_imports').selectAll().execute();
      expect(imports).toHaveLength(1);
      expect(imports[0]).toMatchObject({ file_name: 'demo-network.xml', format: 'bulkcm', coords: 'microdegrees', imported_by: null });
      expect(JSON.parse(imports[0]?.counts_json ?? '')).toEqual(first?.summary.counts);

      const again = await importDemoNetworkIfEmpty(database.db, { dataDir: tempDir(), sites: 3 });
      expect(again).toBeNull();
      expect(await database.db.selectFrom('network_imports').selectAll().execute()).toHaveLength(1);
    });
  });

  describe('sites of type-prefixed node names (ERBS_12345_SOMEWHERE_K)', () => {
    const stored = async () => ({
      sites: await database.db.selectFrom('network_sites').selectAll().orderBy('id').execute(),
      nodes: Object.fromEntries((await database.db.selectFrom('network_nodes').select(['name', 'site_id']).execute()).map((n) => [n.name, n.site_id])),
      cells: Object.fromEntries((await database.db.selectFrom('network_cells').select(['name', 'site_id']).execute()).map((c) => [c.name, c.site_id])),
    });

    test('cmedit: one site per number, each with its own position; its 2G/3G/4G/5G nodes and cells on it', async () => {
      const result = await importFile(domainFixture('type-prefixed-nodes.txt'));
      expect(await stored()).toEqual({
        sites: [
          { id: '12345', name: 'Somewhere', lat: 38.71, lon: -9.14, operator_id: TEST_OPERATOR_ID },
          { id: '12346', name: 'Elsewhere', lat: 41.15, lon: -8.61, operator_id: TEST_OPERATOR_ID },
        ],
        nodes: {
          MSRBS_V2_12345_SOMEWHERE_G: '12345',
          ERBS_12345_SOMEWHERE_K: '12345',
          NR_12345_SOMEWHERE: '12345',
          RBS_12345_SOMEWHERE_W: '12345',
          ERBS_12346_ELSEWHERE_K: '12346',
          RBS_12346_ELSEWHERE_W: '12346',
          RNC01: null,
        },
        cells: { '12345G1': '12345', '12345K1': '12345', '12345N1': '12345', '12345W1': '12345', '12346K1': '12346', '12346W1': '12346' },
      });
      expect(result.sites).toEqual(TYPE_PREFIXED_SITES);
      expect(result.warnings).toEqual([]);
    });

    test('Bulk CM: the same', async () => {
      const result = await importFile(domainFixture('type-prefixed-nodes.xml'));
      const { sites, nodes } = await stored();
      expect(sites.map((s) => [s.id, s.lat, s.lon])).toEqual([
        ['12345', 38.71, -9.14],
        ['12346', 41.15, -8.61],
      ]);
      expect(nodes).toEqual({ ERBS_12345_SOMEWHERE_K: '12345', RBS_12345_SOMEWHERE_W: '12345', ERBS_12346_ELSEWHERE_K: '12346' });
      expect(result.sites.largest).toEqual([
        { siteId: '12345', nodes: 2 },
        { siteId: '12346', nodes: 1 },
      ]);
    });

    test('another rule: what it does not match is its own site, counted and shown', async () => {
      const result = await importFile(domainFixture('type-prefixed-nodes.txt'), { siteRule: compileSiteRule('^ERBS_(?<site>\\d+)') });
      expect(result.counts.sites).toBe(8);
      expect(result.sites.unmatched).toEqual({
        count: 6,
        examples: ['MSRBS_V2_12345_SOMEWHERE_G', 'NR_12345_SOMEWHERE', '12345W1', '12346W1', 'RBS_12345_SOMEWHERE_W'],
      });
      expect(result.warnings).toEqual([
        '6 names did not match the site rule and became site ids whole (MSRBS_V2_12345_SOMEWHERE_G, NR_12345_SOMEWHERE, 12345W1, 12346W1, RBS_12345_SOMEWHERE_W, …).',
      ]);
    });
  });

  describe('relation and external cell resolution', () => {
    test.each([500, 1])('targets resolve to cells, NR DU DNs and external cells (batch size %i)', async (batchSize) => {
      const result = await importFile(fixture(RESOLUTION.file), { batchSize });
      expect(result.counts).toEqual(RESOLUTION_COUNTS);

      const relations = await database.db
        .selectFrom('network_relations')
        .select(['name', 'kind', 'source_cell_dn', 'target_cell_dn', 'target_external_dn', 'created_by', 'is_remove_allowed', 'is_ho_allowed'])
        .orderBy('id')
        .execute();
      const l800 = RESOLUTION.lteCell('LX0950', 'LX0950_L800_1');
      expect(relations).toEqual([
        {
          name: 'LX0952_U2100F1_1',
          kind: 'UTRAN-UTRAN',
          source_cell_dn: RESOLUTION.rncCell('LX0950_U2100F1_1'),
          target_cell_dn: RESOLUTION.rncCell('LX0952_U2100F1_1'),
          target_external_dn: null,
          created_by: 'OPERATOR',
          is_remove_allowed: 1,
          is_ho_allowed: 1,
        },
        // Named before its node appears in the file: resolved once everything is in.
        {
          name: 'direct',
          kind: 'LTE-LTE',
          source_cell_dn: l800,
          target_cell_dn: RESOLUTION.lteCell('LX0951', 'LX0951_L800_1'),
          target_external_dn: null,
          created_by: 'ANR',
          is_remove_allowed: 0,
          is_ho_allowed: 1,
        },
        // Through the external cell to the real cell with the same global id.
        {
          name: 'via-external',
          kind: 'LTE-LTE',
          source_cell_dn: l800,
          target_cell_dn: RESOLUTION.lteCell('LX0951', 'LX0951_L800_2'),
          target_external_dn: RESOLUTION.external('26801-951', '26801-951-12'),
          created_by: 'X2',
          is_remove_allowed: 1,
          is_ho_allowed: 1,
        },
        // Another operator's cell: only the proxy is known.
        {
          name: 'foreign',
          kind: 'LTE-LTE',
          source_cell_dn: l800,
          target_cell_dn: null,
          target_external_dn: RESOLUTION.external('26803-999', '26803-999-11'),
          created_by: null,
          is_remove_allowed: 1,
          is_ho_allowed: 0,
        },
        {
          name: 'dangling',
          kind: 'LTE-LTE',
          source_cell_dn: l800,
          target_cell_dn: null,
          target_external_dn: null,
          created_by: null,
          is_remove_allowed: 1,
          is_ho_allowed: 1,
        },
        // Pointing at the NRCellDU: resolves to the merged cell, stored under its CU DN.
        {
          name: 'to-du',
          kind: 'LTE-NR',
          source_cell_dn: l800,
          target_cell_dn: RESOLUTION.nrCu,
          target_external_dn: null,
          created_by: null,
          is_remove_allowed: 1,
          is_ho_allowed: 1,
        },
      ]);
      const dangling = await database.db.selectFrom('network_relations').select('target_ref').where('name', '=', 'dangling').executeTakeFirstOrThrow();
      expect(dangling.target_ref).toBe(RESOLUTION.dangling);

      expect(await database.db.selectFrom('network_external_cells').select(['name', 'global_id', 'real_cell_dn']).orderBy('name').execute()).toEqual([
        { name: '26801-951-12', global_id: '268-01-951-12', real_cell_dn: RESOLUTION.lteCell('LX0951', 'LX0951_L800_2') },
        { name: '26803-999-11', global_id: '268-03-999-11', real_cell_dn: null },
      ]);
      expect(await database.db.selectFrom('network_cell_alt_dns').selectAll().execute()).toEqual([
        { alt_dn: RESOLUTION.nrDu, cell_dn: RESOLUTION.nrCu, operator_id: TEST_OPERATOR_ID },
      ]);
    });

    test.each([500, 1])('a site first seen through RNC cells gets the coordinates and name of its node (batch size %i)', async (batchSize) => {
      await importFile(fixture(RESOLUTION.file), { batchSize });
      expect(await database.db.selectFrom('network_sites').selectAll().orderBy('id').execute()).toEqual([
        { id: 'LX0950', name: 'Alfama Norte', lat: 38.711, lon: -9.13, operator_id: TEST_OPERATOR_ID },
        { id: 'LX0951', name: 'Graça', lat: 38.716, lon: -9.131, operator_id: TEST_OPERATOR_ID },
        { id: 'LX0952', name: 'LX0952', lat: null, lon: null, operator_id: TEST_OPERATOR_ID },
      ]);
      const cell = await database.db.selectFrom('network_cells').selectAll().where('name', '=', 'LX0950_L800_1').executeTakeFirstOrThrow();
      expect(cell).toMatchObject({ plmns: '268-01,268-03', pci: 15, channel: 6300, band: 'L800', global_id: '268-01-950-11' });
      const utran = await database.db.selectFrom('network_cells').selectAll().where('name', '=', 'LX0950_U2100F1_1').executeTakeFirstOrThrow();
      expect(utran).toMatchObject({ node_name: 'RNC01', site_id: 'LX0950', tech: '3G', psc: 101, cpich_power: 320, max_tx_power: 430, lac: 1010 });
      expect(await database.db.selectFrom('network_nodes').select(['name', 'site_id']).orderBy('name').execute()).toEqual([
        { name: 'LX0950', site_id: 'LX0950' },
        { name: 'LX0951', site_id: 'LX0951' },
        { name: 'RNC01', site_id: null },
      ]);
    });
  });

  describe('a file that cannot be imported changes nothing', () => {
    let before: unknown;
    beforeAll(async () => {
      await importFile(fixture(RESOLUTION.file), { format: 'cmedit' });
      before = await snapshot();
    });

    test.each([
      ['bad-xml.xml', 'bulkcm'],
      ['truncated.xml', 'auto'],
      ['wrong-root.xml', 'auto'],
      ['unknown-encoding.xml', 'auto'],
      ['cmedit-no-fdn.txt', 'cmedit'],
      ['cmedit-trailer-mismatch.txt', 'auto'],
    ] as const)('%s: the parser error with its line and column, and the previous data set intact', async (name, format) => {
      const error: unknown = await importFile(domainFixture(name), { format }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(NetworkParseError);
      const parseError = error as NetworkParseError;
      expect(parseError.line).toBeGreaterThan(0);
      expect(parseError.column).toBeGreaterThan(0);
      expect(parseError.message).toMatch(/^Line \d+, column \d+: /);
      expect(await snapshot()).toEqual(before);
    });

    test('a file that breaks after many batches were written: everything written is rolled back', async () => {
      const { file, summary } = await demoFile({ sites: 20, seed: 9 });
      const cut = `${file}.cut`;
      fs.writeFileSync(cut, fs.readFileSync(file).subarray(0, Math.floor(summary.bytes * 0.9)));
      const error: unknown = await importFile(cut, { batchSize: 50 }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(NetworkParseError);
      expect((error as NetworkParseError).message).toMatch(/unexpected end of file/);
      expect(await snapshot()).toEqual(before);
    });

    test('bad settings are refused before anything is touched', async () => {
      const coords = await importDump(database.db, Readable.from(['x']), { fileName: 'x', coords: 'furlongs' as CoordinateEncoding }).catch((e: unknown) => e);
      expect(coords).toBeInstanceOf(NetworkOptionError);
      expect((coords as Error).message).toMatch(/unknown coordinate encoding "furlongs"/);
      const format = await importDump(database.db, Readable.from(['x']), { fileName: 'x', format: 'csv' as ImportFormat, coords: 'degrees' }).catch(
        (e: unknown) => e,
      );
      expect(format).toBeInstanceOf(NetworkOptionError);
      expect((format as Error).message).toMatch(/unknown dump format "csv"/);
      expect(await snapshot()).toEqual(before);
    });

    test('a value the database cannot hold is the file’s fault: refused by name, nothing changed', async () => {
      const dump = [
        'FDN : SubNetwork=LRAN,MeContext=LX0001,ManagedElement=LX0001,ENodeBFunction=1',
        'eNBId : 1',
        '',
        'FDN : SubNetwork=LRAN,MeContext=LX0001,ManagedElement=LX0001,ENodeBFunction=1,EUtranCellFDD=LX0001_L800_1',
        'earfcndl : 99999999999',
        '',
      ].join('\n');
      const error: unknown = await importDump(database.db, Readable.from([dump]), { fileName: 'big.txt', coords: 'microdegrees' }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(NetworkImportError);
      expect((error as Error).message).toBe('cell LX0001_L800_1: channel 99999999999 is out of range');
      expect(await snapshot()).toEqual(before);
    });

    test('the input stream is released after a failure', async () => {
      const stream = fs.createReadStream(domainFixture('bad-xml.xml'));
      await expect(importDump(database.db, stream, { fileName: 'bad-xml.xml', coords: 'microdegrees' })).rejects.toThrow(NetworkParseError);
      expect(stream.destroyed).toBe(true);
    });

    test('after a failure the next good file imports normally', async () => {
      const result = await importFile(bodastage('bulkcm2.xml'));
      expect(await countStored(database.db)).toEqual(result.counts);
      expect(result.counts).toEqual(counts({ sites: 1, nodes: 1, cells: { '4G': 2 } }));
    });
  });

  test('the summary counts the stored rows and dates the last import', async () => {
    const first = await importFile(fixture(RESOLUTION.file));
    const second = await importFile(fixture(RESOLUTION.file));
    expect(second.importedAt >= first.importedAt).toBe(true);
    // Rows removed behind the importer's back show up: the summary is not the import record.
    await database.db.deleteFrom('network_relations').where('kind', '=', 'LTE-NR').execute();
    const expected = { ...RESOLUTION_COUNTS, relations: { ...RESOLUTION_COUNTS.relations, 'LTE-NR': 0 } };
    expect(await getNetworkSummary(database.db)).toEqual({ ...expected, importedAt: second.importedAt });
  });

  test('two imports at once: both succeed, one after the other, and the data set is one whole file', async () => {
    const { file } = await demoFile({ sites: 6, seed: 2 });
    const [a, b] = await Promise.all([importFile(file), importFile(fixture(RESOLUTION.file))]);
    const stored = await countStored(database.db);
    expect([a.counts, b.counts]).toContainEqual(stored);
    const last = a.importedAt > b.importedAt ? a : b;
    expect(stored).toEqual(last.counts);
    const sites = (await database.db.selectFrom('network_sites').select('id').orderBy('id').execute()).map((s) => s.id);
    expect(sites.every((id) => id.startsWith('LX09'))).toBe(last === b);
  });

  describe('operators: each its own inventory', () => {
    type Shares = { network_site_shares: { operator_id: number; site_id: string; partner_operator_id: number; mode: string } };
    let other = 0;
    beforeAll(async () => {
      // Site shares name their partner by a real operator (a foreign key): the two operators are made here.
      const existing = await database.db.selectFrom('operators').select('id').orderBy('id').execute();
      for (const name of ['Vodafone PT', 'NOS'].slice(existing.length)) {
        await database.db.insertInto('operators').values({ name, avatar: null, created_at: new Date().toISOString() }).execute();
      }
      const ids = (await database.db.selectFrom('operators').select('id').orderBy('id').execute()).map((o) => o.id);
      expect(ids[0]).toBe(TEST_OPERATOR_ID);
      other = ids[1]!;
    });
    const asOther = <T>(work: () => Promise<T>) => runInOperator(other, work);

    test("an import replaces the importing operator's inventory only; the same keys live in both; each dates its own last import", async () => {
      const mine = await importFile(fixture(RESOLUTION.file), { format: 'cmedit' });
      const before = await snapshot();
      const theirs = await asOther(() => importFile(fixture(RESOLUTION.file), { format: 'cmedit' }));
      expect(theirs.counts).toEqual(RESOLUTION_COUNTS);
      expect(await snapshot()).toEqual(before);
      const replaced = await asOther(() => importFile(bodastage('bulkcm2.xml')));
      expect(await asOther(() => countStored(database.db))).toEqual(counts({ sites: 1, nodes: 1, cells: { '4G': 2 } }));
      expect(await snapshot()).toEqual(before);
      expect(await lastImportDate(database.db)).toBe(mine.importedAt);
      expect(await asOther(() => lastImportDate(database.db))).toBe(replaced.importedAt);
      expect(await countStored(database.db)).toEqual(RESOLUTION_COUNTS);
    });

    test('a site a partner shares is listed once beside the own ones (the own name first), not counted as the operator’s, and adds no planning rows', async () => {
      await importFile(fixture(RESOLUTION.file), { format: 'cmedit' });
      await asOther(async () => {
        await importFile(domainFixture('type-prefixed-nodes.txt'));
        // The partner's record of a site the operator has too, at the same place.
        await database.db.insertInto('network_sites').values({ id: 'LX0950', name: 'Partner name', lat: 38.711, lon: -9.13 }).execute();
        await database.db
          .withTables<Shares>()
          .insertInto('network_site_shares')
          .values([
            { site_id: 'LX0950', partner_operator_id: TEST_OPERATOR_ID, mode: 'MORAN' },
            { site_id: '12345', partner_operator_id: TEST_OPERATOR_ID, mode: 'MOCN' },
          ] as never)
          .execute();
      });
      expect(await findSiteOptions(database.db)).toEqual([
        { value: '12345', text: '12345 – Somewhere' },
        { value: 'LX0950', text: 'LX0950 – Alfama Norte' },
        { value: 'LX0951', text: 'LX0951 – Graça' },
        { value: 'LX0952', text: 'LX0952 – LX0952' },
      ]);
      expect((await countStored(database.db)).sites).toBe(3);
      expect((await asOther(() => findSiteOptions(database.db))).map((o) => o.text)).toEqual([
        '12345 – Somewhere',
        '12346 – Elsewhere',
        'LX0950 – Partner name',
      ]);

      const surroundings = await loadPlanningSurroundings(database.db, 'LX0950');
      expect(surroundings?.site.name).toBe('Alfama Norte');
      const names = surroundings?.network.map((c) => c.name) ?? [];
      expect(names.length).toBeGreaterThan(0);
      expect(new Set(names).size).toBe(names.length);
      expect((await loadSiteNetwork(database.db, 'LX0950')).site?.name).toBe('Alfama Norte');
    });
  });

  if (kind.name === 'sqlite') {
    test('SQLite: the indexes dropped for the bulk load are all back, after success and after failure', async () => {
      const indexes = async () =>
        (
          await sql<{
            name: string;
            sql: string;
          }>`select name, sql from sqlite_master where type = 'index' and tbl_name like 'network_%' order by name`.execute(database.db)
        ).rows;
      const original = await indexes();
      expect(original.map((i) => i.name)).toEqual(
        expect.arrayContaining(['network_cells_global_id_tech', 'network_relations_target_ref', 'network_sites_lower_name']),
      );
      await importFile(fixture(RESOLUTION.file));
      expect(await indexes()).toEqual(original);
      await expect(importFile(domainFixture('truncated.xml'))).rejects.toThrow(NetworkParseError);
      expect(await indexes()).toEqual(original);
    });
  }
});
