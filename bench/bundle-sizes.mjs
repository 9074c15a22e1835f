// Gzip size of the JavaScript a browser loads per page, with shared chunks counted once per page load,
// and how many React copies the page ends up with. Run by `npm run bench` after a production build.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';

const ROOT = path.resolve(import.meta.dirname, '..');
const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

const PAGES = [
  { label: 'login page (signed out, no remote)', path: '/auth/login', signedIn: false },
  { label: 'home page', path: '/home', signedIn: true },
  { label: 'tracking: commissioning plan', path: '/tracking/commissioningplan', signedIn: true },
  { label: 'planning-validation: parameter planning', path: '/planning/parameterplanning', signedIn: true },
  { label: 'monitoring: upload logs', path: '/monitoring/uploadLogs', signedIn: true },
  { label: 'management: operators', path: '/management/operators', signedIn: true },
];

/** The seeded administrator's token, so guarded pages are measured as a signed-in user loads them. */
async function adminToken(base) {
  const response = await fetch(`${base}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'admin@cellwise.local', password: 'Cellwise-Admin-1' }),
  });
  if (!response.ok) throw new Error(`login failed: ${response.status}`);
  return (await response.json()).token;
}

function startConsole() {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cellwise-bench-'));
  const child = spawn(process.execPath, [path.join(ROOT, 'api/dist/main.js')], {
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'warn', DATABASE_URL: '' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
      const m = /running at (http:\/\/localhost:\d+)\//.exec(out);
      if (m) resolve({ url: m[1], stop: () => child.kill('SIGTERM') });
    });
    child.on('exit', (code) => reject(new Error(`console exited ${code}`)));
  });
}

async function measure(browser, base, target, token) {
  const context = await browser.newContext();
  if (target.signedIn) await context.addInitScript((t) => localStorage.setItem('vdfptAppToken', t), token);
  const page = await context.newPage();
  const bodies = new Map();
  page.on('response', async (response) => {
    const url = response.url();
    if (!url.endsWith('.js')) return;
    try {
      bodies.set(url, await response.body());
    } catch {
      /* aborted responses have no body */
    }
  });
  await page.goto(base + target.path, { waitUntil: 'networkidle' });
  await page.waitForTimeout(500);
  if (new URL(page.url()).pathname !== target.path) throw new Error(`${target.path} ended on ${page.url()}`);
  const reactCopies = await page.evaluate(() => {
    const share = globalThis.__FEDERATION__?.__SHARE__ ?? {};
    const providers = new Set();
    for (const scopes of Object.values(share))
      for (const pkgs of Object.values(scopes))
        for (const [version, info] of Object.entries(pkgs.react ?? {})) if (info.loaded || info.lib) providers.add(`${info.from}@${version}`);
    return providers.size;
  });
  let gzip = 0;
  let raw = 0;
  for (const body of bodies.values()) {
    raw += body.length;
    gzip += gzipSync(body, { level: 9 }).length;
  }
  await context.close();
  return { page: target.label, files: bodies.size, kbRaw: +(raw / 1024).toFixed(1), kbGzip: +(gzip / 1024).toFixed(1), reactCopies };
}

const server = await startConsole();
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ARGS });
try {
  const token = await adminToken(server.url);
  const rows = [];
  for (const target of PAGES) rows.push(await measure(browser, server.url, target, token));
  console.log('\nJavaScript loaded per page (gzip -9, shared chunks counted once per page)');
  console.table(rows);
  console.log('Budgets: login page <= 150 KB gz; shell + first page of a remote <= 350 KB gz; React copies must be 1.');
} finally {
  await browser.close();
  server.stop();
}
