import type { FastifyInstance, RouteOptions } from 'fastify';
import type { Capability } from 'shared-auth/policy';

/**
 * Every route an app registers, as Fastify handed it to `onRoute` (method, full url, config, schema).
 *
 * Fastify keeps no list of its routes, and `buildApp` makes its instance itself, so a suite that
 * wants them replaces the `fastify` module with one whose instances record them from the very start,
 * before any plugin or route is registered:
 *
 *     jest.mock('fastify', () => jest.requireActual<{ recordingFastify: () => unknown }>('./support/routes').recordingFastify());
 *
 * Then `recordedRoutes(app)` lists what that app registered: a route added tomorrow shows up there
 * without anyone listing it.
 */
export interface RecordedRoute {
  method: string;
  /** As registered, prefix included (e.g. `/api/Tracker/GetTracker`). */
  url: string;
  options: RouteOptions;
}

const RECORDS = new WeakMap<object, RecordedRoute[]>();

type FastifyFactory = (...args: unknown[]) => FastifyInstance;

/** The `fastify` module, but each instance it makes records its routes (read them with `recordedRoutes`). */
export function recordingFastify(): unknown {
  const actual = jest.requireActual<FastifyFactory & Record<string, unknown>>('fastify');
  const recording = (...args: unknown[]): FastifyInstance => {
    const app = actual(...args);
    const routes: RecordedRoute[] = [];
    RECORDS.set(app, routes);
    app.addHook('onRoute', (options) => {
      const methods = Array.isArray(options.method) ? options.method : [options.method];
      // The options object itself: hooks registered later (the access hook) may still fill it in.
      for (const method of methods) routes.push({ method: String(method).toUpperCase(), url: options.url ?? '', options });
    });
    return app;
  };
  return Object.assign(recording, actual, { default: recording, fastify: recording });
}

/** The routes `app` registered, in order; throws if the app was not made by `recordingFastify`. */
export function recordedRoutes(app: FastifyInstance): RecordedRoute[] {
  const routes = RECORDS.get(app);
  if (!routes) throw new Error("This app does not record its routes: jest.mock('fastify') with recordingFastify() before importing the app");
  return routes;
}

/** The access the route declares (`config.access`), as the access hook left it. */
export function declaredAccess(route: RecordedRoute): Capability | undefined {
  return (route.options.config as { access?: Capability } | undefined)?.access;
}

export const routeKey = (method: string, url: string) => `${method.toUpperCase()} ${url.toLowerCase()}`;

/**
 * Recorded routes that are not the API's own, each with the reason; everything else is an API route.
 * Kept short and explicit: a route lands here only for a reason written down.
 */
export const NOT_API_ROUTES: ReadonlyArray<{ reason: string; matches: (route: RecordedRoute, all: readonly RecordedRoute[]) => boolean }> = [
  {
    reason: 'outside /api: the console pages, remotes and their static files (no access check, by design)',
    matches: (route) => !/^\/api(\/|$)/i.test(route.url),
  },
  {
    reason: "/api/docs*: swagger-ui's own routes, made public by the access hook",
    matches: (route) => /^\/api\/docs(\/|$|\*)/i.test(route.url),
  },
  {
    reason: "HEAD twin of a GET route: Fastify's automatic HEAD (same handler, same config)",
    matches: (route, all) =>
      route.method === 'HEAD' &&
      all.some((other) => other.method === 'GET' && other.url.toLowerCase() === route.url.toLowerCase() && other.options.config === route.options.config),
  },
];

/** The API routes of `app` (one entry per method), and the others with why they are left out. */
export function apiRoutesOf(app: FastifyInstance): { api: RecordedRoute[]; skipped: Array<{ route: RecordedRoute; reason: string }> } {
  const all = recordedRoutes(app);
  const api: RecordedRoute[] = [];
  const skipped: Array<{ route: RecordedRoute; reason: string }> = [];
  for (const route of all) {
    const rule = NOT_API_ROUTES.find((r) => r.matches(route, all));
    if (rule) skipped.push({ route, reason: rule.reason });
    else api.push(route);
  }
  return { api, skipped };
}
