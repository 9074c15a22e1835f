import type { RemoteLocation } from 'shared-ui';
import { RUNTIME_CONFIG_ELEMENT_ID, fetchRuntimeConfig, forgetManifest, loadNavigation, loadPage, navigationUrl, preloadPage, remoteOfPath } from './remotes';
import { getRemoteHealth } from './remoteHealth';

const registerRemotes = jest.fn();
const loadRemote = jest.fn();
jest.mock('@module-federation/enhanced/runtime', () => ({
  registerRemotes: (...args: unknown[]) => registerRemotes(...args),
  loadRemote: (...args: unknown[]) => loadRemote(...args),
}));

const tracking: RemoteLocation = {
  id: 'tracking',
  name: 'mfe_tracking',
  entry: '/remotes/mfe-tracking/mf-manifest.json',
  prefixes: ['/tracking'],
  groups: ['tracking'],
};
const NAVIGATION = {
  id: 'tracking',
  routes: [{ path: '/tracking/tracker', title: 'Tracker', capability: 'canTrack' }],
  menu: [{ group: 'tracking', label: 'Tracker', path: '/tracking/tracker', order: 1, capability: 'canTrack', icon: null }],
};
const Tracker = () => null;
const MANIFEST = {
  id: 'tracking',
  routes: [{ path: '/tracking/tracker', title: 'Tracker', capability: 'canTrack', load: async () => ({ default: Tracker }) }],
  menu: [],
};

function answer(status: number, body: unknown) {
  global.fetch = jest.fn().mockResolvedValue({ ok: status < 400, status, json: async () => body }) as unknown as typeof fetch;
}

beforeEach(() => {
  registerRemotes.mockReset();
  loadRemote.mockReset();
  forgetManifest(tracking.name);
});

describe('a remote from its navigation.json, its code when a page opens', () => {
  test('navigation.json is read beside the entry the runtime config names, on any origin', () => {
    expect(navigationUrl(tracking)).toBe(`${window.location.origin}/remotes/mfe-tracking/navigation.json`);
    expect(navigationUrl({ ...tracking, entry: 'https://cdn.example/tracking/v2/mf-manifest.json' })).toBe('https://cdn.example/tracking/v2/navigation.json');
  });

  test('a path belongs to the remote one of whose prefixes holds it', () => {
    const management: RemoteLocation = { ...tracking, name: 'mfe_management', prefixes: ['/management/operators', '/management/users'] };
    expect(remoteOfPath([tracking, management], '/tracking/tracker')?.name).toBe('mfe_tracking');
    expect(remoteOfPath([tracking, management], '/management/users')?.name).toBe('mfe_management');
    expect(remoteOfPath([tracking, management], '/management/settings/general')).toBeUndefined();
    expect(remoteOfPath([tracking, management], '/trackingfoo')).toBeUndefined();
  });

  test('a sound navigation makes the area ready without loading any of its code', async () => {
    answer(200, NAVIGATION);
    await expect(loadNavigation(tracking)).resolves.toEqual(NAVIGATION);
    expect(getRemoteHealth().status.mfe_tracking).toBe('ready');
    expect(registerRemotes).not.toHaveBeenCalled();
    expect(loadRemote).not.toHaveBeenCalled();
  });

  test('a dead or broken navigation marks the area unavailable, saying why', async () => {
    answer(404, {});
    await expect(loadNavigation(tracking)).rejects.toThrow('/remotes/mfe-tracking/navigation.json answered 404');
    expect(getRemoteHealth().status.mfe_tracking).toBe('unavailable');
    answer(200, { ...NAVIGATION, routes: [{ path: 'tracker', title: 'Tracker', capability: 'canTrack' }] });
    await expect(loadNavigation(tracking)).rejects.toThrow('mfe_tracking has an invalid navigation.json: route tracker does not start with /');
    expect(getRemoteHealth().errors.mfe_tracking).toContain('invalid navigation.json');
  });

  test("the first page opened loads the remote's manifest once; the next pages reuse it", async () => {
    loadRemote.mockResolvedValue({ default: MANIFEST });
    await expect(loadPage(tracking, '/tracking/tracker')).resolves.toEqual({ default: Tracker });
    await loadPage(tracking, '/tracking/tracker');
    expect(registerRemotes).toHaveBeenCalledTimes(1);
    expect(registerRemotes).toHaveBeenCalledWith([{ name: 'mfe_tracking', entry: tracking.entry }], { force: true });
    expect(loadRemote).toHaveBeenCalledTimes(1);
    await expect(loadPage(tracking, '/tracking/nowhere')).rejects.toThrow(
      'mfe_tracking lists /tracking/nowhere in its navigation.json but its manifest has no such page',
    );
  });

  test('the page being opened is loaded ahead by its route, parameters included, through the one manifest load', async () => {
    const details = jest.fn(async () => ({ default: Tracker }));
    loadRemote.mockResolvedValue({
      default: {
        ...MANIFEST,
        routes: [...MANIFEST.routes, { path: '/tracking/tracker/details/:tab?', title: 'Details', capability: 'canTrack', load: details }],
      },
    });
    await preloadPage(tracking, '/tracking/tracker/details/history');
    expect(details).toHaveBeenCalledTimes(1);
    await preloadPage(tracking, '/tracking/elsewhere');
    expect(details).toHaveBeenCalledTimes(1);
    expect(loadRemote).toHaveBeenCalledTimes(1);
  });

  test('a remote whose code fails is unavailable, and the next try fetches it again', async () => {
    loadRemote.mockRejectedValueOnce(new Error('remoteEntry.js: 502'));
    await loadPage(tracking, '/tracking/tracker').catch(() => undefined);
    expect(getRemoteHealth().status.mfe_tracking).toBe('unavailable');
    loadRemote.mockResolvedValue({ default: MANIFEST });
    await expect(loadPage(tracking, '/tracking/tracker')).resolves.toEqual({ default: Tracker });
    expect(registerRemotes).toHaveBeenCalledTimes(2);
    expect(registerRemotes.mock.calls[1]).toEqual([[{ name: 'mfe_tracking', entry: tracking.entry }], { force: true }]);
  });
});

describe('the runtime config', () => {
  const CONFIG = { remotes: [tracking] };
  const carry = (text: string) => {
    const element = document.createElement('script');
    element.type = 'application/json';
    element.id = RUNTIME_CONFIG_ELEMENT_ID;
    element.textContent = text;
    document.head.append(element);
  };
  afterEach(() => document.getElementById(RUNTIME_CONFIG_ELEMENT_ID)?.remove());

  test('is read from the page when the server put it there, without a request', async () => {
    carry(JSON.stringify(CONFIG));
    global.fetch = jest.fn() as unknown as typeof fetch;
    await expect(fetchRuntimeConfig()).resolves.toEqual(CONFIG);
    expect(global.fetch).not.toHaveBeenCalled();
  });

  test('is fetched from /config/remotes.json when the page carries none, or none that reads as one', async () => {
    for (const text of [null, '{"remotes":', '{"remote":[]}', 'null']) {
      if (text !== null) carry(text);
      answer(200, CONFIG);
      await expect(fetchRuntimeConfig()).resolves.toEqual(CONFIG);
      expect(global.fetch).toHaveBeenCalledWith('/config/remotes.json', { cache: 'no-store' });
      document.getElementById(RUNTIME_CONFIG_ELEMENT_ID)?.remove();
    }
  });

  test('a refused fetch says which answer it got', async () => {
    answer(503, {});
    await expect(fetchRuntimeConfig()).rejects.toThrow('/config/remotes.json answered 503');
  });
});
