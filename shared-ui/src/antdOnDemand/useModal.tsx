import type { HookAPI, ModalFuncWithPromise } from 'antd/es/modal/useModal';
import { useCallback, useMemo, useRef, useState, type ReactElement } from 'react';
import { onDemand } from './onDemand';

const ModalHolder = onDemand(() => import('./modalHolder'));

type Kind = keyof HookAPI;
type Instance = ReturnType<ModalFuncWithPromise>;
const KINDS: Kind[] = ['info', 'success', 'error', 'warning', 'confirm'];

/**
 * What antd's App gets for its `useModal` import, at build time (tools/webpack, AntdImportsPlugin).
 * The App calls the hook on every page for `App.useApp().modal`, which only a few management pages use,
 * and antd's hook brings the whole Modal (with Skeleton and the dialog: ≈ 12 KB gz). This one answers
 * with the same API at once and loads antd's hook the first time a dialog is asked for: calls made
 * before it is ready wait for it, and the instance each returns passes `update`, `destroy` and the
 * confirmation on to antd's own.
 */
export default function useModalOnDemand(): readonly [HookAPI, ReactElement | null] {
  const [wanted, setWanted] = useState(false);
  const ready = useRef<HookAPI | null>(null);
  const waiting = useRef<Array<(api: HookAPI) => void>>([]);

  const onReady = useCallback((api: HookAPI) => {
    ready.current = api;
    for (const run of waiting.current.splice(0)) run(api);
  }, []);

  const api = useMemo(() => {
    const open =
      (kind: Kind): ModalFuncWithPromise =>
      (config) => {
        let opened: Instance | null = null;
        const later: Array<(instance: Instance) => void> = [];
        let settle: (confirmed: boolean) => void = () => undefined;
        const confirmed = new Promise<boolean>((resolve) => (settle = resolve));
        const run = (loaded: HookAPI) => {
          opened = loaded[kind](config);
          for (const step of later.splice(0)) step(opened);
          void opened.then(settle, () => undefined);
        };
        if (ready.current) run(ready.current);
        else {
          waiting.current.push(run);
          setWanted(true);
        }
        return {
          destroy: () => (opened ? opened.destroy() : void later.push((instance) => instance.destroy())),
          update: (next) => (opened ? opened.update(next) : void later.push((instance) => instance.update(next))),
          // As antd's own: the confirmation settles once, when the dialog closes, and never fails.
          then: (resolve) => confirmed.then(resolve),
        };
      };
    return Object.fromEntries(KINDS.map((kind) => [kind, open(kind)])) as unknown as HookAPI;
  }, []);

  return [api, wanted ? <ModalHolder onReady={onReady} /> : null] as const;
}
