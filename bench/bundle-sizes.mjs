// Gzip size of the JavaScript a browser loads per page, with shared chunks counted once per page load,
// and how many React copies the page ends up with: the signed-out login page and every route of the
// console's route table (the shell's own routes and each remote's navigation.json), each as a fresh
// browser loads it, then the pages' first dialogs (add user, import, acknowledge) opened on top. Then the
// rollout dashboard route's own JavaScript (what it loads beyond the home page) with the native charts
// and with each BI embed active, so the weight of powerbi-client and tableau-api-js, loaded only there,
// shows; each of those is a page load too, held to the page budget. Run by `npm run bench` after a
// production build; `node bench/bundle-sizes.mjs /management /dashboards` weighs only the routes under
// those paths (with /home, which the remotes' own share is counted against).
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { launchChromium } from './lib/chromium.mjs';

const ROOT = path.resolve(import.meta.dirname, '..');

// Budgets of issue 17 and issue 48 (gzip -9 of every JS file the page loads, in a fresh browser context).
const BUDGET_KB = { signedOut: 150, home: 300, page: 350, remoteOwn: 40 };

/** Path prefixes named on the command line: only those routes are weighed (all when none). */
const ONLY = process.argv.slice(2).filter((arg) => arg.startsWith('/'));
const weighed = (p) => ONLY.length === 0 || p === '/home' || ONLY.some((prefix) => p.startsWith(prefix));

/** The shell's own routes (shell/src/ConsoleApp.tsx), with the path a user opens for each. */
const SHELL_ROUTES = [
  { path: '/home', title: 'Home' },
  { route: '/management/settings/:tab?', path: '/management/settings/general', title: 'Settings' },
  { path: '/notifications', title: 'Notifications' },
];

/**
 * Routes whose page needs more than its path: the path a user opens, and the router state the page
 * reads (operator details takes its operator from the operators' cards, never from the path).
 */
const ROUTE_OPENED_AS = {
  '/management/operators/details/:tab?': { path: '/management/operators/details/overview', state: { operatorId: 1 } },
};

/** The first dialog of the pages that have one, opened as a user opens it once the page is drawn. */
const DIALOGS = [
  { path: '/management/users', label: 'add user', button: /(^|\s)Add$/ },
  { path: '/tracking/commissioningplan', label: 'import', button: /(^|\s)Import$/ },
  { path: '/monitoring/faultManagement', label: 'acknowledge', button: /(^|\s)Acknowledge$/ },
];

/** Every remote's navigation.json as built (in its dist folder), in folder order. */
function remoteNavigations() {
  return fs
    .readdirSync(ROOT)
    .filter((dir) => dir.startsWith('mfe-') && fs.existsSync(path.join(ROOT, dir, 'dist/navigation.json')))
    .map((dir) => ({ folder: dir, navigation: JSON.parse(fs.readFileSync(path.join(ROOT, dir, 'dist/navigation.json'), 'utf8')) }));
}

/** The pages to weigh: login, the shell's routes, each remote's routes. */
function routeTable() {
  const pages = [{ label: 'login (signed out)', route: '/auth/login', path: '/auth/login', signedIn: false, budgetKb: BUDGET_KB.signedOut }];
  for (const { route, path: p, title } of SHELL_ROUTES)
    pages.push({ label: title, route: route ?? p, path: p, signedIn: true, budgetKb: p === '/home' ? BUDGET_KB.home : BUDGET_KB.page });
  const remotes = remoteNavigations();
  if (remotes.length === 0) throw new Error('no remote navigation.json under mfe-<name>/dist: build first (npm run build)');
  for (const { navigation } of remotes) {
    for (const { path: route, title } of navigation.routes) {
      const opened = ROUTE_OPENED_AS[route] ?? {};
      const p = opened.path ?? route;
      if (p.includes(':')) throw new Error(`route ${route} has a parameter: say in ROUTE_OPENED_AS how a user opens it`);
      pages.push({ label: title, route, path: p, state: opened.state, signedIn: true, budgetKb: BUDGET_KB.page, remote: true });
    }
  }
  return pages.filter((page) => weighed(page.path));
}

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

