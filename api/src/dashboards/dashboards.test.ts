import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { PowerBiServerConfig, TableauServerConfig } from '../config';
import { isoWeek } from '../domain/tracking';
import { RECORD_MESSAGES, powerBiReportOf, updateProblem, urlProblem } from './records';
import { buildRollout, isoWeekLabel, isoWeekOfText, NO_STATUS, NO_TYPE, weekWindow } from './rollout';
import { buildSiteMap, overallOf, technologiesOf } from './site-map';
import { EmbedTokenError, mintPowerBiToken, mintTableauTicket, TABLEAU_TICKET_SECONDS } from './tokens';

const POWERBI: PowerBiServerConfig = {
  id: 'powerbi',
  type: 'PowerBI',
  name: 'Power BI',
  tenantId: 'contoso.onmicrosoft.com',
  clientId: 'client',
  clientSecret: 'client-secret',
  authorityUrl: 'https://login.microsoftonline.com',
  apiUrl: 'https://api.powerbi.com',
  embedOrigin: 'https://app.powerbi.com',
};
const TABLEAU: TableauServerConfig = {
  id: 'tableau',
  type: 'Tableau',
  name: 'Tableau',
  url: 'https://tableau.example.pt',
  origin: 'https://tableau.example.pt',
  site: 'rollout',
  ticketUrl: 'https://tableau.example.pt',
  user: null,
};
const REPORT = '11111111-2222-3333-4444-555555555555';
const GROUP = 'aaaaaaaa-bbbb-cccc-dddd-eeeeeeeeeeee';
const POWERBI_URL = `https://app.powerbi.com/reportEmbed?reportId=${REPORT}&groupId=${GROUP}`;

describe('ISO weeks in UTC', () => {
  test.each([
    ['2026-11-22T23:59:59Z', '2026-W47'],
    ['2026-11-23T00:00:00Z', '2026-W48'],
    ['2021-01-03T12:00:00Z', '2020-W53'],
    ['2024-12-30T00:00:00Z', '2025-W01'],
    ['2027-01-01T00:00:00Z', '2026-W53'],
    ['2025-12-29T00:00:00Z', '2026-W01'],
  ])('%s is %s', (at, week) => {
    expect(isoWeekLabel(Date.parse(at))).toBe(week);
  });

  test("the week number agrees with the tracker's isoWeek on every day of 2019–2028", () => {
    const disagreements: string[] = [];
    for (let ms = Date.UTC(2019, 0, 1); ms < Date.UTC(2029, 0, 1); ms += 86_400_000) {
      const iso = new Date(ms).toISOString();
      if (Number(isoWeekLabel(ms).slice(6)) !== isoWeek(iso)) disagreements.push(iso);
    }
    expect(disagreements).toEqual([]);
  });

  test('stored text: a date, a full instant, or nothing', () => {
    expect(isoWeekOfText('2026-11-16')).toBe('2026-W47');
    expect(isoWeekOfText('2026-11-15T23:30:00Z')).toBe('2026-W46');
    expect(isoWeekOfText('not a date')).toBeNull();
    expect(isoWeekOfText(null)).toBeNull();
  });

  test('the window: oldest first, ending with the current week, bounded by Mondays', () => {
    expect(weekWindow(Date.parse('2026-11-18T10:00:00Z'), 3)).toEqual({ weeks: ['2026-W45', '2026-W46', '2026-W47'], from: '2026-11-02', until: '2026-11-23' });
    // Across a year with 53 weeks.
    expect(weekWindow(Date.parse('2027-01-05T00:00:00Z'), 3).weeks).toEqual(['2026-W52', '2026-W53', '2027-W01']);
    expect(weekWindow(Date.parse('2026-11-18T10:00:00Z'), 1)).toEqual({ weeks: ['2026-W47'], from: '2026-11-16', until: '2026-11-23' });
  });
});

