import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildApp, type Services } from '../../src/app';
import { loadConfig, type Config } from '../../src/config';
import type { TestDatabase } from './databases';

/** A web root with a minimal built shell and remotes, so serving rules are tested without a webpack build. */
/** The routes of two remotes' navigation.json, as their builds write them (tools/webpack/navigation.js). */
export const FAKE_NAVIGATIONS: Record<string, { id: string; routes: Array<{ path: string; title: string; capability: string }>; menu: [] }> = {
  tracking: {
    id: 'tracking',
    routes: [
      { path: '/tracking/commissioningplan', title: 'Commissioning Plan', capability: 'canTrack' },
      { path: '/tracking/tracker', title: 'Tracker <all>', capability: 'canTrack' },
    ],
    menu: [],
  },
  management: {
    id: 'management',
    routes: [{ path: '/management/operators/details/:tab?', title: 'Operator details', capability: 'canManage' }],
    menu: [],
  },
};

export function fakeWebRoot(): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'cellwise-web-'));
  const write = (file: string, content: string) => {
    fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    fs.writeFileSync(path.join(root, file), content);
  };
  write(
    'shell/dist/index.html',
    '<!doctype html><html><head><title>Cellwise</title></head><body><div id="cw-boot"><div class="cw-boot-title"><!--cw-page-title--></div></div><div id="root"></div></body></html>',
  );
  write('shell/dist/auth.html', '<!doctype html><title>Cellwise</title><div id="root" data-entry="signed-out"></div>');
  write('shell/dist/signin.5e6f7a8b.css', 'body{margin:0}');
  write('shell/dist/main.1a2b3c4d.js', 'console.log("shell")');
  for (const name of ['tracking', 'planning-validation', 'monitoring', 'management']) {
    write(`mfe-${name}/dist/mf-manifest.json`, JSON.stringify({ id: name }));
    write(`mfe-${name}/dist/remoteEntry.js`, 'var x = 1;');
    write(`mfe-${name}/dist/123.0a1b2c3d.js`, 'var chunk = 1;');
    write(`mfe-${name}/dist/navigation.json`, JSON.stringify(FAKE_NAVIGATIONS[name] ?? { id: name, routes: [], menu: [] }));
  }
  return root;
}

/** The app over a test database and a fake web root; `services` adds parts such as a movable clock. */
export async function testApp(
  database: TestDatabase,
  env: NodeJS.ProcessEnv = {},
  services: Partial<Pick<Services, 'clock' | 'jobs'>> = {},
): Promise<{ app: FastifyInstance; config: Config }> {
  const webRoot = fakeWebRoot();
  const config = loadConfig({ WEB_ROOT: webRoot, DATA_DIR: path.join(webRoot, 'data'), LOG_LEVEL: 'silent', ...env });
  const app = await buildApp({ config, db: database.db, dialect: database.dialect, database: database.options, ...services }, { logger: false });
  await app.ready();
  return { app, config };
}
