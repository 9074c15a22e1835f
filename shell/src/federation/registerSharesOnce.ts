import type { ModuleFederation } from '@module-federation/enhanced/runtime';

type Initialize = ModuleFederation['sharedHandler']['initializeSharing'];

/**
 * Makes the federation runtime register an instance's shares in a scope once, not on every shared
 * import. Its `loadShare` calls `initializeSharing` without an init scope, which then registers every
 * share the instance has again (and runs every plugin's register hooks) before each of the page's
 * consumes: 44 times over the shell's 88 shares on a table page, 30 ms of start-up (120 ms on a
 * throttled phone) for a scope that had not changed since the first time.
 *
 * A call is skipped only when it could change nothing: it is one of those `loadShare` calls, the
 * strategy is 'loaded-first' (a share registered before is never replaced, and no remote is
 * initialised), and every share the instance has now was registered in that scope by an earlier call.
 * The bundler's own call (`from: 'build'`), calls with an init scope (a container's init) and any
 * call after a share was added keep the runtime's behaviour.
 */
export function registerSharesOnce(instance: ModuleFederation): void {
  const handler = instance.sharedHandler;
  const initialize: Initialize = handler.initializeSharing.bind(handler);
  const registered = new Map<string, WeakSet<object>>();

  const everyShareRegistered = (scopeName: string) => {
    const seen = registered.get(scopeName);
    if (!seen) return false;
    return Object.values(instance.options.shared).every((versions) => versions.every((shared) => !shared.scope.includes(scopeName) || seen.has(shared)));
  };
  const remember = (scopeName: string) => {
    const seen = registered.get(scopeName) ?? new WeakSet<object>();
    registered.set(scopeName, seen);
    for (const versions of Object.values(instance.options.shared)) for (const shared of versions) if (shared.scope.includes(scopeName)) seen.add(shared);
  };

  handler.initializeSharing = (scopeName = 'default', extraOptions) => {
    const loadedFirst = instance.options.shareStrategy === 'loaded-first' && (extraOptions?.strategy ?? 'loaded-first') === 'loaded-first';
    const repeatable = loadedFirst && extraOptions?.from !== 'build' && !extraOptions?.initScope;
    if (repeatable && everyShareRegistered(scopeName)) return [];
    const promises = initialize(scopeName, extraOptions);
    remember(scopeName);
    return promises;
  };
}