describe('rollout numbers', () => {
  const window = weekWindow(Date.parse('2026-11-18T10:00:00Z'), 3);

  test('sites count once per week; weeks outside the window and undated rows are left out; every week is there', () => {
    const stats = buildRollout(window, {
      planned: [
        { siteId: 'A', day: '2026-11-02' },
        { siteId: 'A', day: '2026-11-04' },
        { siteId: 'B', day: '2026-11-08' },
        { siteId: 'B', day: '2026-11-09' },
        { siteId: 'C', day: '2026-10-30' },
        { siteId: 'D', day: 'garbage' },
      ],
      done: [
        { siteId: 'A', day: '2026-11-17' },
        { siteId: 'B', day: '2026-11-22' },
      ],
      trackerStatus: [],
      workOrders: [],
      alarms: [],
    });
    expect(stats.weeks).toEqual(['2026-W45', '2026-W46', '2026-W47']);
    expect(stats.commissionedPerWeek).toEqual([
      { week: '2026-W45', planned: 2, done: 0 },
      { week: '2026-W46', planned: 1, done: 0 },
      { week: '2026-W47', planned: 0, done: 2 },
    ]);
  });

  test('statuses and open work orders: named, most first; closed work orders count for nothing', () => {
    const stats = buildRollout(window, {
      planned: [],
      done: [],
      trackerStatus: [
        { status: 'Open', count: 3 },
        { status: null, count: 2 },
        { status: '  ', count: 1 },
        { status: 'Closed', count: 5 },
      ],
      workOrders: [
        { type: 'Installation', status: 'Open', hasCloseDate: false, count: 4 },
        { type: 'Installation', status: 'Closed', hasCloseDate: false, count: 7 },
        { type: 'Installation', status: 'In progress', hasCloseDate: true, count: 2 },
        { type: 'Integration', status: 'Completed', hasCloseDate: false, count: 1 },
        { type: null, status: 'Waiting access', hasCloseDate: false, count: 1 },
        { type: 'Integration', status: null, hasCloseDate: false, count: 1 },
      ],
      alarms: [],
    });
    expect(stats.trackerStatus).toEqual([
      { status: 'Closed', count: 5 },
      { status: NO_STATUS, count: 3 },
      { status: 'Open', count: 3 },
    ]);
    expect(stats.openWorkOrdersByType).toEqual([
      { type: 'Installation', count: 4 },
      { type: 'Integration', count: 1 },
      { type: NO_TYPE, count: 1 },
    ]);
  });

  test('alarms: every week × severity (the four known first, others after), zeros included', () => {
    const stats = buildRollout(window, {
      planned: [],
      done: [],
      trackerStatus: [],
      workOrders: [],
      alarms: [
        { day: '2026-11-03', severity: 'Critical', count: 2 },
        { day: '2026-11-05', severity: 'Critical', count: 1 },
        { day: '2026-11-20', severity: 'Indeterminate', count: 1 },
        { day: '2026-10-01', severity: 'Major', count: 9 },
      ],
    });
    const nonZero = stats.alarmsBySeverityPerWeek.filter((a) => a.count > 0);
    expect(nonZero).toEqual([
      { week: '2026-W45', severity: 'Critical', count: 3 },
      { week: '2026-W47', severity: 'Indeterminate', count: 1 },
    ]);
    expect(stats.alarmsBySeverityPerWeek).toHaveLength(3 * 5);
    expect(stats.alarmsBySeverityPerWeek.slice(0, 5).map((a) => a.severity)).toEqual(['Critical', 'Major', 'Minor', 'Warning', 'Indeterminate']);
  });
});

