import { randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { loadConfig, type Config } from '../src/config';
import type { BiServer, DashboardRecord, DashboardView, RolloutStats, SiteMapResponse } from 'contracts';
import { RECORD_MESSAGES } from '../src/dashboards';
import { importDemoNetworkIfEmpty } from '../src/network/demo';
import { seed } from '../src/seed';
import { importDemoTrackingIfEmpty } from '../src/tracking';
import { contentSecurityPolicy, tileSource } from '../src/web/frontends';
import { alarmRow, nodeRow } from './fixtures/monitoring-queries/rows';
import { testApp } from './support/app';
import { TEST_DATABASES, type TestDatabase } from './support/databases';
import { headersOf, MISSING_ID, setUpCallers, type Caller, type Callers } from './support/principals';

const CLIENT_SECRET = 'pbi-client-secret-7Qm2-never-shown';
/** Something only Tableau's internals know: its error pages quote it, the console must not. */
const TABLEAU_INTERNAL = 'tableau-internal-detail-5Rw8-never-shown';
const TENANT = 'contoso.onmicrosoft.com';
const REPORT = '11111111-2222-3333-4444-555555555555';
const GROUP = 'aaaaaaaa-bbbb-cccc-dddd-eeeeeeeeeeee';
const POWERBI_URL = `https://app.powerbi.com/reportEmbed?reportId=${REPORT}&groupId=${GROUP}`;
const TABLEAU_URL = 'https://tableau.example.pt/t/rollout/views/Rollout/Overview';
/** A Wednesday of ISO week 2026-W47: the rollout window of 3 weeks is W45–W47 (2 Nov – 22 Nov). */
const NOW = Date.parse('2026-11-18T10:00:00Z');

/**
 * Azure AD and the Power BI REST API in one local server: it signs the service principal in (when it
 * sends the right secret) and mints a new embed token per GenerateToken call, counting both. Its refusals
 * quote the secret, as a careless upstream might: the console must not pass them on.
 */
class FakePowerBi {
  signIns = 0;
  generateCalls = 0;
  refuseSignIn = false;
  refuseGenerate = false;
  readonly accessTokens: string[] = [];
  readonly embedTokens: string[] = [];
  private server = http.createServer((req, res) => void this.handle(req, res));

  async start(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString('utf8');
    const send = (status: number, json: unknown): void => {
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(json));
    };

    if (req.method === 'POST' && req.url === `/${TENANT}/oauth2/v2.0/token`) {
      this.signIns += 1;
      const form = new URLSearchParams(body);
      const good =
        form.get('grant_type') === 'client_credentials' &&
        form.get('client_id') === 'pbi-client' &&
        form.get('client_secret') === CLIENT_SECRET &&
        form.get('scope') === 'https://analysis.windows.net/powerbi/api/.default';
      if (this.refuseSignIn || !good) return send(401, { error: 'invalid_client', error_description: `AADSTS7000215: Invalid client secret ${CLIENT_SECRET}` });
      const token = `aad-access-token-${this.signIns}-${Math.random().toString(36).slice(2)}`;
      this.accessTokens.push(token);
      return send(200, { token_type: 'Bearer', expires_in: 3599, access_token: token });
    }
    if (req.method === 'POST' && req.url === `/v1.0/myorg/groups/${GROUP}/reports/${REPORT}/GenerateToken`) {
      this.generateCalls += 1;
      const bearer = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
      if (this.refuseGenerate || !bearer || !this.accessTokens.includes(bearer) || JSON.parse(body).accessLevel !== 'View') {
        return send(403, { error: { code: 'PowerBINotAuthorizedException', message: `token ${bearer}` } });
      }
      const token = `H4sIembed-token-${this.generateCalls}`;
      this.embedTokens.push(token);
      return send(200, { token, tokenId: `id-${this.generateCalls}`, expiration: '2026-11-18T11:00:00Z' });
    }
    send(404, { error: 'not found' });
  }
}

/**
 * Tableau Server's trusted-ticket endpoint: it counts the POSTs to /trusted, keeps each form it was sent
 * (only a form-encoded body counts as one) and answers a new ticket in Tableau's format
 * (`Base64(UUIDv4):<24 random characters>`), or, as told, `-1`, an error page or a sign-in page, both
 * quoting something internal.
 */
class FakeTableau {
  posts = 0;
  answer: 'ticket' | 'refuse' | 'error' | 'sign-in' = 'ticket';
  readonly forms: Array<Record<string, string>> = [];
  readonly tickets: string[] = [];
  private server = http.createServer((req, res) => void this.handle(req, res));