function startConsole(extraEnv = {}) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cellwise-bench-'));
  const child = spawn(process.execPath, [path.join(ROOT, 'api/dist/main.js')], {
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'warn', DATABASE_URL: '', ...extraEnv },
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

/** Loads `url` in a fresh context (signed in when `token` is given) and keeps the body of every JavaScript file it loads. */
async function loadScripts(browser, url, token, { prepare, ready, state } = {}) {
  const context = await browser.newContext();
  if (token) await context.addInitScript((t) => localStorage.setItem('vdfptAppToken', t), token);
  // Router state as a navigation inside the console leaves it (react-router reads history.state.usr).
  if (state) await context.addInitScript((usr) => globalThis.history.replaceState({ usr, key: 'bench', idx: 0 }, ''), state);
  const page = await context.newPage();
  if (prepare) await prepare(page);
  const bodies = new Map();
  // Stylesheets, shown beside the budgets (which count JavaScript): antd's static stylesheet replaced the
  // styles its components generated at run time, so its bytes are part of what a page costs.
  const styles = new Map();
  // What crossed the network for each file (its encoded body: brotli or gzip when the server sent it so).
  const received = new Map();
  page.on('response', async (response) => {
    const url = response.url();
    const kept = url.endsWith('.js') ? bodies : url.endsWith('.css') ? styles : null;
    if (!kept) return;
    try {
      kept.set(url, await response.body());
      received.set(url, (await response.request().sizes()).responseBodySize);
    } catch {
      /* aborted responses have no body */
    }
  });
  await page.goto(url, { waitUntil: 'networkidle' });
  if (ready) await ready(page);
  await page.waitForTimeout(500);
  return { context, page, bodies, styles, received };
}

function sizes(bodies) {
  let gzip = 0;
  let raw = 0;
  for (const body of bodies) {
    raw += body.length;
    gzip += gzipSync(body, { level: 9 }).length;
  }
  return { kbRaw: +(raw / 1024).toFixed(1), kbGzip: +(gzip / 1024).toFixed(1) };
}

/**
 * A page counts once it is drawn: its frame (`.cw-page`, PageContainer's or the signed-out pages') is
 * on the screen and the network is quiet again. networkidle alone could come before a remote page's own
 * chunks had loaded (it once measured /monitoring/uploadLogs at 359 KB; drawn, the page loads 548 KB).
 */
async function pageDrawn(page) {
  await page.waitForSelector('.cw-page', { state: 'visible', timeout: 60_000 });
  await page.waitForLoadState('networkidle');
}

/** Opens the page's dialog by its button once the page is drawn, and waits until the dialog is drawn and the network quiet. */
function dialogOpened(button) {
  return async (page) => {
    await pageDrawn(page);
    await page.getByRole('button', { name: button }).first().click({ timeout: 60_000 });
    await page.getByRole('dialog').first().waitFor({ state: 'visible', timeout: 60_000 });
    await page.waitForLoadState('networkidle');
  };
}

async function measure(browser, base, target, token, home) {
  const ready = target.dialog ? dialogOpened(target.dialog) : pageDrawn;
  const { context, page, bodies, styles, received } = await loadScripts(browser, base + target.path, target.signedIn ? token : null, {
    ready,
    state: target.state,
  });
  if (new URL(page.url()).pathname !== target.path) throw new Error(`${target.path} ended on ${page.url()}`);
  const reactCopies = await page.evaluate(() => {
    // The signed-out pages are their own entry without the federation runtime: React is bundled there, once.
    if (!globalThis.__FEDERATION__) return '1 (own bundle)';
    const share = globalThis.__FEDERATION__.__SHARE__ ?? {};
    const providers = new Set();
    for (const scopes of Object.values(share))
      for (const pkgs of Object.values(scopes))
        for (const [version, info] of Object.entries(pkgs.react ?? {})) if (info.loaded || info.lib) providers.add(`${info.from}@${version}`);
    return providers.size;
  });
  await context.close();
  const { kbRaw, kbGzip } = sizes(bodies.values());
  // BUNDLE_FILES=1: each file the page loaded, heaviest first, to see what to trim.
  if (process.env.BUNDLE_FILES) {
    const rows = [...bodies].map(([url, body]) => [sizes([body]).kbGzip, new URL(url).pathname]).sort((a, b) => b[0] - a[0]);
    console.log(`\n${target.path}:\n${rows.map(([kb, file]) => `  ${String(kb).padStart(6)} KB  ${file}`).join('\n')}`);
  }
  const row = {
    page: target.label,
    path: target.path,
    files: bodies.size,
    kbRaw,
    kbWire: +([...bodies.keys()].reduce((sum, url) => sum + (received.get(url) ?? 0), 0) / 1024).toFixed(1),
    kbGzip,
    budgetKb: target.budgetKb,
    met: kbGzip <= target.budgetKb ? 'yes' : 'NO',
    marginKb: +(target.budgetKb - kbGzip).toFixed(1),
    remoteOwnKbGzip: '-',
    reactCopies,
    cssKbGzip: sizes(styles.values()).kbGzip,
    cssKbWire: +([...styles.keys()].reduce((sum, url) => sum + (received.get(url) ?? 0), 0) / 1024).toFixed(1),
  };
  if (target.remote && home) {
    // The remote's own: files served from its folder that the home page did not load.
    const own = [...bodies].filter(([url]) => !home.has(url) && new URL(url).pathname.startsWith('/remotes/')).map(([, body]) => body);
    const ownKb = sizes(own).kbGzip;
    row.remoteOwnKbGzip = `${ownKb} / ${BUDGET_KB.remoteOwn}${ownKb <= BUDGET_KB.remoteOwn ? '' : ' NO'}`;
  }
  return { row, urls: new Set(bodies.keys()) };
}

// ---- The rollout dashboard route with and without the BI libraries ----

const DASHBOARD_ROUTE = '/dashboards/dashboardRollout';
// powerbi-client embeds only *.powerbi.com over https; both hosts are answered by the browser context, never the network.
const POWERBI_EMBED_ORIGIN = 'https://bench.powerbi.com';
const TABLEAU_ORIGIN = 'https://tableau.bench.test';
const REPORT_ID = '0f9c2c5e-6a11-4f43-9d3e-3a6c1b7e2d10';
const GROUP_ID = '5b7e1c2a-8d4f-4e6b-a1c3-9f0e2d4b6a88';

/** Strings only each library's bundle holds, to tell which BI library a page loaded. */
const BI_LIBRARY_MARKERS = { 'powerbi-client': 'Power BI SDK', 'tableau-api-js': 'tableauSoftware' };

/** Azure AD, Power BI's GenerateToken and Tableau's trusted tickets, faked on loopback so the console mints embed tokens. */
async function startFakePowerBi() {
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const json = (body) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
      if (req.method === 'POST' && req.url.endsWith('/oauth2/v2.0/token')) return json({ token_type: 'Bearer', expires_in: 3599, access_token: 'bench' });
      if (req.method === 'POST' && req.url.endsWith('/GenerateToken'))
        return json({ token: 'bench-embed-token', expiration: new Date(Date.now() + 3_600_000).toISOString() });
      if (req.method === 'POST' && req.url === '/trusted')
        return res.writeHead(200, { 'content-type': 'text/plain' }).end('YmVuY2gtdGlja2V0LWJlbmNo:bench-ticket-0001');
      res.writeHead(404).end();
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { base: `http://127.0.0.1:${server.address().port}`, close: () => new Promise((resolve) => server.close(resolve)) };
}

/** Record 2 as the Administrator saves it in Settings. */
async function setDashboard(base, token, record) {
  const response = await fetch(`${base}/api/Dashboard/Update`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify({ id: 2, ...record }),
  });
  if (!response.ok) throw new Error(`Dashboard/Update failed: ${response.status} ${await response.text()}`);
}