describe('site map', () => {
  test('overall status: NOK on any NOK or an unreachable node, OK when some part is OK, else no data', () => {
    expect(overallOf(undefined)).toBe('NO_DATA');
    expect(overallOf({ alarm: 0, radio: 0, core: 0, perf: 0, unreachable: 0 })).toBe('NO_DATA');
    expect(overallOf({ alarm: 1, radio: 1, core: 1, perf: 0, unreachable: 0 })).toBe('OK');
    expect(overallOf({ alarm: 1, radio: 2, core: 1, perf: 0, unreachable: 0 })).toBe('NOK');
    expect(overallOf({ alarm: 0, radio: 0, core: 0, perf: 2, unreachable: 0 })).toBe('NOK');
    expect(overallOf({ alarm: 1, radio: 1, core: 1, perf: 1, unreachable: 1 })).toBe('NOK');
  });

  test('technologies in layer order, NB-IoT left out', () => {
    expect(technologiesOf(['5G', 'NB-IoT', '2G', '4G', '4G'])).toEqual(['2G', '4G', '5G']);
  });

  test('sites without usable coordinates are counted, not drawn', () => {
    const map = buildSiteMap(
      {
        sites: [
          { id: 'S1', name: 'One', lat: 38.7, lon: -9.1 },
          { id: 'S2', name: 'Two', lat: null, lon: -9.1 },
          { id: 'S3', name: 'Three', lat: 0, lon: 0 },
          { id: 'S4', name: 'Four', lat: 91, lon: 0 },
        ],
        techs: [
          { siteId: 'S1', tech: '4G' },
          { siteId: 'S1', tech: '3G' },
        ],
        ranks: new Map([['S1', { alarm: 2, radio: 1, core: 0, perf: 0, unreachable: 0 }]]),
        trackerIds: new Map([['S1', 7]]),
      },
      'https://tiles.example/{z}/{x}/{y}.png',
    );
    expect(map).toEqual({
      sites: [
        {
          id: 'S1',
          name: 'One',
          lat: 38.7,
          lon: -9.1,
          technologies: ['3G', '4G'],
          status: 'NOK',
          alarmStatus: 'NOK',
          radioStatus: 'OK',
          coreStatus: 'N/A',
          trackerId: 7,
          sharedWith: null,
          shareMode: null,
        },
      ],
      withoutCoordinates: 3,
      tileUrl: 'https://tiles.example/{z}/{x}/{y}.png',
    });
  });
});

describe('dashboard records', () => {
  const update = (over: Partial<Parameters<typeof updateProblem>[0]>) => ({
    id: 2,
    type: 'PowerBI' as const,
    name: 'Dashboard Rollout',
    url: POWERBI_URL,
    serverId: 'powerbi',
    ...over,
  });

  test('a Power BI URL names its report and workspace as GUIDs', () => {
    expect(powerBiReportOf(POWERBI_URL)).toEqual({ reportId: REPORT, groupId: GROUP });
    expect(powerBiReportOf(`https://app.powerbi.com/reportEmbed?reportId=${REPORT}`)).toBeNull();
    expect(powerBiReportOf(`https://app.powerbi.com/reportEmbed?reportId=../../x&groupId=${GROUP}`)).toBeNull();
    expect(powerBiReportOf('not a url')).toBeNull();
  });

  test('an update is checked against the configured servers', () => {
    const servers = [POWERBI, TABLEAU];
    expect(updateProblem(update({}), servers)).toBeNull();
    expect(updateProblem(update({ serverId: null, url: '' }), servers)).toBeNull();
    expect(updateProblem(update({ name: '   ' }), servers)).toBe(RECORD_MESSAGES.blankName);
    expect(updateProblem(update({ name: 'a\u0007b' }), servers)).toBe(RECORD_MESSAGES.controlCharacters);
    expect(updateProblem(update({ serverId: 'qlik' }), servers)).toBe(RECORD_MESSAGES.unknownServer);
    expect(updateProblem(update({ serverId: 'tableau' }), servers)).toBe(RECORD_MESSAGES.serverTypeMismatch);
    expect(updateProblem(update({ url: '' }), servers)).toBe(RECORD_MESSAGES.urlRequired('Power BI'));
    expect(updateProblem(update({ url: POWERBI_URL.replace('https:', 'http:') }), servers)).toBe(RECORD_MESSAGES.insecureUrl);
    expect(updateProblem(update({ url: POWERBI_URL.replace('app.powerbi.com', 'evil.example') }), servers)).toBe(
      RECORD_MESSAGES.foreignOrigin('Power BI', 'https://app.powerbi.com'),
    );
    expect(updateProblem(update({ url: 'https://app.powerbi.com/reportEmbed' }), servers)).toBe(RECORD_MESSAGES.powerBiIds);
    expect(updateProblem(update({ url: 'https://u:p@app.powerbi.com/x' }), servers)).toBe(RECORD_MESSAGES.credentialsInUrl);
    // Without a server the URL is not needed, but one that is given is still https.
    expect(updateProblem(update({ serverId: null, url: 'http://example.pt/x' }), servers)).toBe(RECORD_MESSAGES.insecureUrl);
    expect(updateProblem(update({ serverId: null, url: 'http://127.0.0.1:8080/x' }), servers)).toBeNull();
  });

  test('a Tableau URL points at a view of the configured site', () => {
    expect(urlProblem('https://tableau.example.pt/t/rollout/views/Rollout/Overview', 'Tableau', TABLEAU)).toBeNull();
    expect(urlProblem('https://tableau.example.pt/#/site/rollout/views/Rollout/Overview', 'Tableau', TABLEAU)).toBeNull();
    expect(urlProblem('https://tableau.example.pt/t/other/views/Rollout/Overview', 'Tableau', TABLEAU)).toBe(RECORD_MESSAGES.tableauSite('rollout'));
    expect(urlProblem('https://tableau.example.pt/t/rollout/projects', 'Tableau', TABLEAU)).toBe(RECORD_MESSAGES.tableauView);
    expect(urlProblem('https://tableau.example.pt/views/Rollout/Overview', 'Tableau', { ...TABLEAU, site: null })).toBeNull();
  });
});

