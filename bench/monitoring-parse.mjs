// MoBatch log parse rate (issue 13): a generated ~200 MB (text) log set — the demo log generator scaled
// up to thousands of RadioNodes with long alarm, term point and relation tables — zipped with the
// console's ZipOutput (yazl), then read back in the same run (a) by readArchiveFiles (the reader the parse job
// uses: whole files, one read ahead), decoding and splitting lines (the ceiling: what any parser must
// pay) and (b) by the same reader and the parse job's own call per log: readNodeLog (decode, the real
// AMOS parser with the job's options — only the attributes the tables store are built — and the copy of
// what the job keeps, its repeating texts shared through the parse's KeptStrings) and parseMobatchResult,
// every log's result held to the end as the job holds them until its one save. Prints MB/s of log text
// for both and their ratio (goal >= 50 %), and the heap the held results take; also, for reference, (a')
// the streaming readArchive the parse job used before, (b-) (b) with each result let go at once (what
// holding costs the garbage collector), (b'') the parser alone with the job's options (no copy) and (b')
// the parser alone building every value. Then (d), once, the whole parse job's work on the same archive
// (ingestArchives: read, evaluation, and the one transaction that stores it) into a fresh SQLite
// database, with the time before and after it starts saving.
// Needs the built API (`npm run bench` builds it; by hand: cd api && npx tsc -p tsconfig.build.json).
// BENCH_LOGS_MB sets the size (default 200).
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import v8 from 'node:v8';
import vm from 'node:vm';

const ROOT = path.resolve(import.meta.dirname, '..');
const DIST = path.join(ROOT, 'api/dist');
const SIZE_MB = Number(process.env.BENCH_LOGS_MB || 200);
const RUNS = 3;

if (!fs.existsSync(path.join(DIST, 'demo/logs/index.js'))) {
  console.error(`bench/monitoring-parse: ${DIST}/demo is missing; build the API first (cd api && npx tsc -p tsconfig.build.json).`);
  process.exit(1);
}
const requireApi = createRequire(path.join(ROOT, 'api/package.json'));
const { syntheticLogNodes, writeLogArchive, MOBATCH_RESULT_FILE } = requireApi('./dist/demo/logs/index.js');
const { parseNodeLog, parseMobatchResult } = requireApi('./dist/domain/amos/index.js');
const { readArchive, readArchiveFiles } = requireApi('./dist/files/zip.js');
// The parse job's own options (only the stored attributes are built): (b) parses as the job does.
const { KeptStrings, parseOptionsOf, readNodeLog } = requireApi('./dist/monitoring/log-reading.js');
const { ingestArchives } = requireApi('./dist/monitoring/ingest.js');
const { openDatabase } = requireApi('./dist/db/database.js');
const { migrateToLatest } = requireApi('./dist/db/migrate.js');

v8.setFlagsFromString('--expose-gc');
const collectGarbage = vm.runInNewContext('gc');

/** Rows per node beyond the demo's: what a busy node's log holds (dozens of alarms, X2 peers, relations). */
const SCALE = { alarms: 40, termPoints: 60, relations: 16 };
const NOW = new Date('2025-03-10T09:30:00Z');
const mb = (bytes) => bytes / 1e6;
const rate = (bytes, ms) => mb(bytes) / (ms / 1000);

async function textOf(entry) {
  const chunks = [];
  for await (const chunk of entry.content) chunks.push(chunk);
  return Buffer.concat(chunks).toString('utf8');
}

/** (a) The ceiling: inflate, decode, split into lines. */
async function rawRead(file) {
  let lines = 0;
  let bytes = 0;
  for await (const entry of readArchiveFiles(file)) {
    const text = entry.data.toString('utf8');
    bytes += Buffer.byteLength(text);
    lines += text.split('\n').length;
  }
  return { lines, bytes };
}

/** (a') The same with the streaming reader. */
async function streamedRead(file) {
  let lines = 0;
  let bytes = 0;
  for await (const entry of readArchive(file)) {
    const text = await textOf(entry);
    bytes += Buffer.byteLength(text);
    lines += text.split('\n').length;
  }
  return { lines, bytes };
}

/**
 * (b) Every entry read as the parse job reads it, each log's result held (`held`) as the job holds them
 * until its save; (b-) with `held` null, each let go at once.
 */
async function parseAsTheJob(file, held) {
  let alarms = 0;
  let problems = 0;
  let attributes = 0;
  const strings = new KeptStrings();
  for await (const entry of readArchiveFiles(file)) {
    if (entry.name === MOBATCH_RESULT_FILE) {
      problems += parseMobatchResult(entry.data.toString('utf8'), { archive: 'bench.zip', file: entry.name }).problems.length;
      continue;
    }
    const kept = readNodeLog(entry.data, 'bench.zip', entry.name, {}, strings);
    held?.push(kept);
    alarms += kept.result.alarms.length;
    attributes += kept.result.attributes.length;
    problems += kept.result.problems.length;
  }
  return { alarms, attributes, problems };
}