const DASHBOARD_VARIANTS = [
  {
    label: 'native charts (no BI server)',
    record: { type: 'PowerBI', name: 'Rollout', url: '', serverId: null },
    ready: (page) => page.locator('canvas').first().waitFor(),
  },
  {
    label: 'Power BI embed active',
    record: { type: 'PowerBI', name: 'Rollout', url: `${POWERBI_EMBED_ORIGIN}/reportEmbed?reportId=${REPORT_ID}&groupId=${GROUP_ID}`, serverId: 'powerbi' },
    ready: (page) => page.locator('[data-testid="dashboard-frame"] iframe').waitFor(),
  },
  {
    label: 'Tableau embed active',
    record: { type: 'Tableau', name: 'Rollout', url: `${TABLEAU_ORIGIN}/views/Rollout/Overview`, serverId: 'tableau' },
    ready: (page) => page.locator('[data-testid="dashboard-frame"] iframe').waitFor(),
  },
];

/** The embed pages: blank documents (the bench weighs the console's scripts, not the BI servers'). */
async function blankEmbedPages(page) {
  for (const origin of [POWERBI_EMBED_ORIGIN, TABLEAU_ORIGIN])
    await page.route(`${origin}/**`, (route) => route.fulfill({ status: 200, contentType: 'text/html', body: '<!doctype html><title>embed</title>' }));
}

