import useModal, { type HookAPI } from 'antd/es/modal/useModal';
import { useEffect } from 'react';

/** antd's own modal hook, mounted where antd's App places its dialogs, once the first dialog is asked for. */
export default function ModalHolder({ onReady }: { onReady: (api: HookAPI) => void }) {
  const [api, contextHolder] = useModal();
  useEffect(() => onReady(api), [api, onReady]);
  return contextHolder;
}
