// Network dump import throughput: a ~100 MB generated Bulk CM file, tokenised by saxes alone (the
// ceiling: the importer's own tokeniser), parsed and mapped without a database, and imported into
// SQLite through the real importer (parse, map, batched inserts, resolution in SQL, one transaction,
// commit), as the import job runs it. Each import runs in a process of its own, at the full size and at
// half of it, so its peak RSS is its own, and once more at each size with a full GC every 200 ms, whose
// largest heap is what the import holds (whether that grows with the file). The time spent
// inside SQLite (prepare, run, commit) is summed too: the database's share alone bounds the ratio.
// The peer: bench/peers/bulkcm_etree.py, the plain Python xml.etree.iterparse reader an engineer would
// write (every MO kept as a dict), run on the same file alternately with our parse + map when python3
// is present; the ratios are its time over ours ("ours is N× the peer"). Growth: our import at half the
// file (1×) and the whole file (2×). docs/engines/network.md.
// Needs the built API (`npm run bench` builds it; by hand: cd api && npx tsc -p tsconfig.build.json).
import { execFileSync } from 'node:child_process';
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
const { importNetworkDump } = requireApi('./dist/domain/network/index.js');
const { generateDemoBulkCm } = requireApi('./dist/demo/network/index.js');

const PEER = path.join(ROOT, 'bench/peers/bulkcm_etree.py');
const python = (() => {
  try {
    execFileSync('python3', ['--version'], { stdio: 'ignore' });
    return 'python3';
  } catch {
    return null;
  }
})();
if (python && !fs.existsSync(PEER)) {
  console.error(`bench/network-import: python3 is here but the peer script ${PEER} is missing.`);
  process.exit(1);
}

/** One run of the peer script on `file` (a process of its own); its own parse time, interpreter start-up aside. */
function runPeer(file, ...flags) {
  const out = JSON.parse(execFileSync(python, [PEER, ...flags, file], { encoding: 'utf8', maxBuffer: 1 << 20 }).trim());
  return { ms: out.seconds * 1000, mos: out.mos };
}

const HIGH_WATER_MARK = 64 * 1024;
const mb = (bytes) => bytes / 1e6;
const rate = (bytes, ms) => mb(bytes) / (ms / 1000);
const percent = (part, whole) => `${((part / whole) * 100).toFixed(0)} %`;

const cpuMs = (since) => {
  const used = process.cpuUsage(since);
  return (used.user + used.system) / 1000;
};

/** Best of `runs` (wall clock and, separately, CPU time): the machine's noise only ever slows a run down. */
async function best(runs, fn) {
  let fastest = Infinity;
  let leastCpu = Infinity;
  for (let i = 0; i < runs; i++) {
    const cpu = process.cpuUsage();
    const started = performance.now();
    await fn();
    fastest = Math.min(fastest, performance.now() - started);
    leastCpu = Math.min(leastCpu, cpuMs(cpu));
  }
  return { ms: fastest, cpuMs: leastCpu };
}

async function saxOnly(file) {
  const parser = new SaxesParser({ xmlns: false, position: true });
  for await (const chunk of fs.createReadStream(file, { encoding: 'utf8', highWaterMark: HIGH_WATER_MARK })) parser.write(chunk);
  parser.close();
}

async function parseAndMap(file) {
  const nothing = () => {};
  return importNetworkDump(
    fs.createReadStream(file, { highWaterMark: HIGH_WATER_MARK }),
    { site: nothing, node: nothing, cell: nothing, externalCell: nothing, relation: nothing },
    { coords: 'microdegrees', format: 'bulkcm' },
  );
}

/** Sums the time spent inside better-sqlite3 (prepare and every statement run, commit included). */
function timeSqlite() {
  const Database = requireApi('better-sqlite3');
  const spent = { ms: 0 };
  const timed = (fn) =>
    function (...args) {
      const started = performance.now();
      try {
        return fn.apply(this, args);
      } finally {
        spent.ms += performance.now() - started;
      }
    };
  const prepare = Database.prototype.prepare;
  Database.prototype.prepare = function (...args) {
    const started = performance.now();
    const statement = prepare.apply(this, args);
    spent.ms += performance.now() - started;
    for (const name of ['run', 'all', 'get']) statement[name] = timed(statement[name]);
    return statement;
  };
  return spent;
}