/** (b'') The parser alone on every entry, with the parse job's options ((b') without them: every value built). */
async function parseAll(file, options = parseOptionsOf()) {
  let alarms = 0;
  let problems = 0;
  let attributes = 0;
  for await (const entry of readArchiveFiles(file)) {
    const text = entry.data.toString('utf8');
    if (entry.name === MOBATCH_RESULT_FILE) {
      problems += parseMobatchResult(text, { archive: 'bench.zip', file: entry.name }).problems.length;
      continue;
    }
    const log = parseNodeLog(text, { archive: 'bench.zip', file: entry.name }, options);
    alarms += log.alarms.length;
    attributes += log.attributes.length;
    problems += log.problems.length;
  }
  return { alarms, attributes, problems };
}

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cellwise-bench-logs-'));
try {
  // A probe sizes one node's log, so the set lands near SIZE_MB (and under readArchive's 10,000 entries).
  const probe = await writeLogArchive(path.join(dir, 'probe.zip'), syntheticLogNodes(20), { seed: 1, now: NOW, scale: SCALE });
  const perNode = probe.textBytes / probe.logs;
  const count = Math.min(9_999, Math.max(2, Math.round((SIZE_MB * 1e6) / perNode)));
  const file = path.join(dir, 'logs.zip');
  const started = performance.now();
  const summary = await writeLogArchive(file, syntheticLogNodes(count), { seed: 1, now: NOW, scale: SCALE });
  const zipBytes = fs.statSync(file).size;
  console.log(
    `log set: ${mb(summary.textBytes).toFixed(1)} MB of text in ${summary.logs.toLocaleString('en-US')} node logs + ${MOBATCH_RESULT_FILE}, ` +
      `${mb(zipBytes).toFixed(1)} MB zipped (written in ${((performance.now() - started) / 1000).toFixed(1)} s)`,
  );

  // Best of RUNS each, alternating, so a slow moment of the machine hurts neither side alone.
  let rawMs = Infinity;
  let streamedMs = Infinity;
  let parseMs = Infinity;
  let unheldMs = Infinity;
  let heldBytes = 0;
  let parserOnlyMs = Infinity;
  let fullMs = Infinity;
  let raw;
  let parsed;
  let full;
  for (let i = 0; i < RUNS; i += 1) {
    let t = performance.now();
    raw = await rawRead(file);
    rawMs = Math.min(rawMs, performance.now() - t);
    t = performance.now();
    await streamedRead(file);
    streamedMs = Math.min(streamedMs, performance.now() - t);
    collectGarbage();
    const heapBefore = process.memoryUsage().heapUsed;
    let held = [];
    t = performance.now();
    parsed = await parseAsTheJob(file, held);
    parseMs = Math.min(parseMs, performance.now() - t);
    collectGarbage();
    heldBytes = process.memoryUsage().heapUsed - heapBefore;
    held = null;
    collectGarbage();
    t = performance.now();
    await parseAsTheJob(file, null);
    unheldMs = Math.min(unheldMs, performance.now() - t);
    t = performance.now();
    await parseAll(file);
    parserOnlyMs = Math.min(parserOnlyMs, performance.now() - t);
    t = performance.now();
    full = await parseAll(file, {});
    fullMs = Math.min(fullMs, performance.now() - t);
  }
  if (raw.bytes !== summary.textBytes) throw new Error(`read ${raw.bytes} bytes of text, the generator wrote ${summary.textBytes}`);
  if (parsed.problems !== 0 || full.problems !== 0) throw new Error(`the parser reported ${parsed.problems} problems on generated logs`);
  console.log(`(a) readArchiveFiles + decode + split lines:  ${rate(raw.bytes, rawMs).toFixed(1)} MB/s (${raw.lines.toLocaleString('en-US')} lines)`);
  console.log(`(a') readArchive (streaming) + decode + split:  ${rate(raw.bytes, streamedMs).toFixed(1)} MB/s`);
  console.log(
    `(b) readArchiveFiles + readNodeLog (the job's): ${rate(raw.bytes, parseMs).toFixed(1)} MB/s ` +
      `(${parsed.alarms.toLocaleString('en-US')} alarms, ${parsed.attributes.toLocaleString('en-US')} attribute values kept; ` +
      `the held results take ${mb(heldBytes).toFixed(0)} MB of heap)`,
  );
  console.log(`(b-) the same, each result let go at once:     ${rate(raw.bytes, unheldMs).toFixed(1)} MB/s`);
  console.log(`(b'') the parser alone (no copy of what is kept): ${rate(raw.bytes, parserOnlyMs).toFixed(1)} MB/s`);
  console.log(
    `(b') the parser alone, every value built:        ${rate(raw.bytes, fullMs).toFixed(1)} MB/s (${full.attributes.toLocaleString('en-US')} attribute values)`,
  );
  console.log(`(c) parse / raw (b / a):                     ${((rawMs / parseMs) * 100).toFixed(0)} % (goal >= 50 %)`);

  // (d) The job's whole work, as a user waits for it: the read above, then evaluation and the save.
  const database = openDatabase({ databaseUrl: null, sqliteFile: path.join(dir, 'bench.sqlite') });
  try {
    await migrateToLatest(database.db);
    let savingAt = null;
    const t = performance.now();
    const report = await ingestArchives(database.db, [{ name: 'logs.zip', file }], {
      parsedBy: null,
      jobId: null,
      progress: (_percent, text) => {
        if (text === 'Saving' && savingAt === null) savingAt = performance.now();
      },
    });
    const totalMs = performance.now() - t;
    const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`;
    console.log(
      `(d) the parse job into SQLite (ingestArchives): ${seconds(totalMs)} for ${report.counts.files.toLocaleString('en-US')} files ` +
        `(read ${seconds(savingAt - t)}, evaluate and save ${seconds(t + totalMs - savingAt)}); ${rate(raw.bytes, totalMs).toFixed(1)} MB/s of log text`,
    );
  } finally {
    await database.close();
  }
} finally {
  fs.rmSync(dir, { recursive: true, force: true });
}
