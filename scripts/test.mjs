// `npm test`: every suite. A suite that cannot run (missing browser, database) fails the run; nothing is skipped.
import { ensureDependencies, run, step } from './lib.mjs';
import { buildStale } from './build.mjs';
import { typecheck } from './typecheck.mjs';

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
  // Lint beside the build: ESLint and Prettier are one process each, and the build leaves part of the
  // second core idle while it compiles. Both finish (and report) before either failure stops the run.
  const sideBySide = await Promise.allSettled([
    timed('Lint (ESLint + Prettier)', async () => {
      await run('npx', ['eslint', '.', '--max-warnings=0']);
      await run('npx', ['prettier', '--check', '.', '--log-level', 'warn']);
    }),
    timed('Build (stale targets only)', () => buildStale()),
  ]);
  const failed = sideBySide.find((outcome) => outcome.status === 'rejected');
  if (failed) throw failed.reason;
  await timed('Type-check', typecheck);
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
