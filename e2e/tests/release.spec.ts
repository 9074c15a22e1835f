import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { REPO_ROOT, startConsole, type RunningConsole } from '../support/console';
import { acceptCookies, ADMIN, signInByToken } from '../support/session';

/**
 * One area released and deployed alone (README, "Releasing one area"): the tracking team releases its
 * remote with its own script, serves the release folder from its own origin, and the console, told only
 * by REMOTE_TRACKING_URL, runs it; a second release is picked up by a reload, with the shell and the
 * other areas untouched.
 */

// Two releases are built (about 20 s each on two cores) while another spec file runs beside this one.
test.describe.configure({ timeout: 240_000 });

const STAMP = `${Date.now()}`;
const FIRST = `0.1.0-e2e.${STAMP}`;
const SECOND = `0.1.1-e2e.${STAMP}`;
const releaseDir = (version: string) => path.join(REPO_ROOT, 'dist/releases/mfe-tracking', version);

function runScript(args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    child.on('exit', (code) => (code === 0 ? resolve(output) : reject(new Error(`${args.join(' ')} exited ${code}:\n${output}`))));
  });
}

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** The project's own release server (scripts/serve-release.mjs), as a deployment runs it. */
async function serveRelease(folder: string, port: number, allowOrigin: string): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['scripts/serve-release.mjs', folder, '--port', String(port), '--allow-origin', allowOrigin], {
    cwd: REPO_ROOT,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise<void>((resolve, reject) => {
    child.stdout!.on('data', (d: Buffer) => d.toString().includes('serving') && resolve());
    child.on('exit', (code) => reject(new Error(`serve-release exited ${code}`)));
  });
  return child;
}

let consoleApp: RunningConsole;
let releaseServer: ChildProcess;
let live: string;
let releaseOrigin: string;

test.beforeAll(async () => {
  test.setTimeout(180_000);
  await runScript(['scripts/release-remote.mjs', 'mfe-tracking', '--version', FIRST]);
  // The deployment's folder points at the release it serves; deploying another repoints it.
  live = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'cellwise-release-')), 'tracking');
  fs.symlinkSync(releaseDir(FIRST), live);
  const [consolePort, releasePort] = [await freePort(), await freePort()];
  const consoleOrigin = `http://127.0.0.1:${consolePort}`;
  releaseOrigin = `http://127.0.0.1:${releasePort}`;
  releaseServer = await serveRelease(live, releasePort, consoleOrigin);
  consoleApp = await startConsole({ PORT: String(consolePort), REMOTE_TRACKING_URL: `${releaseOrigin}/mf-manifest.json` });
});
test.afterAll(async () => {
  await consoleApp?.stop();
  releaseServer?.kill('SIGTERM');
  for (const version of [FIRST, SECOND]) fs.rmSync(releaseDir(version), { recursive: true, force: true });
});

test('a release served from its own origin runs in the unchanged console, and the next release is taken by a reload', async ({ page, context, request }) => {
  const versionShown = page.locator('[data-area-version="tracking"]');
  // The release server lets the console's origin read it, and no other.
  const asConsole = await request.get(`${releaseOrigin}/mf-manifest.json`, { headers: { Origin: consoleApp.url } });
  expect(asConsole.headers()['access-control-allow-origin']).toBe(consoleApp.url);
  const asStranger = await request.get(`${releaseOrigin}/mf-manifest.json`, { headers: { Origin: 'http://127.0.0.1:9' } });
  expect(asStranger.headers()['access-control-allow-origin']).toBeUndefined();

  await acceptCookies(context, consoleApp.url);
  await signInByToken(page, consoleApp.url, ADMIN.email, ADMIN.password);
  const loadedFrom: string[] = [];
  page.on('request', (r) => {
    if (r.url().startsWith(releaseOrigin)) loadedFrom.push(new URL(r.url()).pathname);
  });
  const answer = await page.goto(consoleApp.url + '/tracking/commissioningplan');
  // The console's CSP names the release's origin for its scripts, and no origin it was not given.
  const csp = answer!.headers()['content-security-policy'] ?? '';
  expect(csp).toMatch(new RegExp(`script-src 'self' ${releaseOrigin}(;|$)`));
  await expect(page.getByRole('heading', { name: 'Commissioning Plan', exact: true })).toBeVisible();
  await expect(page.locator('.ant-table-row').first()).toBeVisible();
  await expect(versionShown).toHaveText(`tracking ${FIRST}`);
  expect(loadedFrom).toEqual(expect.arrayContaining(['/navigation.json', '/mf-manifest.json', '/remoteEntry.js']));
  // The other areas still come from the console's own origin.
  await expect(page.locator('[data-area-version="monitoring"]')).toHaveText(/^monitoring \d+\.\d+\.\d+$/);

  // The tracking team releases again; the deployment now serves that release.
  await runScript(['scripts/release-remote.mjs', 'mfe-tracking', '--version', SECOND]);
  fs.unlinkSync(live);
  fs.symlinkSync(releaseDir(SECOND), live);
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Commissioning Plan', exact: true })).toBeVisible();
  await expect(versionShown).toHaveText(`tracking ${SECOND}`);
  await page.getByRole('link', { name: 'Tracker', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Tracker', exact: true })).toBeVisible();
});

test('a release is never overwritten, and a version must be one', async () => {
  await expect(runScript(['scripts/release-remote.mjs', 'mfe-tracking', '--version', FIRST])).rejects.toThrow(/already exists/);
  await expect(runScript(['scripts/release-remote.mjs', 'mfe-tracking', '--version', 'latest'])).rejects.toThrow(/not a semantic version/);
  await expect(runScript(['scripts/release-remote.mjs', 'shell'])).rejects.toThrow(/not a remote/);
});
