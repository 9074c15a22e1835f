// The site map with 5,000 sites in headless Chromium: the built console (api/dist/main.js, demo data)
// with its `Monitoring/GetSiteMap` answer replaced by 5,000 generated sites across Portugal (the API's own
// answer is the 120 demo sites; the page, remote, leaflet and canvas renderer are the real built ones).
// Tiles are refused, as with no tile server in reach. Prints, per run:
//   - draw time: from the answer's arrival in the page to the markers painted (two frames after the
//     map reports its drawn count), cold (first visit: leaflet's chunk and stylesheet loaded too) and
//     warm (reload, chunks cached);
//   - frame rate while a script pans the map by mouse drags and zooms it in and out by the wheel:
//     requestAnimationFrame callbacks per second, and the longest and 95th-percentile frame gaps.
// Numbers only; nothing is asserted. Run by `npm run bench` after a production build.
// pageProbes and the page.evaluate callbacks run in the browser page, not in Node.
/* global window, document, MutationObserver, requestAnimationFrame */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { launchChromium } from './lib/chromium.mjs';

const ROOT = path.resolve(import.meta.dirname, '..');
const SITES = Number(process.env.BENCH_MAP_SITES ?? 5000);

/** Deterministic (mulberry32): every run draws the same map. */
function random(seed) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** Sites as `Monitoring/GetSiteMap` answers them (contracts/src/dashboards.ts), spread over mainland Portugal. */
function generatedSiteMap(count) {
  const next = random(15);
  const techs = ['2G', '3G', '4G', '5G'];
  const statuses = ['OK', 'OK', 'OK', 'NOK', 'NO_DATA'];
  const sites = [];
  for (let i = 0; i < count; i++) {
    const id = `BM${String(i + 1).padStart(5, '0')}`;
    const status = statuses[Math.floor(next() * statuses.length)];
    const part = status === 'NO_DATA' ? null : status;
    sites.push({
      id,
      name: `Bench site ${i + 1}`,
      lat: +(37.0 + next() * 5.1).toFixed(5),
      lon: +(-9.5 + next() * 3.3).toFixed(5),
      technologies: techs.filter(() => next() < 0.6),
      status,
      alarmStatus: part,
      radioStatus: part,
      coreStatus: part === 'NOK' ? 'OK' : part,
      trackerId: next() < 0.7 ? i + 1 : null,
    });
  }
  return { sites, withoutCoordinates: 0, tileUrl: 'https://{s}.tile.openstreetmap.org/{z}/{x}/{y}.png' };
}

function startConsole() {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cellwise-bench-map-'));
  const child = spawn(process.execPath, [path.join(ROOT, 'api/dist/main.js')], {
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'warn', DATABASE_URL: '' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
      const m = /running at (http:\/\/localhost:\d+)\//.exec(out);
      if (m)
        resolve({
          url: m[1].replace('localhost', '127.0.0.1'),
          stop: () => {
            child.kill('SIGTERM');
            fs.rmSync(dataDir, { recursive: true, force: true });
          },
        });
    });
    child.on('exit', (code) => reject(new Error(`console exited ${code}`)));
  });
}

