import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { test } from '@playwright/test';
import { acceptCookies } from './session';

export const REPO_ROOT = path.resolve(__dirname, '../..');

export interface RunningConsole {
  url: string;
  dataDir: string;
  stop: () => Promise<void>;
}

/** Set by global-setup.ts: a data directory a console has seeded with the demo data, then left. */
export const SEEDED_TEMPLATE_ENV = 'CELLWISE_E2E_SEEDED_DIR';

/** Settings that change what a first start seeds: a console given any of them seeds its own data. */
const SEEDING_SETTINGS = ['DEMO_DATA', 'ADMIN_EMAIL', 'ADMIN_PASSWORD', 'DATABASE_URL'];

/**
 * A new data directory for a console: a copy of the seeded template when there is one and `env` seeds
 * the same way. Every spec file's console used to import the demo network, tracking and logs itself (5.8 s
 * a start on a slow machine, 2.3 s from a copy); a copy gives each the same data, still its own.
 * The token secret is not copied: each console makes its own, as a fresh install does.
 */
function newDataDir(env: NodeJS.ProcessEnv): string {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cellwise-e2e-'));
  const template = process.env[SEEDED_TEMPLATE_ENV];
  if (template && !SEEDING_SETTINGS.some((key) => key in env)) {
    fs.cpSync(template, dataDir, { recursive: true, filter: (from) => path.basename(from) !== 'jwt-secret' });
  }
  return dataDir;
}

/** Starts the built console (api/dist/main.js) on a free port with its own data directory. */
export async function startConsole(env: NodeJS.ProcessEnv = {}): Promise<RunningConsole> {
  // A restart test passes the previous DATA_DIR (and PORT) to come back with the same data.
  const dataDir = env.DATA_DIR ?? newDataDir(env);
  const child: ChildProcess = spawn(process.execPath, [path.join(REPO_ROOT, 'api/dist/main.js')], {
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'warn', DATABASE_URL: '', ...env, DATA_DIR: dataDir },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const url = await new Promise<string>((resolve, reject) => {
    // A first start seeds the demo (migrations, network, tracking, logs): ~6 s alone, but past 30 s on two
    // cores shared with a build; a start that never comes still fails, after 90 s.
    const timer = setTimeout(() => reject(new Error(`console did not start within 90 s:\n${output}`)), 90_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /running at (http:\/\/localhost:\d+)\//.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]!.replace('localhost', '127.0.0.1'));
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.on('exit', (code) => reject(new Error(`console exited with ${code}:\n${output}`)));
  });
  return {
    url,
    dataDir,
    stop: () =>
      new Promise<void>((resolve) => {
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

export interface StaticServer {
  origin: string;
  /** Stops answering, as a crashed deployment would. */
  close: () => Promise<void>;
  /** Serves again on the same port. */
  reopen: () => Promise<void>;
}

/** Serves one remote's build from another origin, the way a separately deployed remote is served. */
export async function serveDirectory(dir: string): Promise<StaticServer> {
  const handler: http.RequestListener = (req, res) => {
    const file = path.join(dir, decodeURIComponent((req.url ?? '/').split('?')[0]!));
    if (!file.startsWith(dir) || !fs.existsSync(file) || fs.statSync(file).isDirectory()) {
      res.writeHead(404).end();
      return;
    }
    const type = file.endsWith('.json') ? 'application/json' : 'application/javascript';
    res.writeHead(200, { 'Content-Type': type, 'Access-Control-Allow-Origin': '*', 'Cache-Control': 'no-cache' });
    fs.createReadStream(file).pipe(res);
  };
  let server = http.createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  return {
    origin: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
    reopen: async () => {
      server = http.createServer(handler);
      await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
    },
  };
}

/**
 * The console of one spec file: started before its first test, stopped after its last, with cookies
 * agreed before each test so the consent banner never covers a button. A test that restarts it
 * (same PORT and DATA_DIR) calls `stop()` and `start(env)`.
 */
export class FileConsole {
  private running: RunningConsole | null = null;

  get url(): string {
    return this.current().url;
  }

  get dataDir(): string {
    return this.current().dataDir;
  }

  async start(env: NodeJS.ProcessEnv = {}): Promise<void> {
    this.running = await startConsole(env);
  }

  /** Stops the console; `url` and `dataDir` still name it, so it can be started again on them. */
  async stop(): Promise<void> {
    await this.running?.stop();
  }

  private current(): RunningConsole {
    if (!this.running) throw new Error('the console of this spec file has not started');
    return this.running;
  }
}

/** Call at the top of a spec file, or inside a `test.describe` for a console of that group alone. */
export function consoleForThisFile(env: NodeJS.ProcessEnv = {}): FileConsole {
  const app = new FileConsole();
  test.beforeAll(() => app.start(env));
  test.afterAll(() => app.stop());
  test.beforeEach(async ({ context }) => {
    await acceptCookies(context, app.url);
  });
  return app;
}
