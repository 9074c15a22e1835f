import { randomBytes, randomUUID } from 'node:crypto';
import http from 'node:http';
import type { Frame, Page, Route } from '@playwright/test';

/**
 * Fake BI servers for the dashboard tests. The real embedding libraries run in the console; what they
 * talk to is faked:
 * - Azure AD, the Power BI REST API and Tableau Server's trusted-ticket endpoint, as one local HTTP
 *   server the console's POWERBI_AUTHORITY_URL, POWERBI_API_URL and TABLEAU_TICKET_URL point at (the
 *   console mints its embed tokens and asks for its tickets there);
 * - the embed pages themselves (Power BI's report page, Tableau's view), served by Playwright into the
 *   dashboard's frame. Each answers the cross-frame protocol its library speaks and records what it
 *   was sent, so a test can read it from the frame.
 */

/** The hosts the console frames: powerbi-client embeds only *.powerbi.com over https. */
export const POWERBI_EMBED_ORIGIN = 'https://cellwise-e2e.powerbi.com';
export const TABLEAU_ORIGIN = 'https://tableau.cellwise-e2e.test';

/** A report and workspace as the record's URL names them (GUIDs). */
export const REPORT_ID = '0f9c2c5e-6a11-4f43-9d3e-3a6c1b7e2d10';
export const GROUP_ID = '5b7e1c2a-8d4f-4e6b-a1c3-9f0e2d4b6a88';
export const POWERBI_REPORT_URL = `${POWERBI_EMBED_ORIGIN}/reportEmbed?reportId=${REPORT_ID}&groupId=${GROUP_ID}`;
export const TABLEAU_VIEW_URL = `${TABLEAU_ORIGIN}/views/Rollout/Overview`;

export interface FakeBiServices {
  /** Base of the fake Azure AD (POWERBI_AUTHORITY_URL). */
  authorityUrl: string;
  /** Base of the fake Power BI REST API (POWERBI_API_URL). */
  apiUrl: string;
  /** Embed tokens handed out by GenerateToken, in order. */
  readonly issued: string[];
  /** While true, GenerateToken answers 503, as a Power BI outage would. */
  failing: boolean;
  /** Where the console asks Tableau for trusted tickets (TABLEAU_TICKET_URL; the endpoint is `<it>/trusted`). */
  tableauTicketUrl: string;
  /** Trusted tickets handed out, in order, with the form each was asked for by. */
  readonly tickets: Array<{ ticket: string; form: Record<string, string> }>;
  close: () => Promise<void>;
}

/**
 * Azure AD's client-credentials token endpoint, Power BI's GenerateToken and Tableau's /trusted. Each
 * Power BI embed token lives `tokenLifetimeMs` (short, so the page's in-place renewal happens within a
 * test) and is numbered, so a test can tell the first from its replacement. Each trusted ticket is new,
 * in Tableau's format (`Base64(UUIDv4):<24 random characters>`), for a form that names a username.
 */
