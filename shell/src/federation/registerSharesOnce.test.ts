import { ModuleFederation, type ModuleFederationRuntimePlugin } from '@module-federation/enhanced/runtime';
import { registerSharesOnce } from './registerSharesOnce';

/**
 * Counts the runtime's registrations, per share, through its own hook. `since()` counts from the last
 * `reset()`: creating an instance registers its shares once, before any import.
 */
function registrationCounter() {
  const counts = new Map<string, number>();
  const plugin: ModuleFederationRuntimePlugin = {
    name: 'test-registrations',
    afterRegisterShare({ pkgName }) {
      counts.set(pkgName, (counts.get(pkgName) ?? 0) + 1);
    },
  };
  return { counts, plugin, reset: () => counts.clear() };
}

const share = (name: string, shareStrategy: 'loaded-first' | 'version-first' = 'loaded-first') => ({
  [name]: {
    version: '1.0.0',
    get: () => Promise.resolve(() => ({ name })),
    shareConfig: { singleton: true, requiredVersion: '^1.0.0' },
    strategy: shareStrategy,
  },
});

function shell(counter: ModuleFederationRuntimePlugin, shareStrategy: 'loaded-first' | 'version-first' = 'loaded-first', once = true) {
  const instance = new ModuleFederation({
    name: 'shell',
    remotes: [],
    shareStrategy,
    shared: { ...share('a', shareStrategy), ...share('b', shareStrategy) },
    plugins: [counter],
  });
  if (once) registerSharesOnce(instance);
  return instance;
}

describe('registerSharesOnce', () => {
  test('without it, the runtime registers every share again before each shared import (what it removes)', async () => {
    const { counts, plugin, reset } = registrationCounter();
    const instance = shell(plugin, 'loaded-first', false);
    reset();
    for (let i = 0; i < 3; i += 1) await instance.loadShare('a');
    expect(counts.get('b')).toBe(3);
  });

  test('each share is registered once however many imports follow, and each import gets its module', async () => {
    const { counts, plugin, reset } = registrationCounter();
    const instance = shell(plugin);
    reset();
    for (let i = 0; i < 3; i += 1) {
      const a = (await instance.loadShare('a')) as () => { name: string };
      const b = (await instance.loadShare('b')) as () => { name: string };
      expect([a().name, b().name]).toEqual(['a', 'b']);
    }
    expect(Object.fromEntries(counts)).toEqual({ a: 1, b: 1 });
  });

  test('a share added later (initOptions) is registered with the next import, and can be loaded', async () => {
    const { counts, plugin, reset } = registrationCounter();
    const instance = shell(plugin);
    await instance.loadShare('a');
    instance.initOptions({ name: 'shell', remotes: [], shared: share('c') });
    reset();
    const c = (await instance.loadShare('c')) as () => { name: string };
    expect(c().name).toBe('c');
    await instance.loadShare('a');
    // The import after the addition registered the scope again, once; the imports after it did not.
    expect(Object.fromEntries(counts)).toEqual({ a: 1, b: 1, c: 1 });
    await instance.loadShare('b');
    expect(Object.fromEntries(counts)).toEqual({ a: 1, b: 1, c: 1 });
  });

  test("with 'version-first' every call keeps the runtime's behaviour", async () => {
    const { counts, plugin, reset } = registrationCounter();
    const instance = shell(plugin, 'version-first');
    reset();
    for (let i = 0; i < 3; i += 1) await instance.loadShare('a');
    expect(counts.get('b')).toBe(3);
  });

  test('the bundler’s own call (from build) always registers', () => {
    const { counts, plugin, reset } = registrationCounter();
    const instance = shell(plugin);
    reset();
    instance.sharedHandler.initializeSharing('default', { from: 'build' });
    instance.sharedHandler.initializeSharing('default', { from: 'build' });
    expect(counts.get('a')).toBe(2);
  });
});
