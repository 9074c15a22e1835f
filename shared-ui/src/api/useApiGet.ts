import { startTransition, useCallback, useEffect, useState } from 'react';
import { api } from 'shared-auth';

export interface ApiGet<T> {
  data: T;
  /** True until the answer for the current path (and reload) has arrived; the previous data stays meanwhile. */
  loading: boolean;
  /** True when the last request failed (the API client has already shown why). */
  failed: boolean;
  reload: () => void;
}

/**
 * GETs `path` (query string included) through the API client and keeps the answer; a new path, a new
 * `reloadKey` or `reload()` fetches again, and `null` fetches nothing. Answers that arrive after the
 * path changed are dropped, so a slow response never overwrites a newer one. The page shows its own
 * loading state (tables, banners, statistics), so the full-screen overlay stays off.
 */
export function useApiGet<T>(path: string | null, initial: T, reloadKey: string | number = 0): ApiGet<T> {
  const [version, setVersion] = useState(0);
  const requestKey = path === null ? null : `${version}:${reloadKey}:${path}`;
  const [result, setResult] = useState<{ key: string | null; data: T; failed: boolean }>({ key: null, data: initial, failed: false });

  useEffect(() => {
    if (path === null || requestKey === null) return;
    let current = true;
    api
      .get<T>(path, { skipLoading: true })
      .then(({ data }) => {
        // A transition: what the answer redraws is drawn in slices, between the user's own input.
        if (current) startTransition(() => setResult({ key: requestKey, data, failed: false }));
      })
      .catch(() => {
        if (current) setResult((previous) => ({ ...previous, key: requestKey, failed: true }));
      });
    return () => {
      current = false;
    };
  }, [path, requestKey]);

  const reload = useCallback(() => setVersion((v) => v + 1), []);
  return { data: result.data, loading: requestKey !== null && result.key !== requestKey, failed: result.failed, reload };
}
