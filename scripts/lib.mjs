// Helpers shared by start, build, test and bench: run commands, install what is missing.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export function run(command, args, options = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: ROOT, stdio: 'inherit', ...options, env: { ...process.env, ...(options.env ?? {}) } });
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      if (code === 0) resolve();
      else reject(new Error(`${command} ${args.join(' ')} failed (${signal ?? `exit ${code}`})`));
    });
  });
}

export function step(title) {
  process.stdout.write(`\n\u25b6 ${title}\n`);
}

/** Installs dependencies when node_modules is missing or older than the lockfile. */
export async function ensureDependencies() {
  const marker = path.join(ROOT, 'node_modules', '.package-lock.json');
  const lock = path.join(ROOT, 'package-lock.json');
  const fresh = fs.existsSync(marker) && fs.statSync(marker).mtimeMs >= fs.statSync(lock).mtimeMs;
  if (fresh) return;
  // `npm ci` first: on a clean clone it took 2 min where `npm install` took 4 (same lockfile, warm cache),
  // which resolves the tree again. `npm install` when it refuses: a registry's npm may write lockfiles
  // without other platforms' optional binaries, which `npm ci` then reports as out of sync. Either way the
  // lockfile pins the versions.
  step('Installing dependencies (npm ci)');
  try {
    await run('npm', ['ci', '--no-audit', '--no-fund']);
  } catch (error) {
    step(`npm ci refused (${error.message}); installing with npm install`);
    await run('npm', ['install', '--no-audit', '--no-fund']);
  }
}
