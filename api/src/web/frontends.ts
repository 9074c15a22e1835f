import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { REMOTE_NAMES, type Config } from '../config';
import { embedOriginOf } from '../dashboards/records';
import { escapeHtml } from '../lib/html';

/** Where each remote owns pages and menu groups; the shell uses it to show a dead remote's area as unavailable. */
const REMOTE_AREAS: Record<(typeof REMOTE_NAMES)[number], { prefixes: string[]; groups: string[] }> = {
  tracking: { prefixes: ['/tracking'], groups: ['tracking'] },
  'planning-validation': { prefixes: ['/planning', '/validation', '/optimization'], groups: ['planning', 'validation', 'optimization'] },
  monitoring: { prefixes: ['/monitoring', '/dashboards'], groups: ['monitoring', 'dashboards'] },
  management: { prefixes: ['/management/operators', '/management/users', '/management/jobs'], groups: ['management'] },
};

export function runtimeConfig(config: Config) {
  return {
    remotes: REMOTE_NAMES.map((name) => ({
      id: name,
      name: `mfe_${name.replace(/-/g, '_')}`,
      entry: config.remoteUrls[name] ?? `/remotes/mfe-${name}/mf-manifest.json`,
      ...REMOTE_AREAS[name],
    })),
  };
}

/**
 * The id of the element that carries the runtime config inside the console's page. The shell reads it
 * there (shell/src/federation/remotes.ts): fetching /config/remotes.json could only start once the
 * shell's code had run, and every remote's navigation and the opened page's code waited one more round
 * trip for it. /config/remotes.json still answers, for tools and for a page served without it.
 */
export const RUNTIME_CONFIG_ELEMENT_ID = 'cellwise-runtime-config';

/**
 * The runtime config as a JSON data block: never executed, so the CSP's script-src does not apply. `<` is
 * escaped so no value can close the element early.
 */
export function runtimeConfigElement(value: ReturnType<typeof runtimeConfig>): string {
  const json = JSON.stringify(value).replace(/</g, '\\u003c');
  return `<script type="application/json" id="${RUNTIME_CONFIG_ELEMENT_ID}">${json}</script>`;
}

/** `element` at the end of the page's head (the end of a page without one): the shell's scripts are deferred, so it is parsed before they run. */
function withBeforeHeadEnd(html: string, element: string): string {
  const at = html.indexOf('</head>');
  return at < 0 ? html + element : `${html.slice(0, at)}${element}${html.slice(at)}`;
}

/** Where the server writes the opened page's title into the console's start frame (shell/src/boot-frame.html). */
export const PAGE_TITLE_MARK = '<!--cw-page-title-->';

/**
 * Titles of the shell's own pages (PageContainer titles of shell/src/routes), by path prefix. The
 * remotes' titles come from their navigation.json; an e2e test checks both against the drawn pages.
 */
const SHELL_PAGE_TITLES: ReadonlyArray<readonly [prefix: string, title: string]> = [
  ['/home', 'Welcome to Cellwise'],
  ['/notifications', 'Notifications'],
  ['/management/settings', 'Settings'],
];

interface RouteTitle {
  segments: string[];
  title: string;
}

/** `/management/operators/details/:tab?` matches `/management/operators/details` and `…/details/x`, as React Router does (any case). */
function routeMatches(route: RouteTitle, segments: string[]): boolean {
  const required = route.segments.filter((s) => !s.endsWith('?')).length;
  if (segments.length < required || segments.length > route.segments.length) return false;
  return segments.every((segment, i) => {
    const pattern = route.segments[i]!;
    return pattern.startsWith(':') || pattern.toLowerCase() === segment.toLowerCase();
  });
}

const segmentsOf = (pathName: string) => pathName.split('/').filter(Boolean);

/**
 * The title of the console page at a path, for its start frame: the shell's own pages, and the pages of
 * every remote this server serves (its navigation.json, read again when its build changes). A remote
 * deployed elsewhere, or a path no page has, gets the frame without a title.
 */
