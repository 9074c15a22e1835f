import type { ConfigOptions, MessageInstance, MessageType } from 'antd/es/message/interface';
import { useHookOnDemand, type WhenReady } from './hookOnDemand';
import { onDemand } from './onDemand';

const MessageHolder = onDemand(() => import('./holders').then((holders) => ({ default: holders.MessageHolder })));

const KINDS = ['open', 'info', 'success', 'error', 'warning', 'loading'] as const;

/** Each call returns at once a closer that closes antd's own message, and settles when that one does. */
function proxy(whenReady: WhenReady<MessageInstance>): MessageInstance {
  const show =
    (kind: (typeof KINDS)[number]) =>
    (...args: unknown[]): MessageType => {
      let close: (() => void) | null = null;
      let closedEarly = false;
      let settle: (closed: boolean) => void = () => undefined;
      const closed = new Promise<boolean>((resolve) => (settle = resolve));
      whenReady((api) => {
        const shown = (api[kind] as (...a: unknown[]) => MessageType)(...args);
        if (closedEarly) shown();
        else close = shown;
        void shown.then(settle);
      });
      const closer = (() => (close ? close() : void (closedEarly = true))) as MessageType;
      closer.then = (resolve, reject) => closed.then(resolve, reject);
      return closer;
    };
  return {
    ...(Object.fromEntries(KINDS.map((kind) => [kind, show(kind)])) as unknown as Omit<MessageInstance, 'destroy'>),
    destroy: (key) => whenReady((api) => api.destroy(key)),
  };
}

/**
 * What antd's App gets for its `useMessage` import, at build time (tools/webpack, AntdImportsPlugin).
 * The console shows toasts, never antd's messages, so this loads only if a page ever asks for one.
 */
export default function useMessageOnDemand(config?: ConfigOptions) {
  return useHookOnDemand<MessageInstance, ConfigOptions | undefined>(MessageHolder, config, proxy);
}
