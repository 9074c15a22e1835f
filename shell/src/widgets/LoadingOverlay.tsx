import { Spin } from 'antd';
import { useEffect, useState } from 'react';
import { useSession } from 'shared-auth';

/** Full-screen overlay while calls that asked for it are in flight; a short delay avoids flicker on fast calls. */
export function LoadingOverlay({ delayMs = 250 }: { delayMs?: number }) {
  const busy = useSession((s) => s.loadingCount > 0);
  const [visible, setVisible] = useState(false);
  useEffect(() => {
    const timer = setTimeout(() => setVisible(busy), busy ? delayMs : 0);
    return () => clearTimeout(timer);
  }, [busy, delayMs]);
  return visible ? <Spin fullscreen size="large" aria-label="Loading" /> : null;
}