export function pageTitles(config: Config): (pathName: string) => string | null {
  const local = REMOTE_NAMES.filter((name) => config.remoteUrls[name] === undefined).map((name) => ({
    file: path.join(config.webRoot, `mfe-${name}`, 'dist', 'navigation.json'),
    prefixes: REMOTE_AREAS[name].prefixes,
    read: { mtimeMs: -1, routes: [] as RouteTitle[] },
  }));
  const routesOf = (remote: (typeof local)[number]): RouteTitle[] => {
    try {
      const { mtimeMs } = fs.statSync(remote.file);
      if (mtimeMs !== remote.read.mtimeMs) {
        const navigation = JSON.parse(fs.readFileSync(remote.file, 'utf8')) as { routes?: Array<{ path?: unknown; title?: unknown }> };
        const routes = (navigation.routes ?? []).flatMap((r) =>
          typeof r.path === 'string' && typeof r.title === 'string' ? [{ segments: segmentsOf(r.path), title: r.title }] : [],
        );
        remote.read = { mtimeMs, routes };
      }
      return remote.read.routes;
    } catch {
      return []; // not built, or being rebuilt: the frame goes without a title
    }
  };
  return (pathName) => {
    const lower = pathName.toLowerCase().replace(/\/+$/, '');
    const shell = SHELL_PAGE_TITLES.find(([prefix]) => lower === prefix || lower.startsWith(`${prefix}/`));
    if (shell) return shell[1];
    const segments = segmentsOf(pathName);
    const remote = local.find((r) => r.prefixes.some((prefix) => lower === prefix || lower.startsWith(`${prefix}/`)));
    return remote ? (routesOf(remote).find((route) => routeMatches(route, segments))?.title ?? null) : null;
  };
}

/** The console's page with its start frame titled for `title` (left untitled when null). */
export function withPageTitle(html: string, title: string | null): string {
  return title === null ? html : html.replace(PAGE_TITLE_MARK, escapeHtml(title));
}

/** Origins of remotes deployed elsewhere: the shell's CSP must let their scripts in. */
function remoteOrigins(config: Config): string[] {
  return Object.values(config.remoteUrls)
    .filter((u) => /^https?:/.test(u))
    .map((u) => new URL(u).origin);
}

/**
 * The BI origins the dashboards frame (docs/architecture.md#reliability-and-security: the embed origins only). The embedding libraries are in
 * the remote's bundle and talk to their frames by postMessage, so no script or connect source is added.
 */
function frameOrigins(config: Config): string[] {
  return [...new Set(config.biServers.map(embedOriginOf))];
}

/**
 * The tile hosts of MAP_TILE_URL as a CSP source: Leaflet's `{s}` subdomains (a, b, c…) become a
 * wildcard host (`https://{s}.tile.openstreetmap.org/…` → `https://*.tile.openstreetmap.org`).
 */
export function tileSource(tileUrl: string): string {
  const url = new URL(tileUrl);
  const host = url.hostname.split('.');
  if (host[0]?.includes('{s}')) host[0] = '*';
  return `${url.protocol}//${host.join('.')}${url.port ? `:${url.port}` : ''}`;
}

/** What a Host header may be to be written into the CSP: a host name or IPv4 address, and a port (CSP has no IPv6 literals). */
const PLAIN_HOST = /^[A-Za-z0-9](?:[A-Za-z0-9.-]{0,251}[A-Za-z0-9])?(?::\d{1,5})?$/;

/**
 * The WebSocket origin of the page itself (the hub, `/api/notificationhub`): `ws:` or `wss:` with the
 * host the browser asked for. CSP Level 3 has `'self'` match it already; older engines (Safari before
 * 15.4) do not, so it is named as well. A Host that is not a plain host name (or an IPv6 address) adds nothing.
 */
export function ownSocketOrigin(protocol: string, host: string | undefined): string | null {
  if (!host || !PLAIN_HOST.test(host)) return null;
  return `${protocol === 'https' ? 'wss' : 'ws'}://${host.toLowerCase()}`;
}

/**
 * `socketOrigin`: the page's own WebSocket origin (ownSocketOrigin). Connections go to the console's own
 * origin and the remotes' only, never to any host (`ws: wss:` let a page script open a WebSocket to anywhere).
 */
export function contentSecurityPolicy(config: Config, socketOrigin: string | null = null): string {
  const remotes = remoteOrigins(config).join(' ');
  const frames = frameOrigins(config);
  return [
    "default-src 'self'",
    `script-src 'self' ${remotes}`.trim(),
    // antd writes its styles at run time (css-in-js).
    "style-src 'self' 'unsafe-inline'",
    `img-src 'self' data: blob: ${tileSource(config.mapTileUrl)}`,
    ["connect-src 'self'", socketOrigin, remotes].filter(Boolean).join(' '),
    // Nothing but the console itself when no BI server is configured.
    `frame-src ${frames.length > 0 ? frames.join(' ') : "'self'"}`,
    "font-src 'self' data:",
    "frame-ancestors 'self'",
    "base-uri 'self'",
    "object-src 'none'",
  ].join('; ');
}

/**
 * Source maps stay on the server, for whoever reads a stack trace there: served, they would hand the
 * whole source to anyone who asks. The builds do not point at them either (hidden-source-map).
 */
