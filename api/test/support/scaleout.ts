import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import path from 'node:path';
import httpProxy from 'http-proxy';
import { Client } from 'pg';

/**
 * Real processes behind a real reverse proxy, for the scale-out proof: the built API started as
 * operations start it (`node api/dist/main.js` with its environment), and http-proxy in front.
 */

/** CI's DATABASE_URL, else the local server the README describes: this proof needs PostgreSQL either way. */
export const SCALEOUT_POSTGRES_URL = process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test';

export const API_MAIN = path.resolve(__dirname, '../../dist/main.js');

export interface ScratchDatabase {
  url: string;
  name: string;
  drop: () => Promise<void>;
}

/**
 * A database of its own on the server of `url`. A separate database rather than a schema: the processes
 * read DATABASE_URL like any deployment, and pg-boss creates its own `pgboss` schema in it.
 */
export async function scratchDatabase(url: string): Promise<ScratchDatabase> {
  const name = `cellwise_scaleout_${randomBytes(5).toString('hex')}`;
  const admin = new Client({ connectionString: url, connectionTimeoutMillis: 3000 });
  try {
    await admin.connect();
    await admin.query(`create database ${name}`);
  } catch (error) {
    throw new Error(`PostgreSQL is required at ${url} for the scale-out proof (set DATABASE_URL): ${(error as Error).message}`, { cause: error });
  } finally {
    await admin.end().catch(() => undefined);
  }
  const own = new URL(url);
  own.pathname = `/${name}`;
  return {
    url: own.toString(),
    name,
    drop: async () => {
      const cleanup = new Client({ connectionString: url });
      await cleanup.connect();
      try {
        // FORCE: a killed instance's sessions may linger until the server notices the dead sockets.
        await cleanup.query(`drop database if exists ${name} with (force)`);
      } finally {
        await cleanup.end();
      }
    },
  };
}

export interface ApiProcess {
  name: string;
  /** http://127.0.0.1:<port> */
  url: string;
  pid: number;
  /** What it printed (stdout and stderr), for failure messages. */
  output: () => string;
  /** Resolves when the process has exited, however. */
  exited: Promise<void>;
  /** Freezes (SIGSTOP) or thaws (SIGCONT) it: a frozen instance holds its connections but takes no job. */
  freeze: () => void;
  thaw: () => void;
  /** kill -9, and waits for the exit. */
  kill: () => Promise<void>;
  /** SIGTERM (the graceful shutdown), SIGKILL after `graceMs`. */
  stop: (graceMs?: number) => Promise<void>;
}

const started = new Set<ChildProcess>();
// A jest worker that dies before afterAll must not leave API processes behind.
process.once('exit', () => {
  for (const child of started) child.kill('SIGKILL');
});

/** Starts `node api/dist/main.js` with exactly `env` (plus PATH), on a free loopback port; resolves once it listens. */
export async function startApiProcess(name: string, env: Record<string, string>, timeoutMs = 90_000): Promise<ApiProcess> {
  if (!fs.existsSync(API_MAIN)) throw new Error(`${API_MAIN} is missing: build the API first (npm run build -w api; npm test does it)`);
  const child = spawn(process.execPath, [API_MAIN], {
    env: { PATH: process.env.PATH ?? '', PORT: '0', HOST: '127.0.0.1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  started.add(child);
  let output = '';
  const exited = new Promise<void>((resolve) =>
    child.once('exit', () => {
      started.delete(child);
      resolve();
    }),
  );
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${name} did not start within ${timeoutMs} ms:\n${output}`)), timeoutMs);
    const read = (chunk: Buffer) => {
      output += chunk.toString('utf8');
      const port = /running at http:\/\/localhost:(\d+)\//.exec(output)?.[1];
      if (port) {
        clearTimeout(timer);
        resolve(`http://127.0.0.1:${port}`);
      }
    };
    child.stdout!.on('data', read);
    child.stderr!.on('data', read);
    void exited.then(() => {
      clearTimeout(timer);
      reject(new Error(`${name} exited during start-up (code ${child.exitCode}):\n${output}`));
    });
  }).catch(async (error: unknown) => {
    child.kill('SIGKILL');
    await exited;
    throw error;
  });
  const pid = child.pid!;
  const alive = () => child.exitCode === null && child.signalCode === null;
  return {
    name,
    url,
    pid,
    output: () => output,
    exited,
    freeze: () => process.kill(pid, 'SIGSTOP'),
    thaw: () => process.kill(pid, 'SIGCONT'),
    kill: async () => {
      if (alive()) child.kill('SIGKILL');
      await exited;
    },
    stop: async (graceMs = 10_000) => {
      if (!alive()) return;
      // A frozen process would never see SIGTERM.
      process.kill(pid, 'SIGCONT');
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
      await exited;
      clearTimeout(timer);
    },
  };
}

