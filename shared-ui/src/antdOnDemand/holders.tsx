import useMessage from 'antd/es/message/useMessage';
import useModal from 'antd/es/modal/useModal';
import useNotification from 'antd/es/notification/useNotification';
import { useEffect, type ReactElement } from 'react';

/** antd's own `[api, contextHolder]` hook, mounted where antd's App places its holder, once a page first calls it. */
function holderOf<Api, Config>(useAntdHook: (config: Config) => readonly [Api, ReactElement]) {
  return function Holder({ config, onReady }: { config: Config; onReady: (api: Api) => void }) {
    const [api, contextHolder] = useAntdHook(config);
    useEffect(() => onReady(api), [api, onReady]);
    return contextHolder;
  };
}

export const ModalHolder = holderOf((_: undefined) => useModal());
export const NotificationHolder = holderOf(useNotification);
export const MessageHolder = holderOf(useMessage);
