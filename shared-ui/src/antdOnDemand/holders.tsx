import useMessage from 'antd/es/message/useMessage';
import useModal from 'antd/es/modal/useModal';
import useNotification from 'antd/es/notification/useNotification';
import { useEffect } from 'react';

// antd's own hooks, each mounted where antd's App places its holder, once a page first calls them.

export function ModalHolder({ onReady }: { config: undefined; onReady: (api: ReturnType<typeof useModal>[0]) => void }) {
  const [api, contextHolder] = useModal();
  useEffect(() => onReady(api), [api, onReady]);
  return contextHolder;
}

export function NotificationHolder({
  config,
  onReady,
}: {
  config: Parameters<typeof useNotification>[0];
  onReady: (api: ReturnType<typeof useNotification>[0]) => void;
}) {
  const [api, contextHolder] = useNotification(config);
  useEffect(() => onReady(api), [api, onReady]);
  return contextHolder;
}

export function MessageHolder({ config, onReady }: { config: Parameters<typeof useMessage>[0]; onReady: (api: ReturnType<typeof useMessage>[0]) => void }) {
  const [api, contextHolder] = useMessage(config);
  useEffect(() => onReady(api), [api, onReady]);
  return contextHolder;
}
