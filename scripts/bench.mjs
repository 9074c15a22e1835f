// `npm run bench`: production build, then every benchmark in bench/ prints its numbers (bench/load.mjs
// among them: 200 virtual users for 60 s against the built API). `npm run bench -- load hub` runs only
// the benchmarks named; LOAD_SECONDS / LOAD_USERS shorten the load test (e.g. 10 and 20 for a smoke run).
// Throughput benches print their raw baseline next to the real path, measured in the same run:
// network-import (saxes alone vs the importer), tracking (raw exceljs vs import/export) and
// monitoring-parse (unzip + split lines vs unzip + the AMOS parser; BENCH_LOGS_MB, default 200).
// lighthouse scores the login page and a table page (desktop and mobile) in Debian's Chromium.
// fairness: req/s of the heavy lists beside GetUserInfo at 50 connections, then 200 connections of mixed reads
// with a log parse and a plan import running (p50/p99/max, the slowest route; FAIRNESS_* to shorten it).
// site-map draws the site map with 5,000 sites in headless Chromium (BENCH_MAP_SITES to change the count).
import fs from 'node:fs';
import path from 'node:path';
import { ROOT, ensureDependencies, run, step } from './lib.mjs';
import { buildStale } from './build.mjs';

const available = fs
  .readdirSync(path.join(ROOT, 'bench'))
  .filter((f) => f.endsWith('.mjs'))
  .sort();
const named = process.argv.slice(2).map((name) => name.replace(/\.mjs$/, '') + '.mjs');
const unknown = named.filter((name) => !available.includes(name));
if (unknown.length > 0) {
  console.error(`No such bench: ${unknown.join(', ')} (there are ${available.join(', ')})`);
  process.exit(1);
}
const benches = named.length > 0 ? available.filter((f) => named.includes(f)) : available;

await ensureDependencies();
await buildStale();
// The benches that drive a browser.
const BROWSER_BENCHES = ['bundle-sizes.mjs', 'lighthouse.mjs', 'site-map.mjs'];
if (benches.some((b) => BROWSER_BENCHES.includes(b))) await run('bash', ['scripts/ensure-chromium.sh']);
for (const bench of benches) {
  step(`bench/${bench}`);
  await run('node', [path.join('bench', bench)]);
}