async function measureDashboard(browser) {
  const fake = await startFakePowerBi();
  const server = await startConsole({
    POWERBI_TENANT_ID: 'bench',
    POWERBI_CLIENT_ID: 'bench',
    POWERBI_CLIENT_SECRET: 'bench',
    POWERBI_AUTHORITY_URL: fake.base,
    POWERBI_API_URL: fake.base,
    POWERBI_EMBED_ORIGIN,
    TABLEAU_URL: TABLEAU_ORIGIN,
    TABLEAU_TICKET_URL: fake.base,
  });
  try {
    const token = await adminToken(server.url);
    const home = await loadScripts(browser, `${server.url}/home`, token);
    await home.context.close();
    const rows = [];
    for (const variant of DASHBOARD_VARIANTS) {
      await setDashboard(server.url, token, variant.record);
      const { context, bodies } = await loadScripts(browser, server.url + DASHBOARD_ROUTE, token, { prepare: blankEmbedPages, ready: variant.ready });
      await context.close();
      // The route's own: every script the page loaded that the home page (shell, shared singletons) did not.
      const own = [...bodies].filter(([url]) => !home.bodies.has(url)).map(([, body]) => body);
      const text = own.map((body) => body.toString('latin1'));
      const biLibraries = Object.entries(BI_LIBRARY_MARKERS)
        .filter(([, marker]) => text.some((t) => t.includes(marker)))
        .map(([name]) => name);
      rows.push({
        'dashboard route': variant.label,
        ownFiles: own.length,
        ownKbRaw: sizes(own).kbRaw,
        ownKbGzip: sizes(own).kbGzip,
        biLibrariesLoaded: biLibraries.join(', ') || '-',
        pageKbGzip: sizes(bodies.values()).kbGzip,
        budgetKb: BUDGET_KB.page,
      });
    }
    for (const row of rows) row.met = row.pageKbGzip <= BUDGET_KB.page ? 'yes' : 'NO';
    const native = rows[0].ownKbGzip;
    for (const row of rows) row.vsNativeKbGzip = +(row.ownKbGzip - native).toFixed(1);
    console.log(`\nThe rollout dashboard route's own JavaScript (${DASHBOARD_ROUTE}: the files the home page does not load; gzip -9)`);
    console.table(rows);
    return rows.map((row) => ({ page: `Dashboard Rollout, ${row['dashboard route']}`, kbGzip: row.pageKbGzip, budgetKb: row.budgetKb, met: row.met }));
  } finally {
    server.stop();
    await fake.close();
  }
}

const browser = await launchChromium();
/** Every page load weighed against a budget: the route table, the dialogs, the dashboard's variants. */
const pageRows = [];
try {
  const server = await startConsole();
  try {
    const token = await adminToken(server.url);
    const pages = routeTable();
    const dialogs = DIALOGS.filter((dialog) => weighed(dialog.path)).map((dialog) => {
      const target = pages.find((p) => p.path === dialog.path);
      if (!target) throw new Error(`no route ${dialog.path} in the route table for the ${dialog.label} dialog`);
      return { ...target, label: `${target.label} + ${dialog.label} dialog`, dialog: dialog.button };
    });
    const rows = [];
    let home;
    for (const target of [...pages, ...dialogs]) {
      const { row, urls } = await measure(browser, server.url, target, token, home);
      if (target.path === '/home') home = urls;
      rows.push(row);
    }
    console.log(
      '\nJavaScript loaded per page (gzip -9 against the budget; kbWire: what the server actually sent, compressed); stylesheets beside it (css*, not budgeted)',
    );
    console.table(rows);
    console.log(
      `Budgets: signed-out pages <= ${BUDGET_KB.signedOut} KB; /home <= ${BUDGET_KB.home} KB; every other route (and with its first dialog open) <= ` +
        `${BUDGET_KB.page} KB, of which a remote's own <= ${BUDGET_KB.remoteOwn} KB; React copies must be 1.`,
    );
    pageRows.push(...rows);
  } finally {
    server.stop();
  }
  if (weighed(DASHBOARD_ROUTE)) pageRows.push(...(await measureDashboard(browser)));
  const over = pageRows.filter((row) => row.met !== 'yes');
  console.log(
    over.length === 0
      ? `\nEvery one of the ${pageRows.length} page loads is within its budget.`
      : `\nOver budget (${over.length} of ${pageRows.length}): ${over.map((row) => `${row.page} ${row.kbGzip}/${row.budgetKb} KB`).join('; ')}`,
  );
} finally {
  await browser.close();
}