const servable = (pathName: string) => !pathName.toLowerCase().endsWith('.map');

/** The signed-out pages (login, recovery, mailed links): answered with their own entry, auth.html. */
const SIGNED_OUT_PAGES = /^\/auth(\/|$)/i;

/**
 * Hashed file names never change content; entry points and manifests must always be revalidated. The
 * path is the file sent, which is the build's `.br` or `.gz` copy when the browser takes one (the build
 * writes them beside every text asset: tools/webpack/compression.js); which of the copies a response
 * holds depends on Accept-Encoding, so caches must key on it.
 */
function cacheHeaders(res: { setHeader: (k: string, v: string) => void }, filePath: string): void {
  const name = path.basename(filePath).replace(/\.(br|gz)$/, '');
  if (/\.[0-9a-f]{8}\.(js|css)$/.test(name)) res.setHeader('Cache-Control', 'public, max-age=31536000, immutable');
  else res.setHeader('Cache-Control', 'no-cache');
  res.setHeader('Vary', 'Accept-Encoding');
}

/**
 * Serves the console: the shell at `/` (client routes fall back to its index.html), the runtime
 * config at `/config/remotes.json`, and each remote's own build under `/remotes/<folder>/`.
 */
export async function registerFrontends(app: FastifyInstance, config: Config): Promise<void> {
  const shellDir = path.join(config.webRoot, 'shell', 'dist');

  app.get('/config/remotes.json', { schema: { hide: true } }, async (_req, reply) => {
    reply.header('Cache-Control', 'no-cache');
    return runtimeConfig(config);
  });

  for (const name of REMOTE_NAMES) {
    const root = path.join(config.webRoot, `mfe-${name}`, 'dist');
    await app.register(async (scope) => {
      await scope.register(fastifyStatic, {
        root,
        prefix: `/remotes/mfe-${name}/`,
        decorateReply: false,
        index: false,
        wildcard: true,
        allowedPath: servable,
        cacheControl: false,
        preCompressed: true,
        setHeaders: (res, filePath) => {
          cacheHeaders(res, filePath);
          // A remote may be loaded by a shell on another origin.
          res.setHeader('Access-Control-Allow-Origin', '*');
        },
      });
    });
  }

  /**
   * The two pages of the shell's build: the console (index.html), and the signed-out pages' own small
   * entry (auth.html, shell/src/signin) for every /auth/ path, so the login page never loads the console.
   */
  const inlineConfig = runtimeConfigElement(runtimeConfig(config));
  const titleOf = pageTitles(config);
  const sendPage = async (reply: FastifyReply, page: 'index.html' | 'auth.html', pathName = '/') => {
    const file = path.join(shellDir, page);
    if (!fs.existsSync(file)) {
      return reply.code(503).type('text/plain').send('The console is not built yet: run `npm run build` (npm start does it for you).');
    }
    const html = await fs.promises.readFile(file, 'utf8');
    const { request } = reply;
    return reply
      .header('Cache-Control', 'no-cache')
      .header('Content-Security-Policy', contentSecurityPolicy(config, ownSocketOrigin(request.protocol, request.host)))
      .type('text/html')
      .send(page === 'index.html' ? withPageTitle(withBeforeHeadEnd(html, inlineConfig), titleOf(pathName)) : html);
  };
  const sendShell = (reply: FastifyReply, pathName = '/') => sendPage(reply, 'index.html', pathName);

  if (fs.existsSync(shellDir)) {
    await app.register(async (scope) => {
      await scope.register(fastifyStatic, {
        root: shellDir,
        prefix: '/',
        decorateReply: false,
        index: false,
        // The shell's files are listed once at start-up, so unknown paths reach the page fallback below.
        wildcard: false,
        allowedPath: servable,
        cacheControl: false,
        preCompressed: true,
        setHeaders: cacheHeaders,
      });
    });
  }

  // `/` goes on to /home at once: its frame is home's.
  app.get('/', { schema: { hide: true } }, async (_req, reply) => sendShell(reply, '/home'));

  app.setNotFoundHandler(async (request, reply) => {
    const url = request.url.split('?')[0] ?? '/';
    // HEAD answers as GET does (Node sends no body): uptime checks ask a console page with HEAD.
    const isPage = (request.method === 'GET' || request.method === 'HEAD') && !/^\/(api|remotes|config)(\/|$)/i.test(url) && !path.extname(url);
    if (isPage) return SIGNED_OUT_PAGES.test(url) ? sendPage(reply, 'auth.html') : sendShell(reply, url);
    return reply.code(404).send({ message: `Not found: ${request.method} ${url}` });
  });
}
