import { useLayoutEffect, type ReactNode } from 'react';
import { closePageScope, openPageScope } from 'shared-auth';

/**
 * One page's lifetime for its reads (shared-auth `pageScope`): opened when the page mounts and closed when
 * it is left, which cancels the reads it still has in flight. A layout effect, so the scope is open before
 * the page's own effects send their first calls, and the old page's scope is closed before the new one's
 * opens. Keyed by the route's pattern where it is used, so moving between a page's tabs (one pattern, a
 * new path) leaves nothing.
 */
export function PageScope({ children }: { children: ReactNode }) {
  useLayoutEffect(() => {
    const scope = openPageScope();
    return () => closePageScope(scope);
  }, []);
  return children;
}