export const BACKEND_COOKIE = 'cellwise_backend';

export interface StickyProxy {
  url: string;
  /** Which backend (index into the targets) served each request, in order. */
  served: Array<{ backend: number; method: string; path: string; upgrade: boolean }>;
  /** The Cookie header that pins a client to one backend. */
  pin: (backend: number) => string;
  close: () => Promise<void>;
}

function backendOf(cookie: string | undefined, count: number): number | null {
  const match = new RegExp(`(?:^|;\\s*)${BACKEND_COOKIE}=(\\d+)`).exec(cookie ?? '');
  const index = match ? Number(match[1]) : NaN;
  return Number.isInteger(index) && index >= 0 && index < count ? index : null;
}

/**
 * http-proxy in front of `targets`, sticky by cookie (as HAProxy's `cookie … insert` or nginx's sticky
 * cookie): a client without the cookie is given the next backend round-robin and the cookie naming it;
 * with it, every request (WebSocket upgrades too) goes to that backend. Sticky because a Server-Sent Events
 * or Long Polling connection lives on one instance: its later polls and sends must reach that instance.
 * Adds X-Forwarded-For/-Proto/-Port (xfwd). A dead backend answers 502.
 */
export async function startStickyProxy(targets: readonly string[]): Promise<StickyProxy> {
  const proxy = httpProxy.createProxyServer({ xfwd: true, ws: true });
  const served: StickyProxy['served'] = [];
  let next = 0;
  const pick = (req: http.IncomingMessage, upgrade: boolean) => {
    const pinned = backendOf(req.headers.cookie, targets.length);
    const backend = pinned ?? next++ % targets.length;
    served.push({ backend, method: req.method ?? 'GET', path: req.url ?? '', upgrade });
    return { backend, pinned: pinned !== null };
  };
  proxy.on('error', (error, _req, res) => {
    if (res instanceof http.ServerResponse) {
      if (!res.headersSent) res.writeHead(502, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ message: `Bad gateway: ${error.message}` }));
    } else res.destroy();
  });
  const server = http.createServer((req, res) => {
    const { backend, pinned } = pick(req, false);
    if (!pinned) res.setHeader('set-cookie', `${BACKEND_COOKIE}=${backend}; Path=/; HttpOnly; SameSite=Lax`);
    proxy.web(req, res, { target: targets[backend] });
  });
  server.on('upgrade', (req: http.IncomingMessage, socket, head: Buffer) => {
    const { backend } = pick(req, true);
    proxy.ws(req, socket, head, { target: targets[backend] });
  });
  const sockets = new Set<Socket>();
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  // Clients may still connect from any 127.0.0.x, each a distinct address to the instances behind.
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    served,
    pin: (backend) => `${BACKEND_COOKIE}=${backend}`,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      proxy.close();
    },
  };
}

export interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
  json: <T = unknown>() => T;
}

/** One HTTP request from a chosen loopback source address (fetch cannot choose it). */
export function request(
  url: string,
  options: { method?: string; headers?: Record<string, string>; body?: Buffer | string; from?: string } = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: options.method ?? 'GET', headers: options.headers, localAddress: options.from, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body, json: <T>() => JSON.parse(body) as T });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(options.body);
  });
}