  async start(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const text = (status: number, body: string): void => {
      res.writeHead(status, { 'content-type': 'text/plain;charset=UTF-8' }).end(body);
    };
    if (req.method !== 'POST' || req.url !== '/trusted') return text(404, `no ${req.method} ${req.url} here`);
    this.posts += 1;
    if (req.headers['content-type'] !== 'application/x-www-form-urlencoded') return text(415, 'not a form');
    this.forms.push(Object.fromEntries(new URLSearchParams(Buffer.concat(chunks).toString('utf8'))));
    if (this.answer === 'refuse') return text(200, '-1');
    if (this.answer === 'error') return text(500, `java.lang.IllegalStateException at ${TABLEAU_INTERNAL}`);
    if (this.answer === 'sign-in') return text(200, `<html><body>Sign in to Tableau Server (${TABLEAU_INTERNAL})</body></html>`);
    const ticket = `${Buffer.from(randomUUID().replace(/-/g, ''), 'hex').toString('base64')}:${randomBytes(18).toString('base64url')}`;
    this.tickets.push(ticket);
    return text(200, ticket);
  }
}

describe.each(TEST_DATABASES)('dashboards on $name', (kind) => {
  let database: TestDatabase;
  let app: FastifyInstance;
  let config: Config;
  let callers: Callers;
  const fake = new FakePowerBi();
  const tableau = new FakeTableau();
  let tableauTicketUrl: string;
  /** Every raw body any dashboards route answered in this suite: scanned for secrets at the end. */
  const bodies: string[] = [];

  beforeAll(async () => {
    const fakeUrl = await fake.start();
    tableauTicketUrl = await tableau.start();
    database = await kind.open();
    ({ app, config } = await testApp(
      database,
      {
        POWERBI_TENANT_ID: TENANT,
        POWERBI_CLIENT_ID: 'pbi-client',
        POWERBI_CLIENT_SECRET: CLIENT_SECRET,
        POWERBI_NAME: 'Rollout Power BI',
        POWERBI_AUTHORITY_URL: fakeUrl,
        POWERBI_API_URL: fakeUrl,
        TABLEAU_URL: 'https://tableau.example.pt',
        TABLEAU_SITE: 'rollout',
        TABLEAU_TICKET_URL: tableauTicketUrl,
      },
      { clock: () => NOW },
    ));
    callers = await setUpCallers(app, database, config);
  });
  afterAll(async () => {
    await app.close();
    await database.dispose();
    await fake.stop();
    await tableau.stop();
  });

  async function send(caller: Caller, options: InjectOptions) {
    const res = await app.inject({ ...options, headers: { ...headersOf(caller), ...(options.headers ?? {}) } });
    bodies.push(res.body);
    return res;
  }
  const inspect = (caller: Caller, query = `dashboardId=2&userId=${caller.userId ?? MISSING_ID}`) => send(caller, { url: `/api/Dashboard/Inspect?${query}` });
  const update = (caller: Caller, record: DashboardRecord) => send(caller, { method: 'PUT', url: '/api/Dashboard/Update', payload: record });
  const ROLLOUT: DashboardRecord = { id: 2, type: 'PowerBI', name: 'Dashboard Rollout', url: POWERBI_URL, serverId: 'powerbi' };

  test('the rollout dashboard exists from the migration, without a server: native charts for any session', async () => {
    for (const caller of [callers.Client, callers.Administrator, callers['CellwiseOS without Operations']]) {
      const res = await inspect(caller);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({
        data: { id: 2, type: 'PowerBI', name: 'Dashboard Rollout', url: '', serverId: null, accessToken: null, expiresAt: null, native: true },
      });
    }
    expect(fake.signIns).toBe(0);
    expect((await inspect(callers.anonymous, 'dashboardId=2&userId=1')).statusCode).toBe(401);
  });

  test("Inspect: someone else's userId is refused, an unknown dashboard is 404", async () => {
    const other = await inspect(callers.Client, `dashboardId=2&userId=${callers.Administrator.userId}`);
    expect(other.statusCode).toBe(403);
    expect(other.json()).toEqual({ message: expect.any(String) });
    const missing = await inspect(callers.Client, `dashboardId=${MISSING_ID}&userId=${callers.Client.userId}`);
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({ message: 'Dashboard not found.' });
  });

  test('GetServers: the configured servers without their credentials, for Administrators only', async () => {
    const res = await send(callers.Administrator, { url: '/api/Dashboard/GetServers' });
    expect(res.statusCode).toBe(200);
    expect(res.json<{ data: BiServer[] }>()).toEqual({
      data: [
        { id: 'powerbi', type: 'PowerBI', name: 'Rollout Power BI', origin: 'https://app.powerbi.com' },
        { id: 'tableau', type: 'Tableau', name: 'Tableau', origin: 'https://tableau.example.pt' },
      ],
    });
    for (const name of ['Manager', 'CellwiseHQ', 'CellwiseOS', 'Client'] as const) {
      expect({ name, status: (await send(callers[name], { url: '/api/Dashboard/GetServers' })).statusCode }).toEqual({ name, status: 403 });
    }
  });

  test('a non-administrator cannot change the record', async () => {
    for (const name of ['Manager', 'CellwiseHQ', 'CellwiseOS', 'Client'] as const) {
      const res = await update(callers[name], ROLLOUT);
      expect({ name, status: res.statusCode }).toEqual({ name, status: 403 });
    }
    const row = await database.db.selectFrom('dashboards').selectAll().where('id', '=', 2).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ server_id: null, url: '', updated_by: null });
  });

  test('Update refuses what cannot be embedded, with the reason, and changes nothing', async () => {
    const admin = callers.Administrator;
    const cases: Array<[DashboardRecord, number, string]> = [
      [{ ...ROLLOUT, serverId: 'qlik' }, 400, RECORD_MESSAGES.unknownServer],
      [{ ...ROLLOUT, serverId: 'tableau' }, 400, RECORD_MESSAGES.serverTypeMismatch],
      [{ ...ROLLOUT, url: POWERBI_URL.replace('https:', 'http:') }, 400, RECORD_MESSAGES.insecureUrl],
      [
        { ...ROLLOUT, url: POWERBI_URL.replace('app.powerbi.com', 'evil.example') },
        400,
        RECORD_MESSAGES.foreignOrigin('Rollout Power BI', 'https://app.powerbi.com'),
      ],
      [{ ...ROLLOUT, url: 'https://app.powerbi.com/reportEmbed?reportId=x' }, 400, RECORD_MESSAGES.powerBiIds],
      [{ ...ROLLOUT, url: '' }, 400, RECORD_MESSAGES.urlRequired('Rollout Power BI')],
      [{ ...ROLLOUT, name: '   ' }, 400, RECORD_MESSAGES.blankName],
      [{ ...ROLLOUT, type: 'Tableau', serverId: 'tableau', url: 'https://tableau.example.pt/t/other/views/A/B' }, 400, RECORD_MESSAGES.tableauSite('rollout')],
      [{ ...ROLLOUT, id: MISSING_ID }, 404, 'Dashboard not found.'],
    ];
    for (const [record, status, message] of cases) {
      const res = await update(admin, record);
      expect({ record, status: res.statusCode, body: res.json<unknown>() }).toEqual({ record, status, body: { message } });
    }
    const row = await database.db.selectFrom('dashboards').selectAll().where('id', '=', 2).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ server_id: null, url: '', updated_by: null });
  });

  test('Power BI: Inspect mints a fresh embed token on every call (sign-in, then GenerateToken)', async () => {
    const admin = callers.Administrator;
    const saved = await update(admin, { ...ROLLOUT, name: '  Dashboard Rollout  ' });
    expect(saved.statusCode).toBe(200);
    expect(saved.json()).toEqual({ data: ROLLOUT });
    const row = await database.db.selectFrom('dashboards').selectAll().where('id', '=', 2).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ server_id: 'powerbi', updated_by: admin.userId, updated_at: new Date(NOW).toISOString() });

    const before = { signIns: fake.signIns, generateCalls: fake.generateCalls };
    const first = await inspect(callers.Client);
    const second = await inspect(callers.Client);
    expect([first.statusCode, second.statusCode]).toEqual([200, 200]);
    const views = [first.json<{ data: DashboardView }>().data, second.json<{ data: DashboardView }>().data];
    expect(views[0]).toEqual({ ...ROLLOUT, accessToken: fake.embedTokens.at(-2), expiresAt: '2026-11-18T11:00:00Z', native: false });
    expect(views[1]!.accessToken).toBe(fake.embedTokens.at(-1));
    expect(views[0]!.accessToken).not.toBe(views[1]!.accessToken);
    expect({ signIns: fake.signIns - before.signIns, generateCalls: fake.generateCalls - before.generateCalls }).toEqual({ signIns: 2, generateCalls: 2 });
  });

  test('Power BI refusing: 502 naming the server and the HTTP status, never the secret it quoted', async () => {
    fake.refuseSignIn = true;
    const signIn = await inspect(callers.Client);
    fake.refuseSignIn = false;
    expect(signIn.statusCode).toBe(502);
    expect(signIn.json()).toEqual({ message: "Power BI server 'Rollout Power BI' refused the service principal's sign-in (HTTP 401)." });

    fake.refuseGenerate = true;
    const generate = await inspect(callers.Client);
    fake.refuseGenerate = false;
    expect(generate.statusCode).toBe(502);
    expect(generate.json()).toEqual({ message: "Power BI server 'Rollout Power BI' refused to generate an embed token (HTTP 403)." });

    expect((await inspect(callers.Client)).statusCode).toBe(200);
  });

  test('a record the environment no longer lets embed (another embed origin): 502 that says why, nothing minted', async () => {
    const moved = await testApp(
      database,
      {
        POWERBI_TENANT_ID: TENANT,
        POWERBI_CLIENT_ID: 'pbi-client',
        POWERBI_CLIENT_SECRET: CLIENT_SECRET,
        POWERBI_AUTHORITY_URL: 'http://127.0.0.1:1',
        POWERBI_EMBED_ORIGIN: 'https://app.powerbigov.us',
      },
      { clock: () => NOW },
    );
    try {
      const token = await moved.app.auth.issueToken(callers.Client.userId!);
      const res = await moved.app.inject({
        url: `/api/Dashboard/Inspect?dashboardId=2&userId=${callers.Client.userId}`,
        headers: { authorization: `Bearer ${token}` },
      });
      bodies.push(res.body);
      expect(res.statusCode).toBe(502);
      expect(res.json()).toEqual({
        message: `Dashboard Rollout cannot be embedded from BI server 'Power BI': ${RECORD_MESSAGES.foreignOrigin('Power BI', 'https://app.powerbigov.us')} An Administrator must correct it.`,
      });
    } finally {
      await moved.app.close();
    }
  });

  test('a record whose server is no longer configured falls back to the native charts', async () => {
    const bare = await testApp(database, {}, { clock: () => NOW });
    try {
      const token = await bare.app.auth.issueToken(callers.Client.userId!);
      const res = await bare.app.inject({
        url: `/api/Dashboard/Inspect?dashboardId=2&userId=${callers.Client.userId}`,
        headers: { authorization: `Bearer ${token}` },
      });
      bodies.push(res.body);
      expect(res.json()).toEqual({ data: { ...ROLLOUT, accessToken: null, expiresAt: null, native: true } });
    } finally {
      await bare.app.close();
    }
  });

  const TABLEAU_RECORD: DashboardRecord = { id: 2, type: 'Tableau', name: 'Dashboard Rollout', url: TABLEAU_URL, serverId: 'tableau' };

  test('Tableau: a trusted ticket per call, asked for the caller on the site, redeemable for 3 minutes', async () => {
    expect((await update(callers.Administrator, TABLEAU_RECORD)).statusCode).toBe(200);
    const signIns = fake.signIns;
    const before = tableau.posts;
    const views: DashboardView[] = [];
    for (const caller of [callers.Client, callers.Client, callers.Manager]) {
      const res = await inspect(caller);
      expect(res.statusCode).toBe(200);
      views.push(res.json<{ data: DashboardView }>().data);
    }
    expect(fake.signIns).toBe(signIns);
    expect(tableau.posts - before).toBe(3);
    expect(tableau.forms.slice(-3)).toEqual([callers.Client, callers.Client, callers.Manager].map((c) => ({ username: c.email, target_site: 'rollout' })));
    expect(views).toEqual(
      tableau.tickets.slice(-3).map((ticket) => ({ ...TABLEAU_RECORD, accessToken: ticket, expiresAt: '2026-11-18T10:03:00Z', native: false })),
    );
    expect(new Set(views.map((v) => v.accessToken)).size).toBe(3);
  });

  test('Tableau refusing (-1), failing or answering a page instead of a ticket: 502 naming the server and the reason, never what it said', async () => {
    const cases: Array<[FakeTableau['answer'], string]> = [
      [
        'refuse',
        "Tableau server 'Tableau' refused to issue a trusted ticket (answered -1): it must list this console server's address as a trusted host, and the user must be a licensed Tableau user on site 'rollout'.",
      ],
      ['error', "Tableau server 'Tableau' refused to issue a trusted ticket (HTTP 500)."],
      ['sign-in', "Tableau server 'Tableau' answered the ticket request with something other than a trusted ticket (HTTP 200)."],
    ];
    const tickets = tableau.tickets.length;
    for (const [answer, message] of cases) {
      tableau.answer = answer;
      const res = await inspect(callers.Client);
      tableau.answer = 'ticket';
      expect({ answer, status: res.statusCode, body: res.json<unknown>() }).toEqual({ answer, status: 502, body: { message } });
    }
    expect(tableau.tickets.length).toBe(tickets);
    expect((await inspect(callers.Client)).json<{ data: DashboardView }>().data.accessToken).toBe(tableau.tickets.at(-1));
  });

  test('Tableau: TABLEAU_USER names the user of every ticket; on the default site no target_site is sent; an unreachable ticket server is a 502', async () => {
    const shared = await testApp(
      database,
      { TABLEAU_URL: 'https://tableau.example.pt', TABLEAU_USER: 'embed-service', TABLEAU_TICKET_URL: tableauTicketUrl },
      { clock: () => NOW },
    );
    const gone = await testApp(database, { TABLEAU_URL: 'https://tableau.example.pt', TABLEAU_TICKET_URL: 'http://127.0.0.1:1' }, { clock: () => NOW });
    try {
      const ask = async (app: FastifyInstance) => {
        const token = await app.auth.issueToken(callers.Client.userId!);
        const res = await app.inject({
          url: `/api/Dashboard/Inspect?dashboardId=2&userId=${callers.Client.userId}`,
          headers: { authorization: `Bearer ${token}` },
        });
        bodies.push(res.body);
        return res;
      };
      const before = tableau.posts;
      const res = await ask(shared.app);
      expect(res.statusCode).toBe(200);
      expect(res.json<{ data: DashboardView }>().data.accessToken).toBe(tableau.tickets.at(-1));
      expect(tableau.posts - before).toBe(1);
      expect(tableau.forms.at(-1)).toEqual({ username: 'embed-service' });

      const unreachable = await ask(gone.app);
      expect(unreachable.statusCode).toBe(502);
      expect(unreachable.json()).toEqual({ message: "Tableau server 'Tableau' could not be reached (connection failed)." });
    } finally {
      await shared.app.close();
      await gone.app.close();
    }
  });

  test('back to native: serverId null draws the console charts again', async () => {
    const record: DashboardRecord = { id: 2, type: 'Tableau', name: 'Dashboard Rollout', url: '', serverId: null };
    expect((await update(callers.Administrator, record)).json()).toEqual({ data: record });
    expect((await inspect(callers.Client)).json()).toEqual({ data: { ...record, accessToken: null, expiresAt: null, native: true } });
  });

  describe('rollout numbers and the site map on known data', () => {
    const db = () => database.db;
    // The rows below are the suite's operator's (Vodafone PT); the demo Client works for NOS.
    const reader = () => callers.CellwiseOS;
    const planRow = (id: number, site: string, technology: string, commDate: string | null) => ({
      id,
      local_id: site,
      technology,
      equip_code: null,
      equip_name: null,
      supplier: null,
      work_type: null,
      comm_date: commDate,
      week: null,
      mk_owner: null,
      imp_owner: null,
      bts_area: null,
      bts_tech: null,
      project: null,
      comments: null,
      stat_response: null,
      bss_tech: null,
      work_order: null,
      local_type: null,
      last_update: null,
    });
    const trackerRow = (id: number, site: string, status: string | null, delivered: string | null) => ({
      id,
      local_id: site,
      equip_name: null,
      supplier: null,
      comm_date: null,
      mk_owner: null,
      imp_owner: null,
      project: null,
      comments: null,
      bss_tech: null,
      local_type: null,
      schedule_status: null,
      date_entry: null,
      week: null,
      day_count: null,
      current_status: status,
      delivered_date: delivered,
      last_update: null,
    });
    const workOrder = (id: number, site: string, type: string | null, status: string, closeDate: string | null = null) => ({
      id,
      site_id: site,
      wo_type: type,
      wo_id: `WO-${id}`,
      wow_status: status,
      wow_close_date: closeDate,
      wow_last_change: null,
      wow_last_update: null,
    });
    const cell = (site: string, name: string, tech: string) => ({
      dn: `SubNetwork=1,MeContext=${site},${name}`,
      name,
      node_name: site,
      site_id: site,
      tech,
      band: null,
      channel: null,
      pci: null,
      psc: null,
      bsic: null,
      lac: null,
      tac: null,
      nr_tac: null,
      azimuth: null,
      cpich_power: null,
      max_tx_power: null,
      plmns: '',
      rach_root_sequence: null,
      ssb: null,
      cell_id: null,
      local_cell_id: null,
      owner_id: null,
      global_id: null,
    });

    beforeAll(async () => {
      for (const table of [
        'tracking_commissioning_plan',
        'tracking_tracker',
        'tracking_work_orders',
        'monitoring_alarms',
        'monitoring_nodes',
        'network_sites',
        'network_cells',
      ] as const) {
        await db().deleteFrom(table).execute();
      }
      await db()
        .insertInto('tracking_commissioning_plan')
        .values([
          planRow(1, 'LX0001', '4G', '2026-11-03T09:00:00Z'),
          planRow(2, 'LX0001', '5G', '2026-11-04T09:00:00Z'),
          planRow(3, 'LX0002', '4G', '2026-11-10T09:00:00Z'),
          planRow(4, 'LX0003', '4G', '2026-11-17T09:00:00Z'),
          planRow(5, 'LX0003', '3G', '2026-11-08T23:59:59Z'),
          planRow(6, 'LX0004', '4G', '2026-10-20T09:00:00Z'),
          planRow(7, 'LX0005', '4G', null),
          planRow(8, 'LX0006', '5G', '2026-11-30T09:00:00Z'),
        ])
        .execute();
      await db()
        .insertInto('tracking_tracker')
        .values([
          trackerRow(1, 'LX0001', 'Closed', '2026-11-16T08:00:00Z'),
          trackerRow(2, 'LX0002', 'Closed', '2026-11-10T08:00:00Z'),
          trackerRow(3, 'LX0003', 'Open', null),
          trackerRow(4, 'LX0004', 'Closed', '2026-10-01T08:00:00Z'),
          trackerRow(5, 'LX0005', null, null),
        ])
        .execute();
      await db()
        .insertInto('tracking_work_orders')
        .values([
          workOrder(1, 'LX0001', 'Installation', 'Closed', '2026-11-16T08:00:00Z'),
          workOrder(2, 'LX0002', 'Installation', 'Open'),
          workOrder(3, 'LX0003', 'Installation', 'In progress'),
          workOrder(4, 'LX0003', 'Integration', 'Open'),
          workOrder(5, 'LX0004', 'Integration', 'Done'),
          workOrder(6, 'LX0005', 'Installation', 'Open', '2026-11-01T08:00:00Z'),
        ])
        .execute();
      const alarm = (node: string, at: string | null, severity: string, n: number) =>
        alarmRow(node, { specific_problem: `Problem ${n}`, mo: `ManagedElement=1,X=${n}`, alarm_at: at, severity, site_id: node });
      await db()
        .insertInto('monitoring_alarms')
        .values([
          alarm('LX0001', '2026-11-02T00:00:00.000Z', 'Critical', 1),
          alarm('LX0001', '2026-11-05T12:00:00.000Z', 'Critical', 2),
          alarm('LX0002', '2026-11-12T12:00:00.000Z', 'Major', 3),
          alarm('LX0002', '2026-11-18T09:00:00.000Z', 'Minor', 4),
          alarm('LX0002', '2026-10-01T09:00:00.000Z', 'Warning', 5),
          alarm('LX0002', null, 'Warning', 6),
        ])
        .execute();

      await db()
        .insertInto('network_sites')
        .values([
          { id: 'LX0001', name: 'Alfama', lat: 38.711, lon: -9.13 },
          { id: 'LX0002', name: 'Belém', lat: 38.697, lon: -9.206 },
          { id: 'LX0003', name: 'Sem coordenadas', lat: null, lon: null },
          { id: 'LX0007', name: 'Sintra', lat: 38.8, lon: -9.38 },
        ])
        .execute();
      await db()
        .insertInto('network_cells')
        .values([
          cell('LX0001', 'L1', '4G'),
          cell('LX0001', 'L2', '4G'),
          cell('LX0001', 'N1', '5G'),
          cell('LX0001', 'B1', 'NB-IoT'),
          cell('LX0002', 'G1', '2G'),
          cell('LX0002', 'U1', '3G'),
        ])
        .execute();
      await db()
        .insertInto('monitoring_nodes')
        .values([
          nodeRow('LX0001', { site_id: 'LX0001' }),
          nodeRow('NR_LX0001', { site_id: 'LX0001', alarm_status: 'NOK', alarm_count: 2 }),
          nodeRow('LX0002', { site_id: 'LX0002', unreachable: 1, alarm_status: 'N/A', radio_status: 'N/A', core_status: 'N/A' }),
        ])
        .execute();
    });

    test('GetRollout over 3 weeks: planned sites vs done per ISO week, statuses, open work orders, alarms per week and severity', async () => {
      const res = await send(reader(), { url: '/api/Dashboard/GetRollout?weeks=3' });
      expect(res.statusCode).toBe(200);
      const zeroes = (week: string) => ['Critical', 'Major', 'Minor', 'Warning'].map((severity) => ({ week, severity, count: 0 }));
      const alarms = [...zeroes('2026-W45'), ...zeroes('2026-W46'), ...zeroes('2026-W47')];
      alarms[0]!.count = 2; // W45 Critical
      alarms[5]!.count = 1; // W46 Major
      alarms[10]!.count = 1; // W47 Minor
      expect(res.json<RolloutStats>()).toEqual({
        weeks: ['2026-W45', '2026-W46', '2026-W47'],
        commissionedPerWeek: [
          { week: '2026-W45', planned: 2, done: 0 },
          { week: '2026-W46', planned: 1, done: 1 },
          { week: '2026-W47', planned: 1, done: 1 },
        ],
        trackerStatus: [
          { status: 'Closed', count: 3 },
          { status: 'No status', count: 1 },
          { status: 'Open', count: 1 },
        ],
        openWorkOrdersByType: [
          { type: 'Installation', count: 2 },
          { type: 'Integration', count: 1 },
        ],
        alarmsBySeverityPerWeek: alarms,
      });
      const byDefault = await send(reader(), { url: '/api/Dashboard/GetRollout' });
      expect(byDefault.json<RolloutStats>().weeks).toHaveLength(12);
      expect((await send(reader(), { url: '/api/Dashboard/GetRollout?weeks=0' })).statusCode).toBe(400);
      expect((await send(reader(), { url: '/api/Dashboard/GetRollout?weeks=105' })).statusCode).toBe(400);
    });

    test('GetSiteMap: sites with coordinates, technologies, worst status per site, tracker row, tile URL', async () => {
      const res = await send(reader(), { url: '/api/Monitoring/GetSiteMap' });
      expect(res.statusCode).toBe(200);
      expect(res.json<SiteMapResponse>()).toEqual({
        sites: [
          {
            id: 'LX0001',
            name: 'Alfama',
            lat: 38.711,
            lon: -9.13,
            technologies: ['4G', '5G'],
            status: 'NOK',
            alarmStatus: 'NOK',
            radioStatus: 'OK',
            coreStatus: 'OK',
            trackerId: 1,
            sharedWith: null,
            shareMode: null,
          },
          {
            id: 'LX0002',
            name: 'Belém',
            lat: 38.697,
            lon: -9.206,
            technologies: ['2G', '3G'],
            status: 'NOK',
            alarmStatus: 'N/A',
            radioStatus: 'N/A',
            coreStatus: 'N/A',
            trackerId: 2,
            sharedWith: null,
            shareMode: null,
          },
          {
            id: 'LX0007',
            name: 'Sintra',
            lat: 38.8,
            lon: -9.38,
            technologies: [],
            status: 'NO_DATA',
            alarmStatus: null,
            radioStatus: null,
            coreStatus: null,
            trackerId: null,
            sharedWith: null,
            shareMode: null,
          },
        ],
        withoutCoordinates: 1,
        tileUrl: 'https://{s}.tile.openstreetmap.org/{z}/{x}/{y}.png',
      });
      expect((await send(callers.anonymous, { url: '/api/Monitoring/GetSiteMap' })).statusCode).toBe(401);
    });

    test("another operator's user sees none of it: neither its sites on the map nor its plan, tracker, work orders and alarms in the numbers", async () => {
      const map = (await send(callers.Client, { url: '/api/Monitoring/GetSiteMap' })).json<SiteMapResponse>();
      expect(map.sites.filter((s) => ['Alfama', 'Belém', 'Sintra'].includes(s.name))).toEqual([]);
      const rollout = (await send(callers.Client, { url: '/api/Dashboard/GetRollout?weeks=3' })).json<RolloutStats>();
      expect(rollout.weeks).toEqual(['2026-W45', '2026-W46', '2026-W47']);
      expect(rollout.commissionedPerWeek.map((w) => w.planned + w.done)).toEqual([0, 0, 0]);
      expect(rollout.alarmsBySeverityPerWeek.filter((a) => a.count > 0)).toEqual([]);
    });
  });

  test("the console's CSP frames exactly the BI origins and lets the map tiles in; scripts and connections stay the console's", async () => {
    const res = await app.inject({ url: '/dashboards/dashboardRollout' });
    expect(res.statusCode).toBe(200);
    const directives = new Map(
      String(res.headers['content-security-policy'])
        .split(';')
        .map((d) => d.trim().split(/\s+/))
        .map(([name, ...values]) => [name!, values]),
    );
    expect(directives.get('frame-src')).toEqual(['https://app.powerbi.com', 'https://tableau.example.pt']);
    expect(directives.get('img-src')).toEqual(["'self'", 'data:', 'blob:', 'https://*.tile.openstreetmap.org']);
    expect(directives.get('script-src')).toEqual(["'self'"]);
    expect(directives.get('connect-src')).toEqual(["'self'", 'ws://localhost:80']);
  });

  test("no secret, no Azure AD access token and nothing of Tableau's internals (its errors, the address tickets are asked at) in any answer", () => {
    expect(bodies.length).toBeGreaterThan(30);
    expect(fake.accessTokens.length).toBeGreaterThan(0);
    expect(tableau.posts).toBeGreaterThan(0);
    const secrets = [CLIENT_SECRET, ...fake.accessTokens, TABLEAU_INTERNAL, tableauTicketUrl.replace('http://', '')];
    const leaks = bodies.flatMap((body, i) => secrets.filter((secret) => body.includes(secret)).map((secret) => `answer ${i} holds ${secret.slice(0, 12)}…`));
    expect(leaks).toEqual([]);
  });
});

