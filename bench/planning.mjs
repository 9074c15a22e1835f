// Parameter planning time for one site in a 10,000-cell network: the demo Bulk CM generator writes a
// network of enough sites around Lisbon (~22 cells a site, every technology), the real importer stores
// it in SQLite, then sites spread over the network are planned one by one:
//   (a) the engine alone (planSiteParameters on inputs already in memory),
//   (b) what a run does before writing: read the site and its 10 km surroundings from the database, then plan,
//   (c) (b) plus writing the run's six-sheet workbook.
// Prints the median per site of each (and the slowest site of (b)). Needs the built API (`npm run bench`
// builds it; by hand: flock /tmp/cellwise-build.lock node scripts/build.mjs).
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '..');
const DIST = path.join(ROOT, 'api/dist');
const CELLS = Number(process.env.BENCH_PLANNING_CELLS || 10_000);
const SAMPLE_SITES = Number(process.env.BENCH_PLANNING_SITES || 25);

if (!fs.existsSync(path.join(DIST, 'planning/network.js'))) {
  console.error(`bench/planning: ${DIST}/planning is missing; build the API first (flock /tmp/cellwise-build.lock node scripts/build.mjs).`);
  process.exit(1);
}
const requireApi = createRequire(path.join(ROOT, 'api/package.json'));
const { generateDemoBulkCm } = requireApi('./dist/demo/network/index.js');
const { planSiteParameters } = requireApi('./dist/domain/planning/index.js');
const { importDump } = requireApi('./dist/network/index.js');
const { loadPlanningSurroundings } = requireApi('./dist/planning/network.js');
const { DEMO_FREQUENCY_PLANS, enginePlanOf } = requireApi('./dist/planning/frequency-plans.js');
const { planSheets } = requireApi('./dist/planning/sheets.js');
const { writeRunWorkbook } = requireApi('./dist/runs/index.js');
const { openDatabase } = requireApi('./dist/db/database.js');
const { migrateToLatest } = requireApi('./dist/db/migrate.js');

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};
const total = (counts) => Object.values(counts).reduce((a, b) => a + b, 0);

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cellwise-bench-planning-'));
try {
  // ~21.5–22.4 cells a demo site: enough sites for at least CELLS cells.
  const sites = Math.ceil(CELLS / 21.5);
  const file = path.join(dir, 'network.xml');
  const generated = await generateDemoBulkCm(fs.createWriteStream(file), { sites, seed: 1 });
  const cells = total(generated.counts.cells);
  const handle = openDatabase({ databaseUrl: null, sqliteFile: path.join(dir, 'cellwise.sqlite') });
  try {
    await migrateToLatest(handle.db);
    await importDump(handle.db, fs.createReadStream(file), { fileName: 'network.xml', format: 'bulkcm', coords: generated.coords, importedBy: null });
    console.log(
      `network: ${generated.sites} sites, ${cells.toLocaleString('en-US')} cells (${generated.counts.cells['4G']} LTE, ${generated.counts.cells['5G']} NR), ` +
        `${total(generated.counts.relations).toLocaleString('en-US')} relations`,
    );

    const plan = enginePlanOf({ operatorId: 1, operatorName: 'Vodafone PT', updatedAt: '', ...DEMO_FREQUENCY_PLANS['Vodafone PT'] });
    const step = Math.max(1, Math.floor(generated.sites / SAMPLE_SITES));
    const ids = Array.from({ length: Math.min(SAMPLE_SITES, generated.sites) }, (_, i) => `LX${String(i * step + 1).padStart(4, '0')}`);
    const engine = [];
    const readAndPlan = [];
    const withWorkbook = [];
    let around = 0;
    let slowest = { id: '', ms: 0 };
    // A few sites first, untimed: the first runs pay for compiling the code paths and warming SQLite's cache.
    const WARM_UP = 3;
    const order = [...ids.slice(-WARM_UP), ...ids];
    for (let i = 0; i < order.length; i++) {
      const id = order[i];
      const started = performance.now();
      const s = await loadPlanningSurroundings(handle.db, id);
      const input = {
        site: s.site,
        siteCells: s.siteCells,
        network: s.network,
        definedNeighbours: s.definedNeighbours,
        antenna: 'AIR3227/78',
        lteBands: ['L800', 'L1800', 'L2100'],
        plan,
      };
      const planStarted = performance.now();
      const result = planSiteParameters(input);
      const planned = performance.now();
      const missing = input.lteBands.filter((b) => !result.anchors.some((a) => a.band === b));
      const sheets = planSheets(result, {
        operator: 'Vodafone PT',
        requestedBands: input.lteBands,
        missingBands: missing,
        nrArfcn: DEMO_FREQUENCY_PLANS['Vodafone PT'].nrArfcn,
        nrBandwidthMhz: DEMO_FREQUENCY_PLANS['Vodafone PT'].nrBandwidthMhz,
        runBy: 'bench',
        runDate: new Date(),
      });
      await writeRunWorkbook(path.join(dir, `${id}.xlsx`), sheets);
      const written = performance.now();
      if (i < WARM_UP) continue;
      around += s.network.length;
      engine.push(planned - planStarted);
      readAndPlan.push(planned - started);
      withWorkbook.push(written - started);
      if (planned - started > slowest.ms) slowest = { id, ms: planned - started };
    }
    console.log(`sites planned: ${ids.length} (LTE/NR cells within 10 km of a site: ${Math.round(around / ids.length)} on average)`);
    console.log(`(a) engine alone:                        ${median(engine).toFixed(1)} ms/site (median)`);
    console.log(
      `(b) read surroundings + plan:            ${median(readAndPlan).toFixed(1)} ms/site (median; slowest ${slowest.id} ${slowest.ms.toFixed(1)} ms)`,
    );
    console.log(`(c) (b) + the six-sheet workbook:        ${median(withWorkbook).toFixed(1)} ms/site (median)`);
  } finally {
    await handle.close();
  }
} finally {
  fs.rmSync(dir, { recursive: true, force: true });
}
