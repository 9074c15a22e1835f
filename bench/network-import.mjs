// Network dump import throughput: a ~100 MB generated Bulk CM file, tokenised by saxes alone (the
// ceiling), parsed and mapped without a database, and imported into SQLite through the real importer
// (one transaction, batched inserts, resolution in SQL) with the peak RSS of the process. Needs the
// built API (`npm run bench` builds it; by hand: cd api && npx tsc -p tsconfig.build.json).
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '..');
const DIST = path.join(ROOT, 'api/dist');
const SIZE_MB = Number(process.env.BENCH_DUMP_MB || 100);

if (!fs.existsSync(path.join(DIST, 'network/index.js'))) {
  console.error(`bench/network-import: ${DIST}/network is missing; build the API first (cd api && npx tsc -p tsconfig.build.json).`);
  process.exit(1);
}
const requireApi = createRequire(path.join(ROOT, 'api/package.json'));
const { SaxesParser } = requireApi('saxes');
const { generateDemoBulkCm, importNetworkDump } = requireApi('./dist/domain/network/index.js');
const { importDump } = requireApi('./dist/network/index.js');
const { openDatabase } = requireApi('./dist/db/database.js');
const { migrateToLatest } = requireApi('./dist/db/migrate.js');

const HIGH_WATER_MARK = 64 * 1024;
const mb = (bytes) => bytes / 1e6;
const rate = (bytes, ms) => mb(bytes) / (ms / 1000);

/** Best of `runs`: the machine's noise only ever slows a run down. */
async function best(runs, fn) {
  let fastest = Infinity;
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    await fn();
    fastest = Math.min(fastest, performance.now() - started);
  }
  return fastest;
}

async function saxOnly(file) {
  const parser = new SaxesParser({ xmlns: false, position: true });
  for await (const chunk of fs.createReadStream(file, { encoding: 'utf8', highWaterMark: HIGH_WATER_MARK })) parser.write(chunk);
  parser.close();
}

async function parseAndMap(file) {
  const nothing = () => {};
  await importNetworkDump(
    fs.createReadStream(file, { highWaterMark: HIGH_WATER_MARK }),
    { site: nothing, node: nothing, cell: nothing, externalCell: nothing, relation: nothing },
    { coords: 'microdegrees', format: 'bulkcm' },
  );
}

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cellwise-bench-network-'));
try {
  const file = path.join(dir, 'dump.xml');
  const generated = await generateDemoBulkCm(fs.createWriteStream(file), { sizeMb: SIZE_MB, seed: 1 });
  const bytes = fs.statSync(file).size;
  const relations = Object.values(generated.counts.relations).reduce((a, b) => a + b, 0);
  const cells = Object.values(generated.counts.cells).reduce((a, b) => a + b, 0);
  console.log(`dump: ${mb(bytes).toFixed(1)} MB Bulk CM, ${generated.sites} sites, ${cells} cells, ${relations} relations`);

  const saxMs = await best(2, () => saxOnly(file));
  console.log(`(a) saxes tokenising, no building:      ${rate(bytes, saxMs).toFixed(1)} MB/s`);
  const mapMs = await best(2, () => parseAndMap(file));
  console.log(`    parse + map, no database:            ${rate(bytes, mapMs).toFixed(1)} MB/s`);

  const handle = openDatabase({ databaseUrl: null, sqliteFile: path.join(dir, 'cellwise.sqlite') });
  try {
    await migrateToLatest(handle.db);
    global.gc?.();
    const rssBefore = process.memoryUsage().rss;
    let peak = rssBefore;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 100);
    let result;
    const importMs = await best(1, async () => {
      result = await importDump(handle.db, fs.createReadStream(file, { highWaterMark: HIGH_WATER_MARK }), {
        fileName: 'dump.xml',
        coords: 'microdegrees',
        format: 'bulkcm',
      });
    });
    clearInterval(sampler);
    peak = Math.max(peak, process.memoryUsage().rss);
    const stored = Object.values(result.counts.relations).reduce((a, b) => a + b, 0);
    if (stored !== relations) throw new Error(`the import stored ${stored} relations, the generator wrote ${relations}`);
    console.log(`(b) full import into SQLite:             ${rate(bytes, importMs).toFixed(1)} MB/s (${(importMs / 1000).toFixed(1)} s)`);
    console.log(`    peak RSS during the import:          ${mb(peak).toFixed(0)} MB (${mb(rssBefore).toFixed(0)} MB before it)`);
    console.log(`(c) import / saxes:                      ${((saxMs / importMs) * 100).toFixed(0)} % (goal >= 50 %)`);
  } finally {
    await handle.close();
  }
} finally {
  fs.rmSync(dir, { recursive: true, force: true });
}
