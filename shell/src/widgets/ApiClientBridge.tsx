import { App } from 'antd';
import { useEffect } from 'react';
import { useNavigate } from 'react-router-dom';
import { connectApiClient } from 'shared-auth';

/** Plugs the shell's toasts and router into the API client every area uses. */
export function ApiClientBridge() {
  const { notification } = App.useApp();
  const navigate = useNavigate();
  useEffect(() => {
    connectApiClient({
      notify: (message, variant) => notification[variant]({ title: message }),
      navigate: (path) => navigate(path),
    });
  }, [notification, navigate]);
  return null;
}
