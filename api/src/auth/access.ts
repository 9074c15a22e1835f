import { enterRequestOperator } from '../db/operator-scope';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ANONYMOUS, CAPABILITIES, denialOf, type Capability } from 'shared-auth/policy';
import type { AuthRuntime, Session } from './runtime';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Who may call the route, as the access policy names it. Every `/api` route must say. */
    access?: Capability;
    /**
     * Whether the session token may come as `access_token` in the query string (docs/architecture.md#accounts-sessions-and-abuse-limits): only where
     * no header can be set — the hub, the job dashboard, downloads opened in a new tab. Elsewhere a
     * token in a URL would end up in browser history, proxies and logs, so it is ignored.
     */
    queryToken?: boolean;
  }
  interface FastifyRequest {
    session: Session | null;
  }
}

export const UNAUTHENTICATED_MESSAGE = 'Please sign in to continue.';
export const EXPIRED_MESSAGE = 'Your session has expired or is no longer valid. Please sign in again.';
export const FORBIDDEN_MESSAGE = 'You are not allowed to do this.';

/** swagger-ui registers its own routes and cannot declare access; the API description is public. */
const DOCS_PREFIX = '/api/docs';

function isApiPath(url: string): boolean {
  const lower = url.toLowerCase();
  return lower === '/api' || lower.startsWith('/api/');
}

/** The bearer token, or the `access_token` query parameter on the routes that declare `queryToken`. */
export function tokenOf(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (typeof header === 'string') {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
    if (match?.[1]) return match[1];
  }
  if (request.routeOptions.config?.queryToken !== true) return null;
  const query = request.query as Record<string, unknown> | undefined;
  const fromQuery = query?.access_token;
  return typeof fromQuery === 'string' && fromQuery !== '' ? fromQuery : null;
}

/**
 * The one access check. Every `/api` route declares `config: { access: <Capability> }` (a route
 * without one stops the server from starting), and each request is judged by the shared policy
 * before its body is even parsed. Must be registered before any route.
 */
export function registerAccessControl(app: FastifyInstance, runtime: AuthRuntime): void {
  app.decorateRequest('session', null);

  app.addHook('onRoute', (route) => {
    if (!isApiPath(route.url)) return;
    if (route.url.toLowerCase().startsWith(DOCS_PREFIX)) {
      route.config = { ...route.config, access: 'public' };
      return;
    }
    const access = route.config?.access;
    if (access === undefined) {
      throw new Error(`${String(route.method)} ${route.url} declares no access: add config: { access: <capability> } (see shared-auth/policy)`);
    }
    if (!(CAPABILITIES as readonly string[]).includes(access)) {
      throw new Error(`${String(route.method)} ${route.url} declares an unknown access "${String(access)}"`);
    }
  });

  app.addHook('onRequest', async (request, reply) => {
    request.session = null;
    const access = request.routeOptions.config?.access;
    // Not an API route (console pages, remotes, not-found): nothing to judge.
    if (access === undefined) return;
    const token = tokenOf(request);
    // Read once, here: handlers and their schemas never see the token, and it is not echoed anywhere.
    if (request.routeOptions.config?.queryToken === true) delete (request.query as Record<string, unknown> | undefined)?.access_token;
    if (token) request.session = await runtime.authenticate(token);
    // The operator whose data this request reads and writes: the user's current one, as the user record says now.
    enterRequestOperator(request.session?.dataOperatorId ?? null);
    const denial = denialOf(request.session?.principal ?? ANONYMOUS, access);
    if (denial === 'unauthenticated') return reply.code(401).send({ message: token ? EXPIRED_MESSAGE : UNAUTHENTICATED_MESSAGE });
    if (denial !== null) return reply.code(403).send({ message: FORBIDDEN_MESSAGE });
  });
}