/**
 * One import into a fresh SQLite file, in this process; prints one JSON line. With `retained`, a full
 * garbage collection every 200 ms measures what the import holds (peak RSS also counts the garbage V8
 * lets pile up, which grows with a longer run whatever is held); its time is then not the import's.
 */
async function importPhase(file, dir, retained = false) {
  const sqlite = timeSqlite();
  const { importDump } = requireApi('./dist/network/index.js');
  const { openDatabase } = requireApi('./dist/db/database.js');
  const { migrateToLatest } = requireApi('./dist/db/migrate.js');
  const { runInOperator } = requireApi('./dist/db/operator-scope.js');
  const handle = openDatabase({ databaseUrl: null, sqliteFile: path.join(dir, `cellwise-${path.basename(file)}.sqlite`) });
  try {
    await migrateToLatest(handle.db);
    // Engineering data is written inside one operator's scope, as the import job does (docs/tenancy.md).
    // The timed and the retained run of a size share the database file: the operator may be there.
    const operator =
      (await handle.db.selectFrom('operators').select('id').where('name', '=', 'Bench').executeTakeFirst()) ??
      (await handle.db
        .insertInto('operators')
        .values({ name: 'Bench', avatar: null, created_at: new Date().toISOString() })
        .returning('id')
        .executeTakeFirstOrThrow());
    global.gc?.();
    const rssBefore = process.memoryUsage().rss;
    let peak = rssBefore;
    let held = 0;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 50);
    const collector = retained
      ? setInterval(() => {
          global.gc();
          held = Math.max(held, process.memoryUsage().heapUsed);
        }, 200)
      : null;
    sqlite.ms = 0;
    const cpu = process.cpuUsage();
    const started = performance.now();
    const result = await runInOperator(operator.id, () =>
      importDump(handle.db, fs.createReadStream(file, { highWaterMark: HIGH_WATER_MARK }), {
        fileName: path.basename(file),
        coords: 'microdegrees',
        format: 'bulkcm',
      }),
    );
    const ms = performance.now() - started;
    const cpuUsed = cpuMs(cpu);
    clearInterval(sampler);
    if (collector) clearInterval(collector);
    peak = Math.max(peak, process.memoryUsage().rss);
    const relations = Object.values(result.counts.relations).reduce((a, b) => a + b, 0);
    process.stdout.write(`${JSON.stringify({ ms, cpuMs: cpuUsed, sqliteMs: sqlite.ms, peak, rssBefore, held, relations })}\n`);
  } finally {
    await handle.close();
  }
}

if (process.argv[2] === '--phase') {
  await importPhase(process.argv[3], process.argv[4], process.argv[5] === 'retained');
  process.exit(0);
}

const runImport = (file, dir, mode = 'timed') =>
  JSON.parse(
    execFileSync(process.execPath, ['--expose-gc', import.meta.filename, '--phase', file, dir, mode], { encoding: 'utf8', maxBuffer: 1 << 20 })
      .trim()
      .split('\n')
      .pop(),
  );

