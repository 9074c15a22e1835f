// What the benches that drive the built API share: start it as a child process on loopback, read its
// memory, give it a fresh PostgreSQL database, sign the demo users in, and build commissioning plans.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';

export const ROOT = path.resolve(import.meta.dirname, '../..');
export const MAIN = path.join(ROOT, 'api/dist/main.js');
export const requireApi = createRequire(path.join(ROOT, 'api/package.json'));
export const DEMO_PASSWORD = 'Cellwise-Demo-1';
export const EMAILS = { manager: 'manager@cellwise.local', hq: 'hq@cellwise.local', os: 'os@cellwise.local', client: 'client@cellwise.local' };
const REQUEST_TIMEOUT_MS = 30_000;
export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));
export const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];

/** The built API as a child process on 127.0.0.1, port chosen by the system (PORT=0). */
export async function startServer(label, databaseUrl, extraEnv = {}) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cellwise-bench-load-'));
  // BENCH_SERVER_NODE_ARGS (e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof") profiles the server under a bench's
  // load: Node refuses --cpu-prof in NODE_OPTIONS.
  const nodeArgs = (process.env.BENCH_SERVER_NODE_ARGS ?? '').split(' ').filter(Boolean);
  const child = spawn(process.execPath, [...nodeArgs, MAIN], {
    env: {
      ...process.env,
      PORT: '0',
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      DEMO_DATA: '1',
      // With DATABASE_URL the API requires the first administrator's password; the bench signs in with the demo one.
      ADMIN_PASSWORD: DEMO_PASSWORD,
      LOG_LEVEL: 'warn',
      DATABASE_URL: databaseUrl,
      REDIS_URL: '',
      SMTP_URL: '',
      PUBLIC_URL: '',
      TRUST_PROXY: '',
      ...extraEnv,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (d) => {
    stderr += d;
    if (stderr.length > 20_000) stderr = stderr.slice(-10_000);
  });
  const exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve(signal ?? code)));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    }
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
  const port = await new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`${label}: the API did not start within 180 s`)), 180_000);
    child.stdout.on('data', (d) => {
      out += d;
      const m = /running at http:\/\/localhost:(\d+)\//.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(Number(m[1]));
      }
    });
    exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`${label}: the API exited (${code}) before listening:\n${stderr.slice(-2000)}`));
    });
  }).catch(async (error) => {
    await stop();
    throw error;
  });
  child.stdout.resume();
  return { url: `http://127.0.0.1:${port}`, pid: child.pid, child, exited, stop, stderr: () => stderr };
}

/** VmRSS and VmHWM of a process, in bytes (null once it is gone). */
export function memoryOf(pid) {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (field) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? 0) * 1024;
    return { rss: kb('VmRSS'), hwm: kb('VmHWM') };
  } catch {
    return null;
  }
}

/** A fresh PostgreSQL database next to the one the URL names; answers its URL and how to drop it. */
export async function freshPostgresDatabase(baseUrl) {
  const { Client } = requireApi('pg');
  const name = `cellwise_load_${randomBytes(5).toString('hex')}`;
  const admin = new Client({ connectionString: baseUrl });
  await admin.connect();
  try {
    await admin.query(`create database ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const cleanup = new Client({ connectionString: baseUrl });
      await cleanup.connect();
      try {
        await cleanup.query(`drop database if exists ${name} with (force)`);
      } finally {
        await cleanup.end();
      }
    },
  };
}

// ----------------------------------------------------------------------------------------------- stats

/** Each demo user signs in once; a 429 is waited out (Retry-After), a bounded number of times. */
export async function signIn(base, email) {
  for (let attempt = 1; attempt <= 5; attempt += 1) {
    const response = await fetch(`${base}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password: DEMO_PASSWORD }),
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
    if (response.status === 200) return (await response.json()).token;
    const text = await response.text();
    if (response.status !== 429) throw new Error(`login ${email}: ${response.status} ${text.slice(0, 200)}`);
    const wait = Math.min(120, Number(response.headers.get('retry-after')) || 5);
    console.log(`  login ${email}: 429, waiting ${wait} s (Retry-After)`);
    await sleep(wait * 1000);
  }
  throw new Error(`login ${email}: still refused after 5 attempts`);
}

/** The commissioning plan workbook of the one import: the import's own header, from the built contract. */
export async function planWorkbook(rows) {
  const ExcelJS = requireApi('exceljs');
  const { COMMISSIONING_PLAN_IMPORT_FIELDS: FIELDS } = requireApi('contracts');
  const book = new ExcelJS.Workbook();
  const sheet = book.addWorksheet('Plan');
  sheet.addRow([...FIELDS]);
  for (let i = 1; i <= rows; i += 1) {
    const values = {
      localId: `LX${String(i % 1000).padStart(4, '0')}`,
      technology: ['4G', '5G', '3G'][i % 3],
      equipCode: `EQ-${i}`,
      equipName: `Equipment ${i}`,
      supplier: i % 2 ? 'Ericsson' : 'Nokia',
      workType: ['Swap', 'New site', 'Upgrade'][i % 3],
      commDate: new Date(Date.UTC(2024, i % 12, (i % 28) + 1, 10, 30, 0)),
      week: (i % 52) + 1,
      mkOwner: 'Ana Costa',
      impOwner: 'Rui Martins',
      btsArea: 'Lisboa',
      btsTech: 'LTE',
      project: 'Rollout 2024',
      comments: `note ${i}`,
      statResponse: 'OK',
      bssTech: 'BSS',
      workOrder: `WO-${i}`,
      localType: 'Macro',
    };
    sheet.addRow(FIELDS.map((field) => values[field] ?? null));
  }
  return Buffer.from(await book.xlsx.writeBuffer());
}
