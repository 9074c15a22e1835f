// `npm run bench`: production build, then every benchmark in bench/ prints its numbers.
import fs from 'node:fs';
import path from 'node:path';
import { ROOT, ensureDependencies, run, step } from './lib.mjs';
import { buildStale } from './build.mjs';

await ensureDependencies();
await buildStale();
await run('bash', ['scripts/ensure-chromium.sh']);
const benches = fs
  .readdirSync(path.join(ROOT, 'bench'))
  .filter((f) => f.endsWith('.mjs'))
  .sort();
for (const bench of benches) {
  step(`bench/${bench}`);
  await run('node', [path.join('bench', bench)]);
}
