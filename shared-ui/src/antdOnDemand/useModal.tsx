import type { HookAPI, ModalFuncWithPromise } from 'antd/es/modal/useModal';
import { useHookOnDemand, type WhenReady } from './hookOnDemand';
import { onDemand } from './onDemand';

const ModalHolder = onDemand(() => import('./holders').then((holders) => ({ default: holders.ModalHolder })));

type Instance = ReturnType<ModalFuncWithPromise>;
const KINDS = ['info', 'success', 'error', 'warning', 'confirm'] as const satisfies ReadonlyArray<keyof HookAPI>;

/** Each call returns at once an instance that passes `update`, `destroy` and the confirmation on to antd's own. */
function proxy(whenReady: WhenReady<HookAPI>): HookAPI {
  const open =
    (kind: keyof HookAPI): ModalFuncWithPromise =>
    (config) => {
      let opened: Instance | null = null;
      const later: Array<(instance: Instance) => void> = [];
      let settle: (confirmed: boolean) => void = () => undefined;
      const confirmed = new Promise<boolean>((resolve) => (settle = resolve));
      whenReady((loaded) => {
        opened = loaded[kind](config);
        for (const step of later.splice(0)) step(opened);
        void opened.then(settle, () => undefined);
      });
      return {
        destroy: () => (opened ? opened.destroy() : void later.push((instance) => instance.destroy())),
        update: (next) => (opened ? opened.update(next) : void later.push((instance) => instance.update(next))),
        // As antd's own: the confirmation settles once, when the dialog closes, and never fails.
        then: (resolve) => confirmed.then(resolve),
      };
    };
  return Object.fromEntries(KINDS.map((kind) => [kind, open(kind)])) as unknown as HookAPI;
}

/**
 * What antd's App gets for its `useModal` import, at build time (tools/webpack, AntdImportsPlugin).
 * The App calls the hook on every page for `App.useApp().modal`, which only a few management pages use,
 * and antd's hook brings the whole Modal (with Skeleton and the dialog: ≈ 12 KB gz).
 */
export default function useModalOnDemand() {
  return useHookOnDemand<HookAPI, undefined>(ModalHolder, undefined, proxy);
}