export async function startFakeBi(tokenLifetimeMs: number): Promise<FakeBiServices> {
  const issued: string[] = [];
  const tickets: FakeBiServices['tickets'] = [];
  const aadToken = `aad-${Math.random().toString(36).slice(2)}`;
  const state = { failing: false };
  const json = (res: http.ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  };
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      const url = req.url ?? '/';
      if (req.method === 'POST' && /^\/aad\/[^/]+\/oauth2\/v2\.0\/token$/.test(url)) {
        const form = new URLSearchParams(body);
        if (form.get('grant_type') !== 'client_credentials' || !form.get('client_secret')) return json(res, 400, { error: 'invalid_request' });
        return json(res, 200, { token_type: 'Bearer', expires_in: 3599, access_token: aadToken });
      }
      const generate = /^\/api\/v1\.0\/myorg\/groups\/([^/]+)\/reports\/([^/]+)\/GenerateToken$/.exec(url);
      if (req.method === 'POST' && generate) {
        if (req.headers.authorization !== `Bearer ${aadToken}`) return json(res, 401, { error: { code: 'TokenExpired' } });
        if (generate[1] !== GROUP_ID || generate[2] !== REPORT_ID) return json(res, 404, { error: { code: 'ItemNotFound' } });
        if (state.failing) return json(res, 503, { error: { code: 'ServiceUnavailable' } });
        const token = `embed-token-${issued.length + 1}`;
        issued.push(token);
        return json(res, 200, { token, tokenId: `id-${issued.length}`, expiration: new Date(Date.now() + tokenLifetimeMs).toISOString() });
      }
      if (req.method === 'POST' && url === '/tableau/trusted') {
        const form = Object.fromEntries(new URLSearchParams(body));
        const text = (status: number, answer: string) => res.writeHead(status, { 'content-type': 'text/plain' }).end(answer);
        if (req.headers['content-type'] !== 'application/x-www-form-urlencoded' || !form.username) return text(200, '-1');
        const ticket = `${Buffer.from(randomUUID().replace(/-/g, ''), 'hex').toString('base64')}:${randomBytes(18).toString('base64url')}`;
        tickets.push({ ticket, form });
        return text(200, ticket);
      }
      json(res, 404, { error: `no fake for ${req.method} ${url}` });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  return {
    authorityUrl: `${base}/aad`,
    apiUrl: `${base}/api`,
    issued,
    tableauTicketUrl: `${base}/tableau`,
    tickets,
    get failing() {
      return state.failing;
    },
    set failing(value: boolean) {
      state.failing = value;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** What a fake embed page recorded, read from its frame. */
export interface PowerBiFrameLog {
  /** HPM requests the page received from powerbi-client, in order. */
  requests: Array<{ method: string; url: string; body: unknown }>;
}
export interface TableauFrameLog {
  /** Cross-frame commands the page received from tableau-api-js, by name, with their parameters. */
  commands: Array<{ name: string; parameters: string | null }>;
}

/**
 * Power BI's embed page, reduced to the HPM protocol powerbi-client speaks over postMessage
 * (http-post-message over window-post-message-proxy): requests `{ method, url, headers: { id }, body }`
 * are answered `{ statusCode, headers: { id }, body }`; `POST /report/load` → 202, then the report's
 * `loaded` and `rendered` events (`POST /reports/<uid>/events/<name>` to the host); `POST /report/token` →
 * 202. In `error` mode the report raises its `error` event instead of `loaded`.
 */
function powerBiPage(mode: 'load' | 'error'): string {
  return `<!doctype html><html><head><title>Fake Power BI report</title></head>
<body style="margin:0;font:16px sans-serif;background:#f3f2f1"><main id="report" style="padding:24px">Fake Power BI report: waiting for /report/load</main>
<script>
  window.__log = { requests: [] };
  var uid = new URL(location.href).searchParams.get('uid');
  function hostEvent(name, body) {
    parent.postMessage({ method: 'POST', url: '/reports/' + uid + '/events/' + name, headers: { id: 'event-' + name + '-' + Date.now() }, body: body }, '*');
  }
  window.addEventListener('message', function (event) {
    var m = event.data;
    // Answers to this page's own event posts carry a statusCode and no method.
    if (!m || typeof m !== 'object' || typeof m.method !== 'string' || typeof m.url !== 'string') return;
    window.__log.requests.push({ method: m.method, url: m.url, body: m.body === undefined ? null : m.body });
    function reply(statusCode, body) {
      event.source.postMessage({ statusCode: statusCode, headers: { id: m.headers && m.headers.id }, body: body }, '*');
    }
    if (m.method === 'POST' && m.url === '/report/load') {
      if (m.headers && m.headers.uid) uid = m.headers.uid;
      reply(202, null);
      setTimeout(function () {
        if (${JSON.stringify(mode)} === 'error') {
          document.getElementById('report').textContent = 'Fake Power BI report: failed';
          hostEvent('error', { message: 'LoadReportFailed', detailedMessage: 'The fake report refused to load', errorCode: '403', level: 6 });
          return;
        }
        document.getElementById('report').textContent = 'Fake Power BI report: loaded with ' + m.body.accessToken;
        hostEvent('loaded', {});
        hostEvent('rendered', {});
      }, 50);
    } else if (m.method === 'POST' && m.url === '/report/token') {
      reply(202, null);
    } else {
      reply(404, { message: 'The fake report does not answer ' + m.method + ' ' + m.url });
    }
  });
</script></body></html>`;
}

export interface FakeEmbedPages {
  /** How many times the browser loaded a Power BI / Tableau embed page (a reload would count twice). */
  readonly loads: { powerbi: number; tableau: number };
  /** The Power BI answer: load normally, or raise the report's error event. */
  powerBiMode: 'load' | 'error';
  /** The Tableau view URLs requested (trusted path included). */
  readonly tableauUrls: string[];
}

/** Serves the fake embed pages into the page's frames (Playwright intercepts their hosts: nothing leaves the machine). */
export async function routeFakeEmbedPages(page: Page): Promise<FakeEmbedPages> {
  const pages: FakeEmbedPages = { loads: { powerbi: 0, tableau: 0 }, powerBiMode: 'load', tableauUrls: [] };
  await page.route(`${POWERBI_EMBED_ORIGIN}/**`, async (route: Route) => {
    if (route.request().resourceType() !== 'document') return route.fulfill({ status: 404, body: '' });
    pages.loads.powerbi += 1;
    await route.fulfill({ status: 200, contentType: 'text/html', body: powerBiPage(pages.powerBiMode) });
  });
  await page.route(`${TABLEAU_ORIGIN}/**`, async (route: Route) => {
    if (route.request().resourceType() !== 'document') return route.fulfill({ status: 404, body: '' });
    pages.loads.tableau += 1;
    pages.tableauUrls.push(route.request().url());
    await route.fulfill({ status: 200, contentType: 'text/html', body: tableauPage() });
  });
  return pages;
}

/** The frame of a fake embed page, once it is there. */
export function embedFrame(page: Page, origin: string): Frame | undefined {
  return page.frames().find((f) => f.url().startsWith(origin));
}

export async function powerBiLog(frame: Frame): Promise<PowerBiFrameLog> {
  return frame.evaluate(() => (window as unknown as { __log: PowerBiFrameLog }).__log);
}

export async function tableauLog(frame: Frame): Promise<TableauFrameLog> {
  return frame.evaluate(() => (window as unknown as { __log: TableauFrameLog }).__log);
}

/**
 * Tableau's view page, reduced to what tableau-api-js (JavaScript API v2) needs across frames. Messages
 * are comma-joined strings: the view posts `tableau.completed`; the library then sends commands
 * `<name>,<commandId>,<hostId>[,<JSON parameters>]` (hostId is the frame URL's `:apiID`), answered with
 * the same three fields and `{ "api.commandResult": "api.success", "api.commandData": … }`. The client
 * info answer (workbook, active sheet, its size constraints) makes the viz interactive; Export PDF is
 * `api.InvokeCommandCommand` with `{ "api.invokeCommandName": "showExportPDFDialog" }`.
 */
function tableauPage(): string {
  return `<!doctype html><html><head><title>Fake Tableau view</title></head>
<body style="margin:0;font:16px sans-serif;background:#fafafa"><main id="view" style="padding:24px">Fake Tableau view: loading</main>
<script>
  window.__log = { commands: [] };
  var hostId = new URL(location.href).searchParams.get(':apiID');
  window.addEventListener('message', function (event) {
    var data = String(event.data);
    var cut = [];
    for (var i = 0, at = -1; i < 3; i++) { at = data.indexOf(',', at + 1); if (at < 0) break; cut.push(at); }
    var name = cut.length > 0 ? data.slice(0, cut[0]) : data;
    if (name.indexOf('api.') !== 0) return;
    var parameters = cut.length === 3 ? data.slice(cut[2] + 1) : null;
    window.__log.commands.push({ name: name, parameters: parameters });
    var commandId = data.slice(cut[0] + 1, cut[1]);
    function reply(result) {
      event.source.postMessage([name, commandId, hostId, JSON.stringify({ 'api.commandResult': 'api.success', 'api.commandData': result })].join(','), '*');
    }
    if (name === 'api.GetClientInfoCommand') {
      reply({
        workbookName: 'Rollout',
        isDownloadAllowed: true,
        isAutoUpdate: true,
        instanceId: 'fake-instance',
        currentSheetName: 'Overview',
        publishedSheets: [{ name: 'Overview', sheetType: 'worksheet', repositoryUrl: 'Rollout/sheets/Overview', sizeConstraints: { minHeight: 0, minWidth: 0, maxHeight: 0, maxWidth: 0 } }],
      });
      document.getElementById('view').textContent = 'Fake Tableau view: Rollout / Overview';
    } else if (name === 'api.InvokeCommandCommand') {
      reply(null);
      document.getElementById('view').textContent = 'Fake Tableau view: ' + JSON.parse(parameters)['api.invokeCommandName'] + ' requested';
    }
  });
  parent.postMessage('tableau.completed', '*');
</script></body></html>`;
}
