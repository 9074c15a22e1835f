import { useState, type ComponentType, type ReactElement } from 'react';

/** Runs a step against antd's own API once it is there: at once when loaded, else when it loads. */
export type WhenReady<Api> = (step: (api: Api) => void) => void;

/**
 * The shape of antd's `[api, contextHolder]` hooks (modal, notification, message), for hooks antd's App
 * calls on every page but a page seldom uses: the API answers at once, and antd's own hook is mounted
 * (in `Holder`, loaded on demand, where the App places the holder) the first time any method is called.
 * `proxy` builds the API from `whenReady`; calls made before the hook has loaded wait for it, in order.
 */
export function useHookOnDemand<Api, Config>(
  Holder: ComponentType<{ config: Config; onReady: (api: Api) => void }>,
  config: Config,
  proxy: (whenReady: WhenReady<Api>) => Api,
): readonly [Api, ReactElement | null] {
  const [wanted, setWanted] = useState(false);
  // Made once per holder; `ready` and `waiting` change only in calls and effects, never in a render.
  const [{ api, onReady }] = useState(() => {
    let ready: Api | null = null;
    const waiting: Array<(api: Api) => void> = [];
    return {
      api: proxy((step) => {
        if (ready) return step(ready);
        waiting.push(step);
        setWanted(true);
      }),
      onReady: (loaded: Api) => {
        ready = loaded;
        for (const step of waiting.splice(0)) step(loaded);
      },
    };
  });

  return [api, wanted ? <Holder config={config} onReady={onReady} /> : null] as const;
}
