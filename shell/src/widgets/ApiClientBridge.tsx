import { useEffect } from 'react';
import { useNavigate } from 'react-router-dom';
import { connectApiClient } from 'shared-auth';
import { useToasts } from 'shared-ui';

/** Plugs the shell's toasts and router into the API client every area uses. */
export function ApiClientBridge() {
  const toasts = useToasts();
  const navigate = useNavigate();
  useEffect(() => {
    connectApiClient({
      notify: (message, variant) => toasts.show(message, variant),
      navigate: (path) => navigate(path),
    });
  }, [toasts, navigate]);
  return null;
}
