import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { loadConfig } from '../src/config';
import { PAGE_TITLE_MARK, pageTitles } from '../src/web/frontends';
import { testApp, fakeWebRoot } from './support/app';
import { TEST_DATABASES, type TestDatabase } from './support/databases';

/** The text of the start frame's title element in a served console page ('' when untitled). */
function frameTitle(html: string): string {
  const m = /<div class="cw-boot-title">(.*?)<\/div>/.exec(html);
  if (!m) throw new Error('the page has no start frame');
  return m[1] === PAGE_TITLE_MARK ? '' : m[1]!;
}

describe('the console page opens with a start frame titled for the page (shell/src/boot-frame.html)', () => {
  const [sqlite] = TEST_DATABASES;
  let database: TestDatabase;
  let app: FastifyInstance;

  beforeAll(async () => {
    database = await sqlite!.open();
    // Management is deployed elsewhere: this server has no navigation of its own to read.
    ({ app } = await testApp(database, { REMOTE_MANAGEMENT_URL: 'https://cdn.example.pt/management/mf-manifest.json' }));
  });
  afterAll(async () => {
    await app.close();
    await database.dispose();
  });

  const titleAt = async (url: string) => frameTitle((await app.inject({ url })).body);

  test("a remote's page takes its route's title from the remote's navigation.json, whatever the case or a trailing slash", async () => {
    expect(await titleAt('/tracking/commissioningplan')).toBe('Commissioning Plan');
    expect(await titleAt('/Tracking/CommissioningPlan/')).toBe('Commissioning Plan');
    expect(await titleAt('/tracking/commissioningplan?filter=x')).toBe('Commissioning Plan');
  });

  test("the shell's own pages have theirs; `/` is home's", async () => {
    expect(await titleAt('/home')).toBe('Welcome to Cellwise');
    expect(await titleAt('/management/settings/general')).toBe('Settings');
    expect(await titleAt('/notifications')).toBe('Notifications');
    expect(await titleAt('/')).toBe('Welcome to Cellwise');
  });

  test('a title is written as text, never as markup', async () => {
    const html = (await app.inject({ url: '/tracking/tracker' })).body;
    expect(frameTitle(html)).toBe('Tracker &#60;all&#62;');
    expect(html).not.toContain('<all>');
  });

  test('a path no page has, and the pages of a remote deployed elsewhere, get the frame without a title', async () => {
    expect(await titleAt('/tracking/nosuchpage')).toBe('');
    expect(await titleAt('/tracking')).toBe('');
    expect(await titleAt('/management/operators/details/general')).toBe('');
    expect(await titleAt('/errors/error-404')).toBe('');
  });

  test('the signed-out pages have no start frame', async () => {
    expect((await app.inject({ url: '/auth/login' })).body).not.toContain('cw-boot');
  });
});

describe('pageTitles', () => {
  test("follows a remote's rebuilt navigation.json, and optional route parameters", () => {
    const webRoot = fakeWebRoot();
    const titleOf = pageTitles(loadConfig({ WEB_ROOT: webRoot, DATA_DIR: path.join(webRoot, 'data'), LOG_LEVEL: 'silent' }));
    expect(titleOf('/management/operators/details')).toBe('Operator details');
    expect(titleOf('/management/operators/details/users')).toBe('Operator details');
    expect(titleOf('/management/operators/details/users/extra')).toBeNull();
    expect(titleOf('/tracking/commissioningplan')).toBe('Commissioning Plan');

    const file = path.join(webRoot, 'mfe-tracking', 'dist', 'navigation.json');
    const routes = [{ path: '/tracking/commissioningplan', title: 'Rollout Plan', capability: 'canTrack' }];
    fs.writeFileSync(file, JSON.stringify({ id: 'tracking', routes, menu: [] }));
    const later = new Date(Date.now() + 5000);
    fs.utimesSync(file, later, later);
    expect(titleOf('/tracking/commissioningplan')).toBe('Rollout Plan');

    // Half written while it is being rebuilt: no title, and no error.
    fs.writeFileSync(file, '{"id":');
    const latest = new Date(Date.now() + 10_000);
    fs.utimesSync(file, latest, latest);
    expect(titleOf('/tracking/commissioningplan')).toBeNull();
  });
});