describe('the CSP without BI servers', () => {
  const directive = (policy: string, name: string) =>
    policy
      .split(';')
      .map((d) => d.trim())
      .find((d) => d.startsWith(`${name} `));

  test("frames nothing but the console's own pages; the tile host of MAP_TILE_URL is an image source", () => {
    expect(directive(contentSecurityPolicy(loadConfig({})), 'frame-src')).toBe("frame-src 'self'");
    const local = contentSecurityPolicy(loadConfig({ MAP_TILE_URL: 'http://localhost:8081/tiles/{z}/{x}/{y}.png' }));
    expect(directive(local, 'img-src')).toBe("img-src 'self' data: blob: http://localhost:8081");
    expect(tileSource('https://tile-{s}.example.pt:8443/{z}/{x}/{y}.png')).toBe('https://*.example.pt:8443');
  });
});

describe.each(TEST_DATABASES)('the demo data on the site map on $name', (kind) => {
  let database: TestDatabase;
  let app: FastifyInstance;
  let dir: string;

  beforeAll(async () => {
    database = await kind.open();
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cellwise-dashboards-demo-'));
    let config: Config;
    ({ app, config } = await testApp(database));
    // With the demo operators the administrator works in Vodafone PT, the suite's operator the data below lands in.
    await seed(database.db, { ...config, demoData: true });
    await importDemoNetworkIfEmpty(database.db, { dataDir: dir, sites: 12 });
    await importDemoTrackingIfEmpty(database.db);
  });
  afterAll(async () => {
    await app.close();
    await database.dispose();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  test('every demo site is on the map around Lisbon, with its technologies and tracker row', async () => {
    const { id: adminId } = await database.db.selectFrom('users').select('id').executeTakeFirstOrThrow();
    const token = await app.auth.issueToken(adminId);
    const res = await app.inject({ url: '/api/Monitoring/GetSiteMap', headers: { authorization: `Bearer ${token}` } });
    expect(res.statusCode).toBe(200);
    const map = res.json<SiteMapResponse>();
    const sites = await database.db.selectFrom('network_sites').select('id').orderBy('id').execute();
    expect(sites).toHaveLength(12);
    expect(map.withoutCoordinates).toBe(0);
    expect(map.sites.map((s) => s.id)).toEqual(sites.map((s) => s.id));
    for (const site of map.sites) {
      expect({ id: site.id, nearLisbon: site.lat > 38.5 && site.lat < 39 && site.lon > -9.5 && site.lon < -8.9 }).toEqual({ id: site.id, nearLisbon: true });
      expect(site.technologies).toEqual(expect.arrayContaining(['4G']));
      expect(site.trackerId).toEqual(expect.any(Number));
      expect(site.status).toBe('NO_DATA');
    }
    const inspect = await app.inject({ url: `/api/Dashboard/Inspect?dashboardId=2&userId=${adminId}`, headers: { authorization: `Bearer ${token}` } });
    expect(inspect.json<{ data: DashboardView }>().data).toMatchObject({ id: 2, name: 'Dashboard Rollout', native: true });
  });
});