async function generate(file, sizeMb) {
  const generated = await generateDemoBulkCm(fs.createWriteStream(file), { sizeMb, seed: 1 });
  const relations = Object.values(generated.counts.relations).reduce((a, b) => a + b, 0);
  const cells = Object.values(generated.counts.cells).reduce((a, b) => a + b, 0);
  return { bytes: fs.statSync(file).size, sites: generated.sites, cells, relations };
}

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cellwise-bench-network-'));
try {
  const file = path.join(dir, 'dump.xml');
  const half = path.join(dir, 'dump-half.xml');
  const full = await generate(file, SIZE_MB);
  const small = await generate(half, SIZE_MB / 2);
  const bytes = full.bytes;
  console.log(`dump: ${mb(bytes).toFixed(1)} MB Bulk CM, ${full.sites} sites, ${full.cells} cells, ${full.relations} relations`);

  const sax = await best(2, () => saxOnly(file));
  const saxMs = sax.ms;
  console.log(`(a) saxes tokenising, no building:      ${rate(bytes, saxMs).toFixed(1)} MB/s (${(saxMs / 1000).toFixed(2)} s)`);

  // Ours and the peer alternately, best of three each: a load that comes and goes hits both alike.
  let mapMs = Infinity;
  let peerMs = Infinity;
  let records = 0;
  let peerMos = 0;
  for (let round = 0; round < 3; round++) {
    const started = performance.now();
    records = (await parseAndMap(file)).records;
    mapMs = Math.min(mapMs, performance.now() - started);
    if (python) {
      const peer = runPeer(file);
      peerMs = Math.min(peerMs, peer.ms);
      peerMos = peer.mos;
    }
  }
  console.log(`    parse + map, no database:            ${rate(bytes, mapMs).toFixed(1)} MB/s (${(mapMs / 1000).toFixed(2)} s, ${records} records)`);
  if (python) {
    const floor = runPeer(file, '--events-only');
    console.log(`    peer, xml.etree iterparse + dicts:   ${rate(bytes, peerMs).toFixed(1)} MB/s (${(peerMs / 1000).toFixed(2)} s, ${peerMos} MOs)`);
    console.log(`    (iterparse's events alone, no work:  ${(floor.ms / 1000).toFixed(2)} s: no xml.etree script is faster)`);
  } else {
    console.log('    peer: python3 not found, bench/peers/bulkcm_etree.py not run');
  }

  const imported = runImport(file, dir);
  if (imported.relations !== full.relations) throw new Error(`the import stored ${imported.relations} relations, the generator wrote ${full.relations}`);
  const halfImported = runImport(half, dir);
  if (halfImported.relations !== small.relations)
    throw new Error(`the import stored ${halfImported.relations} relations, the generator wrote ${small.relations}`);

  console.log(`(b) full import into SQLite:             ${rate(bytes, imported.ms).toFixed(1)} MB/s (${(imported.ms / 1000).toFixed(2)} s)`);
  console.log(
    `    of which inside SQLite:              ${(imported.sqliteMs / 1000).toFixed(2)} s (${percent(imported.sqliteMs, imported.ms)} of the import; inserts, resolution, indexes, commit)`,
  );
  const heldFull = runImport(file, dir, 'retained').held;
  const heldHalf = runImport(half, dir, 'retained').held;
  console.log(`    growth, 1× = ${mb(small.bytes).toFixed(0)} MB, 2× = ${mb(bytes).toFixed(0)} MB (each import a process of its own):`);
  console.log(
    `      time:      ${(halfImported.ms / 1000).toFixed(2)} s at 1×, ${(imported.ms / 1000).toFixed(2)} s at 2× (${(imported.ms / halfImported.ms).toFixed(2)}×)`,
  );
  console.log(`      heap held: ${mb(heldHalf).toFixed(0)} MB at 1×, ${mb(heldFull).toFixed(0)} MB at 2× (after a full GC, every 200 ms)`);
  console.log(
    `      peak RSS:  ${mb(halfImported.peak).toFixed(0)} MB at 1×, ${mb(imported.peak).toFixed(0)} MB at 2× (${mb(halfImported.rssBefore).toFixed(0)} / ${mb(imported.rssBefore).toFixed(0)} MB before)`,
  );
  console.log(`(c) SQLite's time alone / saxes:          ${percent(saxMs, imported.sqliteMs)} (no import can beat this on this database)`);
  console.log(
    `    by CPU time (a shared machine's load aside): import ${(imported.cpuMs / 1000).toFixed(2)} s, saxes ${(sax.cpuMs / 1000).toFixed(2)} s: ${percent(sax.cpuMs, imported.cpuMs)}`,
  );
  console.log(`network dump import / saxes tokenise: ${percent(saxMs, imported.ms)} (goal >= 50 %)`);
  if (python) {
    const times = (peer, ours) => `${(peer / ours).toFixed(2)}×`;
    const mark = (ok) => (ok ? 'met' : 'NOT met');
    console.log(`Bulk CM parse + map vs xml.etree script: ours is ${times(peerMs, mapMs)} the peer (goal >= 1.25×: ${mark(peerMs / mapMs >= 1.25)})`);
    console.log(`full import into SQLite vs that script's parse alone: ${times(peerMs, imported.ms)} (goal >= 0.7×: ${mark(peerMs / imported.ms >= 0.7)})`);
  }
} finally {
  fs.rmSync(dir, { recursive: true, force: true });
}
