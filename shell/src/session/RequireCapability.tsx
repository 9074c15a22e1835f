import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router-dom';
import { denialOf, principalOf, rememberRedirect, useSession, type Capability } from 'shared-auth';

/**
 * The route guard (specification §4): no or expired token → /auth/login, remembering where the
 * user wanted to go; role, operator or projects not allowed → /errors/error-401. A convenience only:
 * the API checks the same policy on every call.
 */
export function RequireCapability({ capability, children }: { capability: Capability; children: ReactNode }) {
  const token = useSession((s) => s.token);
  const user = useSession((s) => s.user);
  const location = useLocation();
  const denial = denialOf(principalOf({ token, user, instanceId: '', loadingCount: 0 }), capability);
  if (denial === 'unauthenticated') {
    rememberRedirect(location.pathname + location.search);
    return <Navigate to="/auth/login" replace />;
  }
  if (denial) return <Navigate to="/errors/error-401" replace />;
  return <>{children}</>;
}