/**
 * A Tableau Server's /trusted endpoint on loopback: it records each request (method, path, content type,
 * body) and answers what the test sets.
 */
async function ticketServer(answer: (call: number) => { status: number; body: string }) {
  const requests: Array<{ method: string; url: string; contentType: string; body: string }> = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    req.on('end', () => {
      requests.push({ method: req.method ?? '', url: req.url ?? '', contentType: req.headers['content-type'] ?? '', body });
      const { status, body: text } = answer(requests.length);
      res.writeHead(status, { 'content-type': 'text/plain' }).end(text);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    requests,
    ticketUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

describe('Tableau trusted ticket', () => {
  const now = Date.parse('2026-11-22T10:00:00Z');
  const V2_TICKET = '9D1ObyqDQmSIOyQpKdy4Sw==:dg62gCsSE0QRArXNTOp6mlJ5';

  test("POSTs the user and the site as a form to <ticket URL>/trusted; the answer is the ticket, redeemable for Tableau's 3 minutes", async () => {
    const fake = await ticketServer(() => ({ status: 200, body: `${V2_TICKET}\n` }));
    try {
      const ticket = await mintTableauTicket({ ...TABLEAU, ticketUrl: `${fake.ticketUrl}/tableau` }, 'ana.costa@example.pt', now);
      expect(ticket).toEqual({ token: V2_TICKET, expiresAt: '2026-11-22T10:03:00Z' });
      expect(TABLEAU_TICKET_SECONDS).toBe(180);
      expect(fake.requests).toHaveLength(1);
      const [request] = fake.requests;
      expect({ method: request!.method, url: request!.url, contentType: request!.contentType }).toEqual({
        method: 'POST',
        url: '/tableau/trusted',
        contentType: 'application/x-www-form-urlencoded',
      });
      expect(Object.fromEntries(new URLSearchParams(request!.body))).toEqual({ username: 'ana.costa@example.pt', target_site: 'rollout' });
    } finally {
      await fake.close();
    }
  });

  test('on the default site no target_site is sent; a user name is form-encoded', async () => {
    const fake = await ticketServer(() => ({ status: 200, body: 'aB3dE5gH7jK9mN1pQ3sT5vX7' }));
    try {
      await expect(mintTableauTicket({ ...TABLEAU, site: null, ticketUrl: fake.ticketUrl }, 'MyCo\\j smith&x=1', now)).resolves.toEqual({
        token: 'aB3dE5gH7jK9mN1pQ3sT5vX7',
        expiresAt: '2026-11-22T10:03:00Z',
      });
      expect(fake.requests[0]!.body).toBe('username=MyCo%5Cj+smith%26x%3D1');
    } finally {
      await fake.close();
    }
  });

  test.each([
    [
      '-1 (not trusted, or no such user)',
      { status: 200, body: '-1' },
      "Tableau server 'Tableau' refused to issue a trusted ticket (answered -1): it must list this console server's address as a trusted host, and the user must be a licensed Tableau user on site 'rollout'.",
    ],
    ['a non-2xx status', { status: 403, body: 'Forbidden: internal-detail-1234' }, "Tableau server 'Tableau' refused to issue a trusted ticket (HTTP 403)."],
    [
      'a login page instead of a ticket',
      { status: 200, body: '<html><body>Sign in: internal-detail-1234</body></html>' },
      "Tableau server 'Tableau' answered the ticket request with something other than a trusted ticket (HTTP 200).",
    ],
    [
      'an empty answer',
      { status: 200, body: '' },
      "Tableau server 'Tableau' answered the ticket request with something other than a trusted ticket (HTTP 200).",
    ],
    [
      'a string too short to be a ticket',
      { status: 200, body: 'abc' },
      "Tableau server 'Tableau' answered the ticket request with something other than a trusted ticket (HTTP 200).",
    ],
  ])('%s: a 502 that names the server and the reason, never the answer', async (_, answer, message) => {
    const fake = await ticketServer(() => answer);
    try {
      const attempt = mintTableauTicket({ ...TABLEAU, ticketUrl: fake.ticketUrl }, 'ana.costa@example.pt', now);
      await expect(attempt).rejects.toThrow(EmbedTokenError);
      await expect(attempt).rejects.toThrow(message);
      await expect(attempt).rejects.toMatchObject({ statusCode: 502 });
    } finally {
      await fake.close();
    }
  });

  test('-1 on the default site says so', async () => {
    const fake = await ticketServer(() => ({ status: 200, body: '-1' }));
    try {
      await expect(mintTableauTicket({ ...TABLEAU, site: null, ticketUrl: fake.ticketUrl }, 'ana.costa@example.pt', now)).rejects.toThrow(
        'the user must be a licensed Tableau user on the default site.',
      );
    } finally {
      await fake.close();
    }
  });

  test('a closed port, or a server that never answers: 502 saying it could not be reached', async () => {
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    await expect(mintTableauTicket({ ...TABLEAU, ticketUrl: `http://127.0.0.1:${port}` }, 'a@example.pt', now)).rejects.toThrow(
      "Tableau server 'Tableau' could not be reached (connection failed).",
    );

    const silent = http.createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    try {
      const ticketUrl = `http://127.0.0.1:${(silent.address() as AddressInfo).port}`;
      await expect(mintTableauTicket({ ...TABLEAU, ticketUrl }, 'a@example.pt', now, 200)).rejects.toThrow(
        "Tableau server 'Tableau' could not be reached (no answer within 200 ms).",
      );
    } finally {
      silent.closeAllConnections();
      await new Promise<void>((resolve) => silent.close(() => resolve()));
    }
  });
});

describe('Power BI token: an unreachable or silent server', () => {
  test('a closed port: 502 saying the sign-in could not be reached', async () => {
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const attempt = mintPowerBiToken({ ...POWERBI, authorityUrl: `http://127.0.0.1:${port}` }, POWERBI_URL);
    await expect(attempt).rejects.toThrow(EmbedTokenError);
    await expect(attempt).rejects.toThrow("Power BI server 'Power BI' (sign-in) could not be reached (connection failed).");
  });

  test('a server that never answers: 502 after the timeout', async () => {
    const silent = http.createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const { port } = silent.address() as AddressInfo;
    try {
      await expect(mintPowerBiToken({ ...POWERBI, authorityUrl: `http://127.0.0.1:${port}` }, POWERBI_URL, 200)).rejects.toThrow(
        "Power BI server 'Power BI' (sign-in) could not be reached (no answer within 200 ms).",
      );
    } finally {
      silent.closeAllConnections();
      await new Promise<void>((resolve) => silent.close(() => resolve()));
    }
  });

  test('a URL without report and workspace never reaches the network', async () => {
    await expect(mintPowerBiToken({ ...POWERBI, authorityUrl: 'http://127.0.0.1:1' }, 'https://app.powerbi.com/reportEmbed')).rejects.toThrow(
      'its URL names no reportId and groupId',
    );
  });
});
