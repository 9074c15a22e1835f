// Builds what is stale: each target is rebuilt only when the hash of its inputs changed or its output is missing.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { ROOT, ensureDependencies, run, step } from './lib.mjs';

const FRONTEND_INPUTS = [
  'contracts/src',
  'shared-ui/src',
  'shared-ui/package.json',
  'shared-auth/src',
  'shared-auth/package.json',
  'tools/webpack',
  'package-lock.json',
  'tsconfig.base.json',
];

export const TARGETS = [
  {
    name: 'contracts',
    dir: 'contracts',
    inputs: ['contracts/src', 'contracts/package.json', 'contracts/tsconfig.build.json', 'tsconfig.base.json'],
    command: ['npm', ['run', 'build', '-w', 'contracts']],
  },
  {
    name: 'shared-auth',
    dir: 'shared-auth',
    inputs: ['shared-auth/src', 'shared-auth/tsconfig.build.json', 'tsconfig.base.json'],
    command: ['npm', ['run', 'build', '-w', 'shared-auth']],
  },
  {
    name: 'api',
    dir: 'api',
    inputs: ['api/src', 'api/package.json', 'api/tsconfig.json', 'api/tsconfig.build.json', 'tsconfig.base.json', 'shared-auth/src/policy.ts', 'contracts/src'],
    command: ['npm', ['run', 'build', '-w', 'api']],
  },
  ...['shell', 'mfe-tracking', 'mfe-planning-validation', 'mfe-monitoring', 'mfe-management'].map((name) => ({
    name,
    dir: name,
    webpack: true,
    inputs: [`${name}/src`, `${name}/package.json`, `${name}/webpack.config.js`, ...FRONTEND_INPUTS],
    command: ['npx', ['webpack', '--mode', 'production'], { cwd: path.join(ROOT, name) }],
  })),
];

function listFiles(entry) {
  const full = path.join(ROOT, entry);
  if (!fs.existsSync(full)) return [];
  if (fs.statSync(full).isFile()) return [entry];
  return fs
    .readdirSync(full, { withFileTypes: true })
    .filter((d) => d.name !== 'node_modules' && d.name !== 'dist')
    .flatMap((d) => listFiles(path.join(entry, d.name)));
}

function inputsHash(target) {
  const hash = createHash('sha256');
  for (const file of target.inputs.flatMap(listFiles).sort()) {
    hash.update(file);
    hash.update(fs.readFileSync(path.join(ROOT, file)));
  }
  return hash.digest('hex');
}

const stampDir = path.join(ROOT, '.build-stamps');

function isStale(target) {
  const stamp = path.join(stampDir, `${target.name}.sha256`);
  if (!fs.existsSync(path.join(ROOT, target.dir, 'dist'))) return true;
  return !fs.existsSync(stamp) || fs.readFileSync(stamp, 'utf8') !== inputsHash(target);
}

async function buildTarget(target) {
  const started = Date.now();
  // Hashed before building: a file edited while the build runs then leaves the stamp stale, so the next
  // build picks the edit up (hashing afterwards stamped edits the output never saw as built).
  const built = inputsHash(target);
  const [command, args, options] = target.command;
  await run(command, args, options);
  fs.mkdirSync(stampDir, { recursive: true });
  fs.writeFileSync(path.join(stampDir, `${target.name}.sha256`), built);
  process.stdout.write(`  built ${target.name} in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
}

export async function buildStale({ force = false } = {}) {
  const stale = TARGETS.filter((t) => force || isStale(t));
  if (stale.length === 0) {
    process.stdout.write('Everything is up to date.\n');
    return;
  }
  step(`Building ${stale.map((t) => t.name).join(', ')}`);
  for (const target of stale.filter((t) => !t.webpack)) await buildTarget(target);
  // Two webpack builds at a time: the machine has two cores.
  const queue = stale.filter((t) => t.webpack);
  await Promise.all(
    [0, 1].map(async () => {
      for (let target = queue.shift(); target; target = queue.shift()) await buildTarget(target);
    }),
  );
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await ensureDependencies();
  await buildStale({ force: process.argv.includes('--force') });
}
