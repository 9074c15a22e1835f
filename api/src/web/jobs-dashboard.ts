import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { can } from 'shared-auth/policy';

/** The page's own files; the same path from `api/src/web` and `api/dist/web`. */
export const JOBS_DASHBOARD_DIR = path.join(__dirname, '../../public/jobs');

export const JOBS_DASHBOARD_FORBIDDEN = 'The job dashboard is for Administrators.';

/**
 * Stricter than the console's: the page runs one script and one stylesheet of its own and talks to
 * this origin only. Styles set from the script go through the CSSOM, which `style-src` does not limit.
 */
export const JOBS_DASHBOARD_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "font-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
  "object-src 'none'",
].join('; ');

const ASSETS: Record<string, string> = {
  'dashboard.js': 'text/javascript; charset=utf-8',
  'dashboard.css': 'text/css; charset=utf-8',
};

const FORBIDDEN_PAGE = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <meta name="referrer" content="no-referrer" />
    <title>Job Dashboard — Cellwise</title>
    <link rel="icon" href="/favicon.svg" />
    <link rel="stylesheet" href="/jobs/dashboard.css" />
  </head>
  <body>
    <main class="notice-page">
      <section class="notice" role="alert">
        <h1>Not allowed</h1>
        <p>${JOBS_DASHBOARD_FORBIDDEN}</p>
        <a class="button primary" href="/home">Back to the console</a>
      </section>
    </main>
  </body>
</html>
`;

function page(reply: FastifyReply, status: number, html: string | Buffer): FastifyReply {
  return (
    reply
      .code(status)
      // The first answer carries a token in its address: nothing of it is kept by the browser or a proxy.
      .header('Cache-Control', 'no-store')
      .header('Content-Security-Policy', JOBS_DASHBOARD_CSP)
      .type('text/html; charset=utf-8')
      .send(html)
  );
}

/**
 * The job dashboard (docs/architecture.md#how-a-job-flows, specification §2 and §6): `GET /jobs`, opened from the Administrator's
 * menu in a new tab with the session token as `access_token`. The token is checked here, so a
 * non-Administrator sees a 403 page and a missing or bad token goes to sign-in; the page's script
 * then calls `Jobs/*` with the token as a bearer header and removes it from the address bar. A reload
 * (no token in the address) serves the page, whose script uses the token it kept or the console's own.
 */
export function registerJobsDashboard(app: FastifyInstance): void {
  const indexFile = path.join(JOBS_DASHBOARD_DIR, 'index.html');

  app.get('/jobs', { schema: { hide: true } }, async (request, reply) => {
    const query = request.query as Record<string, unknown> | undefined;
    if (query && 'access_token' in query) {
      const token = query.access_token;
      const session = typeof token === 'string' && token !== '' ? await app.auth.authenticate(token).catch(() => null) : null;
      if (!session) return reply.header('Cache-Control', 'no-store').redirect('/auth/login', 302);
      if (!can(session.principal, 'canSeeJobDashboard')) return page(reply, 403, FORBIDDEN_PAGE);
    }
    return page(reply, 200, await fs.promises.readFile(indexFile));
  });

  for (const [name, type] of Object.entries(ASSETS)) {
    const file = path.join(JOBS_DASHBOARD_DIR, name);
    app.get(`/jobs/${name}`, { schema: { hide: true } }, async (_request, reply) =>
      reply
        .header('Cache-Control', 'no-cache')
        .type(type)
        .send(await fs.promises.readFile(file)),
    );
  }
}
