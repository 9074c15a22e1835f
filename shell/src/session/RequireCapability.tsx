import { useEffect, type ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router-dom';
import { denialOf, goToLogin, principalOf, useSession, type Capability } from 'shared-auth';

/** The login page is the signed-out entry (src/signin), so the guard leaves the console by a full load. */
function ToLogin({ from }: { from: string }) {
  useEffect(() => goToLogin(from), [from]);
  return null;
}

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
  if (denial === 'unauthenticated') return <ToLogin from={location.pathname + location.search} />;
  if (denial) return <Navigate to="/errors/error-401" replace />;
  return <>{children}</>;
}
