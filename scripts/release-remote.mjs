// `npm run release -w <remote> [-- --version X]`: one area's release, built into its own versioned folder
// (dist/releases/<name>/<version>/, with its mf-manifest.json, remoteEntry.js and navigation.json) that any
// static server on any origin can serve; the console takes it when REMOTE_<NAME>_URL names its
// mf-manifest.json (README, "Releasing one area"). The shell and the other areas are not rebuilt.
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { ROOT, run, step } from './lib.mjs';

const REMOTES = ['mfe-tracking', 'mfe-planning-validation', 'mfe-monitoring', 'mfe-management'];

export async function releaseRemote(name, { version } = {}) {
  if (!REMOTES.includes(name)) throw new Error(`${name} is not a remote; releasable areas: ${REMOTES.join(', ')}`);
  const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, name, 'package.json'), 'utf8'));
  const releaseVersion = version ?? pkg.version;
  // A version names a release: a folder is written once and never changed under a running console.
  if (!/^\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?$/.test(releaseVersion)) throw new Error(`${releaseVersion} is not a semantic version (e.g. 1.4.0 or 1.4.1-rc.1)`);
  const target = path.join(ROOT, 'dist/releases', name, releaseVersion);
  if (fs.existsSync(target)) throw new Error(`${path.relative(ROOT, target)} already exists: a release is never overwritten, give it a new version`);
  step(`Releasing ${name} ${releaseVersion}`);
  // Built into the release folder itself (not the package's dist, which the local console serves), with
  // the version stamped into navigation.json so the console shows which release it runs.
  await run('npx', ['webpack', '--mode', 'production', '--output-path', target], {
    cwd: path.join(ROOT, name),
    env: { ...process.env, CELLWISE_RELEASE_VERSION: releaseVersion },
  });
  for (const file of ['mf-manifest.json', 'remoteEntry.js', 'navigation.json']) {
    if (!fs.existsSync(path.join(target, file))) throw new Error(`the build of ${name} wrote no ${file}`);
  }
  process.stdout.write(`  ${path.relative(ROOT, target)}/mf-manifest.json\n`);
  return target;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values, positionals } = parseArgs({ options: { version: { type: 'string' } }, allowPositionals: true });
  const name = positionals[0] ?? path.basename(process.cwd());
  try {
    await releaseRemote(name, { version: values.version });
  } catch (error) {
    process.stderr.write(`${error.message}\n`);
    process.exit(1);
  }
}