async function adminToken(base) {
  const response = await fetch(`${base}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'admin@cellwise.local', password: 'Cellwise-Admin-1' }),
  });
  if (!response.ok) throw new Error(`login failed: ${response.status}`);
  return (await response.json()).token;
}

/**
 * In the page: when the map reports its drawn count, wait two frames (leaflet's canvas renderer paints
 * in the next animation frame) and note the time; and a frame counter the pan script starts and stops.
 */
function pageProbes() {
  const probe = { drawnAt: null, frames: null };
  window.__mapBench = probe;
  new MutationObserver(() => {
    if (probe.drawnAt !== null || !document.querySelector('[data-drawn-sites]')) return;
    requestAnimationFrame(() => requestAnimationFrame(() => (probe.drawnAt = performance.now())));
  }).observe(document, { subtree: true, attributes: true, attributeFilter: ['data-drawn-sites'], childList: true });
  probe.startFrames = () => {
    probe.frames = [];
    const tick = (t) => {
      if (!probe.frames) return;
      probe.frames.push(t);
      requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  };
  probe.stopFrames = () => {
    const frames = probe.frames ?? [];
    probe.frames = null;
    return frames;
  };
}

async function openMap(page, base) {
  await page.goto(`${base}/dashboards/dashboardRollout`, { waitUntil: 'domcontentloaded' });
  await page.getByRole('tab', { name: 'Site map' }).click();
  await page.waitForSelector(`[data-drawn-sites="${SITES}"]`, { timeout: 120_000 });
  await page.waitForFunction(() => window.__mapBench.drawnAt !== null);
  return page.evaluate(() => {
    const answer = performance.getEntriesByType('resource').find((e) => e.name.includes('/api/Monitoring/GetSiteMap'));
    return { drawMs: window.__mapBench.drawnAt - answer.responseEnd };
  });
}

/** Mouse drags across the map and wheel zooms, while the page counts animation frames. */
async function panAndZoom(page) {
  const box = await page.locator('.leaflet-container').boundingBox();
  const cx = box.x + box.width / 2;
  const cy = box.y + box.height / 2;
  await page.evaluate(() => window.__mapBench.startFrames());
  const started = Date.now();
  const moves = [
    [220, 0],
    [0, 160],
    [-220, 0],
    [0, -160],
  ];
  for (let round = 0; round < 2; round++) {
    for (const [dx, dy] of moves) {
      await page.mouse.move(cx, cy);
      await page.mouse.down();
      for (let step = 1; step <= 20; step++) {
        await page.mouse.move(cx + (dx * step) / 20, cy + (dy * step) / 20);
        await page.waitForTimeout(16);
      }
      await page.mouse.up();
      await page.waitForTimeout(150);
    }
    for (const delta of [-240, -240, 240, 240]) {
      await page.mouse.move(cx, cy);
      await page.mouse.wheel(0, delta);
      await page.waitForTimeout(450);
    }
  }
  const seconds = (Date.now() - started) / 1000;
  const frames = await page.evaluate(() => window.__mapBench.stopFrames());
  const gaps = frames
    .slice(1)
    .map((t, i) => t - frames[i])
    .sort((a, b) => a - b);
  return {
    seconds: +seconds.toFixed(1),
    fps: +(frames.length / ((frames.at(-1) - frames[0]) / 1000)).toFixed(1),
    p95FrameMs: +(gaps[Math.floor(gaps.length * 0.95)] ?? 0).toFixed(1),
    longestFrameMs: +(gaps.at(-1) ?? 0).toFixed(1),
  };
}

const server = await startConsole();
const browser = await launchChromium();
try {
  const token = await adminToken(server.url);
  const answer = JSON.stringify(generatedSiteMap(SITES));
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  await context.addCookies([{ name: 'cellwise_cookie_consent', value: '1', url: server.url }]);
  await context.addInitScript((t) => localStorage.setItem('vdfptAppToken', t), token);
  await context.addInitScript(pageProbes);
  await context.route(/\/api\/Monitoring\/GetSiteMap/, (route) => route.fulfill({ status: 200, contentType: 'application/json', body: answer }));
  await context.route(/tile\.openstreetmap\.org/, (route) => route.abort());
  const page = await context.newPage();

  const cold = await openMap(page, server.url);
  const warm = [];
  for (let i = 0; i < 3; i++) warm.push((await openMap(page, server.url)).drawMs);
  const motion = await panAndZoom(page);
  await context.close();

  console.log(`\nSite map, ${SITES.toLocaleString('en-GB')} sites (canvas circle markers, 4 technology layers), Chromium ${browser.version()}, no tiles`);
  console.table([
    { measure: 'draw, first visit (leaflet chunk + stylesheet loaded too), ms', value: +cold.drawMs.toFixed(0) },
    { measure: 'draw, reloaded (median of 3), ms', value: +warm.sort((a, b) => a - b)[1].toFixed(0) },
    { measure: `pan and zoom for ${motion.seconds} s: frames per second`, value: motion.fps },
    { measure: 'pan and zoom: 95th-percentile frame gap, ms', value: motion.p95FrameMs },
    { measure: 'pan and zoom: longest frame gap, ms', value: motion.longestFrameMs },
  ]);
} finally {
  await browser.close();
  server.stop();
}
