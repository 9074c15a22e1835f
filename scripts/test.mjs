// `npm test`: every suite. A suite that cannot run (missing browser, database) fails the run; nothing is skipped.
import fs from 'node:fs';
import path from 'node:path';
import { ROOT, ensureDependencies, run, step } from './lib.mjs';
import { buildStale } from './build.mjs';

const started = Date.now();
const timings = [];
async function timed(title, fn) {
  step(title);
  const t = Date.now();
  await fn();
  timings.push(`${title}: ${((Date.now() - t) / 1000).toFixed(1)} s`);
}

try {
  await timed('Dependencies', ensureDependencies);
  await timed('Lint (ESLint + Prettier)', async () => {
    await run('npx', ['eslint', '.', '--max-warnings=0']);
    await run('npx', ['prettier', '--check', '.', '--log-level', 'warn']);
  });
  await timed('Build (stale targets only)', () => buildStale());
  await timed('Type-check', async () => {
    const queue = ['api', 'shared-ui', 'shell', 'mfe-tracking', 'mfe-planning-validation', 'mfe-monitoring', 'mfe-management', 'shared-auth', 'e2e'].filter(
      (pkg) => fs.existsSync(path.join(ROOT, pkg, 'tsconfig.json')),
    );
    // Two compilers at a time: the machine has two cores, and one tsc leaves most of the other idle.
    await Promise.all(
      [0, 1].map(async () => {
        for (let pkg = queue.shift(); pkg; pkg = queue.shift()) await run('npx', ['tsc', '-p', `${pkg}/tsconfig.json`, '--noEmit']);
      }),
    );
  });
  // Two workers: jest's default (cores - 1) is one on a 2-core machine, and most suites wait on a database or a timer.
  await timed(`Unit and API suites (jest${process.env.DATABASE_URL ? ', SQLite and PostgreSQL' : ', SQLite'})`, () =>
    run('npx', ['jest', '--ci', '--maxWorkers=2']),
  );
  await timed('Browser suite (Playwright, Debian Chromium)', async () => {
    await run('bash', ['scripts/ensure-chromium.sh']);
    await run('npx', ['playwright', 'test', '-c', 'e2e/playwright.config.ts']);
  });
  process.stdout.write(`\nAll suites passed in ${((Date.now() - started) / 1000).toFixed(0)} s\n  ${timings.join('\n  ')}\n`);
} catch (error) {
  process.stderr.write(`\n${error.message}\n`);
  process.exit(1);
}
