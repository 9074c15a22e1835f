// The app's instances record every route they register (see support/routes): the matrix is checked
// against what the server really serves, so a route added without a row here fails this suite.
jest.mock('fastify', () => jest.requireActual<{ recordingFastify: () => unknown }>('./support/routes').recordingFastify());

import ExcelJS from 'exceljs';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { denialOf, type Capability } from 'shared-auth/policy';
import type { Config } from '../src/config';
import type { OperatorSummary, ProjectOption, RunKind, UserListRow } from 'contracts';
import { runInOperator } from '../src/db/operator-scope';
import { testApp } from './support/app';
import { TEST_DATABASES, type TestDatabase } from './support/databases';
import { CALLER_NAMES, headersOf, insertUser, MISSING_ID, setUpCallers, type Caller, type CallerName, type Callers } from './support/principals';
import { apiRoutesOf, declaredAccess, routeKey, type RecordedRoute } from './support/routes';
import { insertOperatorRecords, trackerStatusOf, type OperatorRecords } from './support/tenants';
import { multipart } from './fixtures/network-import/dumps';
import { PNG_BYTES } from './fixtures/tracking/workbooks';

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

interface ProbeContext {
  caller: Caller;
  /** Vodafone PT: an operator every signed-in test user (but the Client) belongs to. */
  vodafone: number;
}

/** A minimal plausible request: valid where that changes nothing, else aimed at an id no row has. */
interface Probe {
  /** Replaces the row's path (routes with path parameters). */
  url?: string;
  query?: string;
  payload?: unknown;
  multipart?: Array<{ name: string; filename?: string; content: Buffer | string }>;
}

type Row = readonly [method: Method, path: string, access: Capability, probe?: (context: ProbeContext) => Probe];

const LINK = { password: 'Probe-Password-123', rpassword: 'Probe-Password-123', token: 'not-a-mailed-token', user: MISSING_ID };
const none = (): Probe => ({});

/**
 * Every API route and who may call it, written by hand from the specification (§6, §7) and docs/architecture.md#how-a-request-flows:
 * engineering areas need an engineering role and the Operations project; Management (users and
 * operators) is for Administrators and Managers; the audit trail and the dump import for
 * Administrators; account, notifications, hub and files need a session; auth and health are public.
 */
const ROWS: readonly Row[] = [
  // Public (specification §6: auth pages are public; docs/architecture.md#how-a-request-flows: health).
  ['GET', '/api/health', 'public'],
  ['POST', '/api/auth/login', 'public', () => ({ payload: { email: 'nobody@example.pt', password: 'Not-The-Password-1' } })],
  ['POST', '/api/auth/recover', 'public', () => ({ payload: { email: 'nobody@example.pt' } })],
  ['POST', '/api/auth/completeRegistration', 'public', () => ({ payload: LINK })],
  ['POST', '/api/auth/recoverconfirmation', 'public', () => ({ payload: LINK })],

  // Any session: the account, notifications, the hub and files.
  ['POST', '/api/account/GetUserInfo', 'authenticated'],
  ['GET', '/api/Account/GetUserOperators', 'authenticated', ({ caller }) => ({ query: `userId=${caller.userId ?? MISSING_ID}` })],
  [
    'POST',
    '/api/Account/ChangePassword',
    'authenticated',
    () => ({ payload: { oldpassword: 'Not-The-Password-1', newpassword: 'New-Password-123', confirmnewpassword: 'Other-Password-123' } }),
  ],
  [
    'POST',
    '/api/Account/UpdateSettings',
    'authenticated',
    ({ caller }) => ({ payload: { firstname: ' ', lastname: ' ', operatorId: caller.principal.operatorId ?? MISSING_ID } }),
  ],
  ['GET', '/api/Notification/Notifications', 'authenticated'],
  ['PUT', '/api/Notification/MarkAsRead/:id', 'authenticated', () => ({ url: `/api/Notification/MarkAsRead/${MISSING_ID}` })],
  ['PUT', '/api/Notification/MarkAllAsRead', 'authenticated'],
  ['POST', '/api/notificationhub/negotiate', 'authenticated', () => ({ query: 'negotiateVersion=1' })],
  // The hub's Server-Sent Events / Long Polling requests, for a connection no one negotiated.
  ['GET', '/api/notificationhub', 'authenticated', () => ({ query: 'id=no-such-connection' })],
  ['POST', '/api/notificationhub', 'authenticated', () => ({ query: 'id=no-such-connection', payload: '{"type":6}\u001e' })],
  ['DELETE', '/api/notificationhub', 'authenticated', () => ({ query: 'id=no-such-connection' })],
  ['POST', '/api/File/Upload', 'authenticated', () => ({ multipart: [{ name: 'file', filename: 'probe.png', content: PNG_BYTES }] })],
  ['POST', '/api/File/UploadMultiple', 'authenticated', () => ({ multipart: [{ name: 'files', filename: 'probe.png', content: PNG_BYTES }] })],
  ['GET', '/api/File/Download', 'authenticated', () => ({ query: 'file=no-such-export' })],

  // Management (specification §6: Administrator or Manager, operators included).
  ['GET', '/api/Users/GetUsers', 'canManage'],
  ['GET', '/api/Users/GetUsersStats', 'canManage'],
  ['GET', '/api/Users/GetRoles', 'canManage'],
  ['GET', '/api/Users/GetOperators', 'canManage'],
  ['GET', '/api/Users/GetOperatorProjects', 'canManage', ({ vodafone }) => ({ query: `operatorIds=${vodafone}` })],
  ['GET', '/api/Users/GetUserById', 'canManage', ({ caller }) => ({ query: `userId=${caller.userId ?? MISSING_ID}` })],
  [
    'POST',
    '/api/Users/CreateUser',
    'canManage',
    () => ({ payload: { firstname: 'Probe', lastname: 'Probe', email: 'not-an-email', roleId: null, operatorIds: [], projectIds: [] } }),
  ],
  [
    'POST',
    '/api/Users/EditUser',
    'canManage',
    () => ({ payload: { id: MISSING_ID, firstname: 'Probe', lastname: 'Probe', roleId: null, operatorIds: [], projectIds: [] } }),
  ],
  ['POST', '/api/Users/ResendConfirmationEmail', 'canManage', () => ({ payload: { userId: MISSING_ID } })],
  ['POST', '/api/Users/DeactivateUser', 'canManage', () => ({ payload: { userId: MISSING_ID } })],
  ['POST', '/api/Users/ReactivateUser', 'canManage', () => ({ payload: { userId: MISSING_ID } })],
  ['DELETE', '/api/Users/DeleteUser', 'canManage', () => ({ payload: { userId: MISSING_ID } })],
  // docs/architecture.md#accounts-sessions-and-abuse-limits keeps the audit trail for Administrators.
  ['GET', '/api/Users/GetAuditTrail', 'canAdminister'],
  ['GET', '/api/Operators/GetOperators', 'canManage'],
  ['GET', '/api/Operators/GetOperator', 'canManage', ({ vodafone }) => ({ query: `operatorId=${vodafone}` })],
  ['GET', '/api/Operators/GetImage', 'canManage', ({ vodafone }) => ({ query: `operatorId=${vodafone}` })],
  ['POST', '/api/Operators/CreateOperator', 'canManage', () => ({ payload: { name: ' ' } })],
  ['POST', '/api/Operators/UpdateOperator', 'canManage', () => ({ payload: { id: MISSING_ID, name: 'Probe' } })],
  ['POST', '/api/Operators/UpdateImage', 'canManage', () => ({ payload: { id: MISSING_ID, uploadId: null } })],
  ['DELETE', '/api/Operators/DeleteOperator', 'canManage', () => ({ payload: { id: MISSING_ID } })],
  ['POST', '/api/Operators/CreateProject', 'canManage', ({ vodafone }) => ({ payload: { name: ' ', operatorId: vodafone } })],
  ['DELETE', '/api/Operators/DeleteProject', 'canManage', () => ({ payload: { projectId: MISSING_ID } })],

  // The network inventory: importing replaces it for everyone (Administrators); reading it is planning work.
  ['POST', '/api/Network/ImportDump', 'canAdminister', () => ({ payload: { uploadId: 'no-such-upload' } })],
  ['GET', '/api/Network/GetSummary', 'canPlan'],

  // The job dashboard (specification §6: Administrator); one job is its owner's to see.
  ['GET', '/api/Jobs/GetJobs', 'canSeeJobDashboard'],
  ['GET', '/api/Jobs/GetJob', 'authenticated', () => ({ query: 'id=no-such-job' })],
  ['POST', '/api/Jobs/RetryJob', 'canSeeJobDashboard', () => ({ payload: { id: 'no-such-job' } })],
  ['POST', '/api/Jobs/CancelJob', 'canSeeJobDashboard', () => ({ payload: { id: 'no-such-job' } })],

  // Planning, Validation, Monitoring (specification §6: engineering role and project Operations).
  ['GET', '/api/Parameters/GetLastDumpDate', 'canPlan'],
  ['GET', '/api/Parameters/GetSiteList', 'canPlan', () => ({ query: 'query=LX' })],
  ['GET', '/api/Validation/GetLastUtranCellsDate', 'canValidate'],
  ['GET', '/api/Validation/GetLastNbrRelationsDate', 'canValidate'],
  ['GET', '/api/Validation/GetSites', 'canValidate'],
  ['GET', '/api/Validation/GetUtranSites', 'canValidate'],
  ['GET', '/api/Monitoring/GetSiteList', 'canMonitor'],

  // Tracking.
  ['GET', '/api/Tracker/GetCommissioningPlan', 'canTrack'],
  ['GET', '/api/Tracker/GetCommissioningPlanLastImport', 'canTrack'],
  ['GET', '/api/Tracker/GetCommissioningPlanExcel', 'canTrack'],
  ['GET', '/api/Tracker/CommissioningPlanUpload', 'canTrack', () => ({ query: 'filePath=no-such-upload' })],
  ['GET', '/api/Tracker/GetTracker', 'canTrack'],
  ['GET', '/api/Tracker/GetTrackerLastUpdate', 'canTrack'],
  ['GET', '/api/Tracker/ImportTracker', 'canTrack', () => ({ query: 'filePath=no-such-upload' })],
  ['GET', '/api/Tracker/TrackerUpload', 'canTrack'],
  ['GET', '/api/Tracker/DownloadTracker', 'canTrack'],
  ['GET', '/api/Tracker/WorkOrderStatusUpload', 'canTrack', () => ({ query: 'filePath=no-such-upload' })],
  ['GET', '/api/Tracker/GetWorkOrderStatusLastImport', 'canTrack'],
  ['GET', '/api/Tracker/GetWorkOrderStatusDelta', 'canTrack'],
  ['GET', '/api/Tracker/GetWorkOrderStatusExcel', 'canTrack'],
  ['GET', '/api/Tracker/GetWorkOrderStatusDeltaExcel', 'canTrack'],

  // Monitoring and the log parser (specification §7; docs/engines/monitoring.md, docs/engines/monitoring.md#the-site-report). Hints' edits and the PM import: Administrators.
  ['GET', '/api/Parser/GetMoBacthScripts', 'canMonitor'],
  ['GET', '/api/Parser/ParseEricssonLogs', 'canMonitor', ({ caller }) => ({ query: `filesPath=no-such-upload&userId=${caller.userId ?? MISSING_ID}` })],
  ['GET', '/api/Parser/GetParseHistory', 'canMonitor'],
  ['GET', '/api/Parser/GetParseReport', 'canMonitor', () => ({ query: `id=${MISSING_ID}` })],
  ['GET', '/api/Monitoring/GetLogsLastImport', 'canMonitor'],
  ['GET', '/api/Monitoring/GetFaultManagement', 'canMonitor'],
  ['GET', '/api/Monitoring/GetAlarm', 'canMonitor', () => ({ query: `id=${MISSING_ID}` })],
  ['GET', '/api/Monitoring/GetFaultManagementSummary', 'canMonitor'],
  ['GET', '/api/Monitoring/GetConfigurationManagementSummary', 'canMonitor'],
  ['GET', '/api/Monitoring/GetOverallSiteSummary', 'canMonitor'],
  ['GET', '/api/Monitoring/GetSiteReport', 'canMonitor', () => ({ query: 'siteId=NO-SUCH-SITE' })],
  ['GET', '/api/Monitoring/GetSiteReportExcel', 'canMonitor', () => ({ query: 'siteId=NO-SUCH-SITE' })],
  ['GET', '/api/Monitoring/GetSiteReportEmail', 'canMonitor', ({ caller }) => ({ query: `siteId=NO-SUCH-SITE&userId=${caller.userId ?? MISSING_ID}` })],
  ['POST', '/api/Monitoring/AcknowledgeAlarm', 'canMonitor', () => ({ payload: { alarmId: MISSING_ID, note: 'Probe note' } })],
  ['POST', '/api/Monitoring/UnacknowledgeAlarm', 'canMonitor', () => ({ payload: { alarmId: MISSING_ID } })],
  ['GET', '/api/Monitoring/GetAlarmHints', 'canMonitor'],
  ['POST', '/api/Monitoring/SaveAlarmHint', 'canAdminister', () => ({ payload: { alarmName: 'Probe Alarm', hint: 'A probe hint.' } })],
  ['POST', '/api/Monitoring/DeleteAlarmHint', 'canAdminister', () => ({ payload: { alarmName: 'No Such Alarm' } })],
  ['GET', '/api/Monitoring/ImportPerformanceCounters', 'canAdminister', () => ({ query: 'filePath=no-such-upload' })],
  ['GET', '/api/Monitoring/GetPerformanceLastImport', 'canMonitor'],
  // The live alarm console, site search and reports to a list (issue 47); the daily digests are the Administrators'.
  ['GET', '/api/Monitoring/GetAlarmCounts', 'canMonitor'],
  ['POST', '/api/Monitoring/AcknowledgeAlarms', 'canMonitor', () => ({ payload: { alarmIds: [MISSING_ID], note: 'Probe note' } })],
  ['GET', '/api/Monitoring/GetAlarmChanges', 'canMonitor'],
  ['GET', '/api/Monitoring/SearchSites', 'canMonitor', () => ({ query: 'text=LX' })],
  ['GET', '/api/Monitoring/GetReportRecipients', 'canMonitor'],
  ['POST', '/api/Monitoring/SendSiteReport', 'canMonitor', ({ caller }) => ({ payload: { siteId: 'NO-SUCH-SITE', userIds: [caller.userId ?? MISSING_ID] } })],
  ['GET', '/api/Monitoring/GetDigestSchedules', 'canAdminister'],
  ['PUT', '/api/Monitoring/SaveDigestSchedule', 'canAdminister', () => ({ payload: { projectId: MISSING_ID, hour: 7, userIds: [MISSING_ID] } })],
  ['DELETE', '/api/Monitoring/DeleteDigestSchedule', 'canAdminister', () => ({ payload: { projectId: MISSING_ID } })],
  ['POST', '/api/Monitoring/SendDigestNow', 'canAdminister', () => ({ payload: { projectId: MISSING_ID } })],

  // Planning, validation and optimisation runs (specification §7; docs/engines/planning.md#every-run). Frequency plans: Administrators edit them.
  ['GET', '/api/Parameters/GetPlanningHistory', 'canPlan'],
  [
    'GET',
    '/api/Parameters/RunParameterPlanning',
    'canPlan',
    ({ caller }) => ({ query: `siteId=NO-SUCH-SITE&antenna=AIR3227%2F78&lteBands=L800&userId=${caller.userId ?? MISSING_ID}` }),
  ],
  ['GET', '/api/Parameters/GetParameterPlanningExport', 'canPlan', () => ({ query: `parameterPlanningId=${MISSING_ID}` })],
  ['POST', '/api/Parameters/DiscardPlan', 'canPlan', () => ({ payload: { parameterPlanningId: MISSING_ID } })],
  ['GET', '/api/Parameters/GetParameterPlanningFindings', 'canPlan', () => ({ query: `parameterPlanningId=${MISSING_ID}` })],
  ['GET', '/api/Parameters/GetFrequencyPlans', 'canPlan'],
  [
    'POST',
    '/api/Parameters/SaveFrequencyPlan',
    'canAdminister',
    () => ({ payload: { operatorId: MISSING_ID, nrArfcn: 636666, nrBandwidthMhz: 100, lteCarriers: { L800: 6300 } } }),
  ],
  ['GET', '/api/Validation/RunCpichValidation', 'canValidate', ({ caller }) => ({ query: `sites=NO-SUCH-SITE&userId=${caller.userId ?? MISSING_ID}` })],
  ['GET', '/api/Validation/GetCpichValidationExport', 'canValidate', () => ({ query: `cpichValidationId=${MISSING_ID}` })],
  ['GET', '/api/Validation/GetCpichValidationFindings', 'canValidate', () => ({ query: `cpichValidationId=${MISSING_ID}` })],
  ['GET', '/api/Validation/GetCpichValidationHistory', 'canValidate'],
  ['GET', '/api/Validation/GetNbrRelationsValidationHistory', 'canValidate'],
  [
    'GET',
    '/api/Validation/RunNbrRelationsValidation',
    'canValidate',
    ({ caller }) => ({ query: `site=NO-SUCH-SITE&userId=${caller.userId ?? MISSING_ID}&filesPath=no-such-upload` }),
  ],
  ['GET', '/api/Validation/GetNbrRelationsValidationExport', 'canValidate', () => ({ query: `nbrRelationsValidationId=${MISSING_ID}` })],
  ['GET', '/api/Validation/GetNbrRelationsValidationFindings', 'canValidate', () => ({ query: `nbrRelationsValidationId=${MISSING_ID}` })],
  ['GET', '/api/Validation/GetNbrRelationsTemplate', 'canValidate'],
  [
    'GET',
    '/api/Validation/RunRanShareNbrRelationsValidation',
    'canValidate',
    ({ caller }) => ({ query: `site=NO-SUCH-SITE&userId=${caller.userId ?? MISSING_ID}` }),
  ],
  ['GET', '/api/Validation/GetRanShareValidationHistory', 'canValidate'],
  ['GET', '/api/Validation/GetRanShareSites', 'canValidate'],
  ['GET', '/api/Validation/GetRanShareValidationExport', 'canValidate', () => ({ query: `runId=${MISSING_ID}` })],
  ['GET', '/api/Validation/GetRanShareValidationFindings', 'canValidate', () => ({ query: `runId=${MISSING_ID}` })],
  ['GET', '/api/Validation/GetHealthChecksExport', 'canValidate', ({ caller }) => ({ query: `siteId=NO-SUCH-SITE&userId=${caller.userId ?? MISSING_ID}` })],
  ['GET', '/api/Validation/GetHealthChecksHistory', 'canValidate'],
  ['GET', '/api/Validation/GetHealthChecksRunExport', 'canValidate', () => ({ query: `runId=${MISSING_ID}` })],
  ['GET', '/api/Validation/GetHealthChecksFindings', 'canValidate', () => ({ query: `runId=${MISSING_ID}` })],
  [
    'GET',
    '/api/Optimization/RunNbrRelationsOptimization',
    'canOptimize',
    ({ caller }) => ({ query: `userId=${caller.userId ?? MISSING_ID}&filesPath=no-such-upload` }),
  ],
  ['GET', '/api/Optimization/GetNbrRelationsOptimizationExport', 'canOptimize', () => ({ query: `nbrRelationsOptimizationId=${MISSING_ID}` })],
  ['GET', '/api/Optimization/GetNbrRelationsOptimizationFindings', 'canOptimize', () => ({ query: `nbrRelationsOptimizationId=${MISSING_ID}` })],
  ['GET', '/api/Optimization/GetNbrRelationsOptimizationHistory', 'canOptimize'],
  ['GET', '/api/Optimization/GetNbrRelationsOptimizationTemplate', 'canOptimize'],
  // A run's corrective AMOS scripts: the access of the run's export.
  ['GET', '/api/Parameters/GetPlanningScripts', 'canPlan', () => ({ query: `parameterPlanningId=${MISSING_ID}` })],
  ['GET', '/api/Validation/GetCpichValidationScripts', 'canValidate', () => ({ query: `cpichValidationId=${MISSING_ID}` })],
  ['GET', '/api/Validation/GetNbrRelationsValidationScripts', 'canValidate', () => ({ query: `nbrRelationsValidationId=${MISSING_ID}` })],
  ['GET', '/api/Optimization/GetNbrRelationsOptimizationScripts', 'canOptimize', () => ({ query: `nbrRelationsOptimizationId=${MISSING_ID}` })],

  // Dashboards (specification §6: the route is open to any session, the menu entry is not; docs/engines/monitoring.md#dashboards:
  // the records and the BI servers behind them are the Administrators' business).
  ['GET', '/api/Dashboard/Inspect', 'canOpenDashboard', ({ caller }) => ({ query: `dashboardId=${MISSING_ID}&userId=${caller.userId ?? MISSING_ID}` })],
  ['GET', '/api/Dashboard/GetServers', 'canAdminister'],
  ['PUT', '/api/Dashboard/Update', 'canAdminister', () => ({ payload: { id: MISSING_ID, type: 'PowerBI', name: 'Probe', url: '', serverId: null } })],
  ['GET', '/api/Dashboard/GetRollout', 'canOpenDashboard'],
  ['GET', '/api/Monitoring/GetSiteMap', 'canOpenDashboard'],

  // Each user's own table settings (issue 16): any session; the caller is always the user whose settings they are.
  ['GET', '/api/TableSettings/GetSettings', 'authenticated', () => ({ query: 'tableKey=probe.table' })],
  [
    'PUT',
    '/api/TableSettings/SaveColumns',
    'authenticated',
    () => ({
      payload: {
        tableKey: 'probe.table',
        columns: [
          { key: 'a', hidden: false, width: null },
          { key: 'a', hidden: true, width: null },
        ],
      },
    }),
  ],
  ['PUT', '/api/TableSettings/SaveFilter', 'authenticated', () => ({ payload: { tableKey: 'probe.table', name: ' ', filters: { a: 'b' } } })],
  ['DELETE', '/api/TableSettings/DeleteFilter', 'authenticated', () => ({ payload: { tableKey: 'probe.table', name: 'no such filter' } })],
];

/** What a caller must see: exactly 401 or 403 when the policy refuses, otherwise a real answer. */
function expectedOutcome(caller: Caller, access: Capability): string {
  const denial = denialOf(caller.principal, access);
  if (denial === 'unauthenticated') return '401';
  return denial === null ? 'allowed' : '403';
}

/** The same words for what the server did: a refusal's status, 'allowed', or what went wrong. */
function actualOutcome(status: number, body: string): string {
  if (status === 401 || status === 403) return String(status);
  if (status >= 500) return `${status} ${body.slice(0, 200)}`;
  return 'allowed';
}

function requestOf(method: Method, path: string, probe: Probe, caller: Caller): InjectOptions {
  const url = `${probe.url ?? path}${probe.query ? `?${probe.query}` : ''}`;
  const headers = headersOf(caller);
  if (probe.multipart) {
    const body = multipart(probe.multipart);
    return { method, url, payload: body.payload, headers: { ...headers, ...body.headers } };
  }
  return { method, url, headers, ...(probe.payload === undefined ? {} : { payload: probe.payload as object }) };
}

describe.each(TEST_DATABASES)('the access matrix on $name', (kind) => {
  let database: TestDatabase;
  let app: FastifyInstance;
  let config: Config;
  let callers: Callers;
  let routes: Map<string, RecordedRoute>;
  const operators = new Map<string, number>();

  beforeAll(async () => {
    database = await kind.open();
    ({ app, config } = await testApp(database));
    callers = await setUpCallers(app, database, config);
    for (const row of await database.db.selectFrom('operators').select(['id', 'name']).execute()) operators.set(row.name, row.id);
    routes = new Map(apiRoutesOf(app).api.map((route) => [routeKey(route.method, route.url), route]));
  });
  afterAll(async () => {
    await app.close();
    await database.dispose();
  });

  const operatorId = (name: string) => {
    const id = operators.get(name);
    if (id === undefined) throw new Error(`no operator ${name}`);
    return id;
  };

  test('every API route the app registers has a row, and every row a route', () => {
    const rows = ROWS.map(([method, path]) => routeKey(method, path));
    expect(rows.length).toBe(new Set(rows).size);
    const served = [...routes.keys()];
    expect({ withoutRow: served.filter((key) => !rows.includes(key)), withoutRoute: rows.filter((key) => !routes.has(key)) }).toEqual({
      withoutRow: [],
      withoutRoute: [],
    });
  });

  const cases = ROWS.map(([method, path, access, probe = none]) => ({ method, path, access, probe }));
  test.each(cases)('$method $path: declares $access, and every caller gets what the policy says', async ({ method, path, access, probe }) => {
    const route = routes.get(routeKey(method, path));
    const expected: string[] = [];
    const actual: string[] = [];
    for (const name of CALLER_NAMES) {
      const caller = callers[name];
      const res = await app.inject(requestOf(method, path, probe({ caller, vodafone: operatorId('Vodafone PT') }), caller));
      expected.push(`${name}: ${expectedOutcome(caller, access)}`);
      // A job's fault answers only 'Something went wrong!': the failed job's error says what happened.
      const failedJob =
        res.statusCode >= 500
          ? await database.db.selectFrom('jobs').select(['kind', 'error']).where('state', '=', 'failed').orderBy('created_at', 'desc').executeTakeFirst()
          : undefined;
      actual.push(`${name}: ${actualOutcome(res.statusCode, res.body)}${failedJob ? ` (job ${failedJob.kind}: ${failedJob.error})` : ''}`);
      if (res.statusCode === 401 || res.statusCode === 403) expect(res.json()).toEqual({ message: expect.any(String) });
    }
    // One comparison, so a failure shows the declared access and every caller's answer together.
    expect({ declared: route && declaredAccess(route), callers: actual }).toEqual({ declared: access, callers: expected });
  });

  describe("a Manager's lists never show another operator's rows", () => {
    let meoUser = 0;
    const MEO_EMAIL = 'meo.only@example.pt';
    beforeAll(async () => {
      meoUser = await insertUser(database.db, { email: MEO_EMAIL, role: 'CellwiseOS', operators: ['MEO'], projects: [['MEO', 'Operations']] });
    });

    const as = (name: 'Manager' | 'Administrator', url: string) => app.inject({ url, headers: headersOf(callers[name]) });
    const MANAGER_OPERATORS = ['NOS', 'Vodafone PT'];

    test('Users/GetUsers: only users of Vodafone PT or NOS', async () => {
      const everyone = (await as('Administrator', '/api/Users/GetUsers')).json<UserListRow[]>();
      expect(everyone.map((u) => u.email)).toContain(MEO_EMAIL);
      const res = await as('Manager', '/api/Users/GetUsers');
      expect(res.statusCode).toBe(200);
      const rows = res.json<UserListRow[]>();
      expect(rows.map((u) => u.email)).not.toContain(MEO_EMAIL);
      expect(rows.filter((u) => !u.operators.split(', ').some((name) => MANAGER_OPERATORS.includes(name)))).toEqual([]);
    });

    test.each(['/api/Users/GetOperators', '/api/Operators/GetOperators'])('%s: only Vodafone PT and NOS', async (url) => {
      expect((await as('Administrator', url)).json<Array<{ name: string }>>().map((o) => o.name)).toContain('MEO');
      const res = await as('Manager', url);
      expect(res.statusCode).toBe(200);
      expect(
        res
          .json<Array<OperatorSummary | { name: string }>>()
          .map((o) => o.name)
          .sort(),
      ).toEqual(MANAGER_OPERATORS);
    });

    test("Users/GetOperatorProjects?operatorIds=<MEO>: none of MEO's projects", async () => {
      const url = `/api/Users/GetOperatorProjects?operatorIds=${operatorId('MEO')}`;
      expect((await as('Administrator', url)).json<ProjectOption[]>().length).toBeGreaterThan(0);
      const res = await as('Manager', url);
      expect([200, 403]).toContain(res.statusCode);
      const shown = res.statusCode === 200 ? res.json<ProjectOption[]>() : [];
      expect(shown.filter((p) => p.operatorId === operatorId('MEO') || !MANAGER_OPERATORS.includes(p.operatorName))).toEqual([]);
    });

    test('Operators/GetOperator?operatorId=<MEO>: refused, nothing of MEO in the answer', async () => {
      const url = `/api/Operators/GetOperator?operatorId=${operatorId('MEO')}`;
      expect((await as('Administrator', url)).statusCode).toBe(200);
      const res = await as('Manager', url);
      expect([403, 404]).toContain(res.statusCode);
      expect(res.json()).toEqual({ message: expect.any(String) });
      expect(res.body).not.toContain('Swap 2026');
    });

    test('Users/GetUserById?userId=<a MEO-only user>: refused, nothing of the user in the answer', async () => {
      const url = `/api/Users/GetUserById?userId=${meoUser}`;
      expect((await as('Administrator', url)).statusCode).toBe(200);
      const res = await as('Manager', url);
      expect([403, 404]).toContain(res.statusCode);
      expect(res.json()).toEqual({ message: expect.any(String) });
      expect(res.body).not.toContain(MEO_EMAIL);
    });
  });
});

// ---------------------------------------------------------------------------------------------------
// The operator dimension (issue 42): every data route × (a record of my current operator, one of an
// operator I belong to but am not switched to, one of an operator I do not belong to) × every caller.

/** How a data route is probed for one operator's records, and how its answer shows the record. */
interface DataProbe {
  /** record: the route addresses one record (found unless 404); list: the answer lists the marker; export: the exported workbook holds it. */
  shows: 'record' | 'list' | 'export';
  request: (context: { caller: Caller; records: OperatorRecords }) => Probe;
  /** What in a list or a workbook is the operator's record. */
  marker?: (records: OperatorRecords) => string;
  /** Puts the record in the state the route expects, before each call (as its operator). */
  prepare?: (database: TestDatabase, records: OperatorRecords) => Promise<void>;
}
type Tenancy = DataProbe | { notData: string };

const PUBLIC = { notData: 'public: no session, no data' };
const OWN = { notData: "the caller's own account, notifications, hub connection, files, jobs or table settings: per user, not per operator" };
const MANAGEMENT = { notData: 'management of users, operators and projects: scoped by the caller’s operators (checked above), not by the current one' };
const REFERENCE = { notData: 'reference data shared by every operator (BI dashboards, alarm hints, MoBatch scripts, workbook templates)' };
const FREQUENCY = {
  notData:
    'frequency plans are keyed by the operator itself: a planner reads those of the operators they work for (planning.test.ts), Administrators edit every one',
};
const SHARES = {
  notData:
    'the sites shared with the current operator (RAN sharing): ran-sharing.test.ts proves each side lists its own shares only and nothing of a site not shared',
};
const IMPORT = { notData: "writes the caller's upload into the current operator: tenancy.test.ts proves the other operators untouched" };
/** Not yet in tenancy.test.ts (list-tenancy and the area suites check some of them). */
const UPLOAD_WORK = { notData: "writes or reads the caller's upload in the current operator; no record of another operator is addressed" };

const userOf = (caller: Caller) => caller.userId ?? MISSING_ID;
const record = (request: DataProbe['request'], prepare?: DataProbe['prepare']): DataProbe => ({ shows: 'record', request, ...(prepare ? { prepare } : {}) });
const list = (marker: (r: OperatorRecords) => string, request: DataProbe['request'] = () => ({})): DataProbe => ({ shows: 'list', request, marker });
const exported = (marker: (r: OperatorRecords) => string, request: DataProbe['request'] = () => ({})): DataProbe => ({ shows: 'export', request, marker });
const site = (r: OperatorRecords) => r.siteId;
const node = (r: OperatorRecords) => r.nodeName;
const local = (r: OperatorRecords) => r.localId;
const stamp = (r: OperatorRecords) => r.stamp;
/** A past run addressed by its id (its export, its findings). */
const runExport = (kind: RunKind, parameter: string) => record(({ records }) => ({ query: `${parameter}=${records.runIds[kind]}` }));

const TENANCY: Record<string, Tenancy> = {
  'GET /api/health': PUBLIC,
  'POST /api/auth/login': PUBLIC,
  'POST /api/auth/recover': PUBLIC,
  'POST /api/auth/completeRegistration': PUBLIC,
  'POST /api/auth/recoverconfirmation': PUBLIC,
  'POST /api/account/GetUserInfo': OWN,
  'GET /api/Account/GetUserOperators': OWN,
  'POST /api/Account/ChangePassword': OWN,
  'POST /api/Account/UpdateSettings': OWN,
  'GET /api/Notification/Notifications': OWN,
  'PUT /api/Notification/MarkAsRead/:id': OWN,
  'PUT /api/Notification/MarkAllAsRead': OWN,
  'POST /api/notificationhub/negotiate': OWN,
  'GET /api/notificationhub': OWN,
  'POST /api/notificationhub': OWN,
  'DELETE /api/notificationhub': OWN,
  'POST /api/File/Upload': OWN,
  'POST /api/File/UploadMultiple': OWN,
  'GET /api/File/Download': OWN,
  'GET /api/Users/GetUsers': MANAGEMENT,
  'GET /api/Users/GetUsersStats': MANAGEMENT,
  'GET /api/Users/GetRoles': MANAGEMENT,
  'GET /api/Users/GetOperators': MANAGEMENT,
  'GET /api/Users/GetOperatorProjects': MANAGEMENT,
  'GET /api/Users/GetUserById': MANAGEMENT,
  'POST /api/Users/CreateUser': MANAGEMENT,
  'POST /api/Users/EditUser': MANAGEMENT,
  'POST /api/Users/ResendConfirmationEmail': MANAGEMENT,
  'POST /api/Users/DeactivateUser': MANAGEMENT,
  'POST /api/Users/ReactivateUser': MANAGEMENT,
  'DELETE /api/Users/DeleteUser': MANAGEMENT,
  'GET /api/Users/GetAuditTrail': MANAGEMENT,
  'GET /api/Operators/GetOperators': MANAGEMENT,
  'GET /api/Operators/GetOperator': MANAGEMENT,
  'GET /api/Operators/GetImage': MANAGEMENT,
  'POST /api/Operators/CreateOperator': MANAGEMENT,
  'POST /api/Operators/UpdateOperator': MANAGEMENT,
  'POST /api/Operators/UpdateImage': MANAGEMENT,
  'DELETE /api/Operators/DeleteOperator': MANAGEMENT,
  'POST /api/Operators/CreateProject': MANAGEMENT,
  'DELETE /api/Operators/DeleteProject': MANAGEMENT,
  'GET /api/Jobs/GetJobs': OWN,
  'GET /api/Jobs/GetJob': OWN,
  'POST /api/Jobs/RetryJob': OWN,
  'POST /api/Jobs/CancelJob': OWN,
  'GET /api/Dashboard/Inspect': REFERENCE,
  'GET /api/Dashboard/GetServers': REFERENCE,
  'PUT /api/Dashboard/Update': REFERENCE,
  'GET /api/Monitoring/GetAlarmHints': REFERENCE,
  'POST /api/Monitoring/SaveAlarmHint': REFERENCE,
  'POST /api/Monitoring/DeleteAlarmHint': REFERENCE,
  'GET /api/Parser/GetMoBacthScripts': REFERENCE,
  'GET /api/Validation/GetNbrRelationsTemplate': REFERENCE,
  'GET /api/Optimization/GetNbrRelationsOptimizationTemplate': REFERENCE,
  'GET /api/Parameters/GetFrequencyPlans': FREQUENCY,
  'POST /api/Parameters/SaveFrequencyPlan': FREQUENCY,
  'GET /api/TableSettings/GetSettings': OWN,
  'PUT /api/TableSettings/SaveColumns': OWN,
  'PUT /api/TableSettings/SaveFilter': OWN,
  'DELETE /api/TableSettings/DeleteFilter': OWN,
  'POST /api/Network/ImportDump': IMPORT,
  'GET /api/Tracker/CommissioningPlanUpload': IMPORT,
  'GET /api/Tracker/ImportTracker': UPLOAD_WORK,
  'GET /api/Tracker/WorkOrderStatusUpload': UPLOAD_WORK,
  'GET /api/Parser/ParseEricssonLogs': IMPORT,
  'GET /api/Monitoring/ImportPerformanceCounters': UPLOAD_WORK,
  'GET /api/Validation/RunNbrRelationsValidation': UPLOAD_WORK,
  'GET /api/Optimization/RunNbrRelationsOptimization': UPLOAD_WORK,
  // The tracker sync rebuilds the current operator's tracker from its plan.
  'GET /api/Tracker/TrackerUpload': UPLOAD_WORK,

  // The network inventory and the site pickers.
  'GET /api/Network/GetSummary': list(stamp),
  'GET /api/Parameters/GetLastDumpDate': list(stamp),
  'GET /api/Validation/GetLastUtranCellsDate': list(stamp),
  'GET /api/Validation/GetLastNbrRelationsDate': list(stamp),
  'GET /api/Parameters/GetSiteList': list(site, () => ({ query: 'query=TEN' })),
  'GET /api/Validation/GetSites': list(site),
  'GET /api/Validation/GetUtranSites': list(site),
  'GET /api/Monitoring/GetSiteList': list(site),

  // Tracking.
  'GET /api/Tracker/GetCommissioningPlan': list(local),
  'GET /api/Tracker/GetCommissioningPlanLastImport': list(stamp),
  'GET /api/Tracker/GetCommissioningPlanExcel': exported(local),
  'GET /api/Tracker/GetTracker': list(local),
  'GET /api/Tracker/GetTrackerLastUpdate': list(stamp),
  'GET /api/Tracker/DownloadTracker': exported(local),
  'GET /api/Tracker/GetWorkOrderStatusLastImport': list(stamp),
  'GET /api/Tracker/GetWorkOrderStatusDelta': list(local),
  'GET /api/Tracker/GetWorkOrderStatusExcel': exported(local),
  'GET /api/Tracker/GetWorkOrderStatusDeltaExcel': exported(local),

  // Monitoring.
  'GET /api/Parser/GetParseHistory': list((r) => `${r.nodeName}.zip`),
  'GET /api/Parser/GetParseReport': record(({ records }) => ({ query: `id=${records.parseId}` })),
  'GET /api/Monitoring/GetLogsLastImport': list(stamp),
  'GET /api/Monitoring/GetFaultManagement': list(node),
  // A Fault Management link's alarm (?alarm=<id>, issue 47): another operator's id is not found.
  'GET /api/Monitoring/GetAlarm': record(({ records }) => ({ query: `id=${records.alarmId}` })),
  'GET /api/Monitoring/GetFaultManagementSummary': list(node),
  'GET /api/Monitoring/GetConfigurationManagementSummary': list(node),
  'GET /api/Monitoring/GetOverallSiteSummary': list(site),
  'GET /api/Monitoring/GetSiteReport': record(({ records }) => ({ query: `siteId=${records.siteId}` })),
  'GET /api/Monitoring/GetSiteReportExcel': record(({ records }) => ({ query: `siteId=${records.siteId}` })),
  'GET /api/Monitoring/GetSiteReportEmail': record(({ caller, records }) => ({ query: `siteId=${records.siteId}&userId=${userOf(caller)}` })),
  'POST /api/Monitoring/AcknowledgeAlarm': record(({ records }) => ({ payload: { alarmId: records.alarmId, note: 'Seen by the matrix' } })),
  'POST /api/Monitoring/UnacknowledgeAlarm': record(
    ({ records }) => ({ payload: { alarmId: records.alarmId } }),
    async (database, records) => {
      const alarm = await database.db
        .selectFrom('monitoring_alarms')
        .select(['alarm_key', 'node_name'])
        .where('id', '=', records.alarmId)
        .executeTakeFirstOrThrow();
      await database.db.deleteFrom('monitoring_alarm_acks').where('alarm_key', '=', alarm.alarm_key).execute();
      await database.db
        .insertInto('monitoring_alarm_acks')
        .values({ alarm_key: alarm.alarm_key, node_name: alarm.node_name, note: 'To remove', acked_by: null, acked_by_name: 'Matrix', acked_at: records.stamp })
        .execute();
    },
  ),
  'GET /api/Monitoring/GetPerformanceLastImport': list(stamp),
  // The alarm console (issue 47).
  'GET /api/Monitoring/GetAlarmCounts': {
    notData: "counts of the current operator's alarms, no record to name: alarm-console.test.ts proves another operator's alarms uncounted",
  },
  'POST /api/Monitoring/AcknowledgeAlarms': record(({ records }) => ({ payload: { alarmIds: [records.alarmId], note: 'Seen by the matrix' } })),
  'GET /api/Monitoring/GetAlarmChanges': {
    ...list(site),
    // As a node's second log leaves it: one alarm new since the first.
    prepare: async (database, target) => {
      await database.db.deleteFrom('monitoring_alarm_changes').where('node_name', '=', target.nodeName).execute();
      await database.db
        .insertInto('monitoring_alarm_changes')
        .values({
          node_name: target.nodeName,
          site_id: target.siteId,
          alarm_key: `${target.nodeName}|ManagedElement=1|Matrix alarm`,
          change: 'new',
          severity: 'Major',
          specific_problem: 'Matrix alarm',
          mo: 'ManagedElement=1',
          alarm_at: target.stamp,
          parse_id: target.parseId,
          logs_at: target.stamp,
          previous_logs_at: null,
        })
        .execute();
    },
  },
  'GET /api/Monitoring/SearchSites': list(site, () => ({ query: 'text=TEN' })),
  'GET /api/Monitoring/GetReportRecipients': {
    notData: "the active users of the caller's current operator: alarm-console.test.ts proves a user of another operator unlisted and refused as a recipient",
  },
  'POST /api/Monitoring/SendSiteReport': record(({ caller, records }) => ({ payload: { siteId: records.siteId, userIds: [userOf(caller)] } })),
  'GET /api/Monitoring/GetDigestSchedules': {
    notData: "the projects of the caller's current operator: alarm-console.test.ts proves another operator's project not found",
  },
  'PUT /api/Monitoring/SaveDigestSchedule': {
    notData: "a project of the caller's current operator: alarm-console.test.ts proves another operator's project not found",
  },
  'DELETE /api/Monitoring/DeleteDigestSchedule': { notData: "the current operator's schedule: alarm-console.test.ts proves another operator's untouched" },
  'POST /api/Monitoring/SendDigestNow': { notData: "the current operator's schedule: alarm-console.test.ts proves another operator's not found" },

  // Runs and their exports.
  'GET /api/Parameters/RunParameterPlanning': record(({ caller, records }) => ({
    query: `siteId=${records.siteId}&antenna=AIR3227%2F78&lteBands=L800&userId=${userOf(caller)}`,
  })),
  'GET /api/Parameters/GetPlanningHistory': list(site),
  'GET /api/Parameters/GetParameterPlanningExport': runExport('parameterPlanning', 'parameterPlanningId'),
  // The first caller of the operator discards it (200), the next ones find it already discarded (409): found either way.
  'POST /api/Parameters/DiscardPlan': record(({ records }) => ({ payload: { parameterPlanningId: records.runIds.parameterPlanning } })),
  'GET /api/Parameters/GetParameterPlanningFindings': runExport('parameterPlanning', 'parameterPlanningId'),
  'GET /api/Validation/RunCpichValidation': record(({ caller, records }) => ({ query: `sites=${records.siteId}&userId=${userOf(caller)}` })),
  'GET /api/Validation/GetCpichValidationExport': runExport('cpichValidation', 'cpichValidationId'),
  'GET /api/Validation/GetCpichValidationFindings': runExport('cpichValidation', 'cpichValidationId'),
  'GET /api/Validation/GetCpichValidationHistory': list(site),
  'GET /api/Validation/GetNbrRelationsValidationHistory': list(site),
  'GET /api/Validation/GetNbrRelationsValidationExport': runExport('nbrRelationsValidation', 'nbrRelationsValidationId'),
  'GET /api/Validation/GetNbrRelationsValidationFindings': runExport('nbrRelationsValidation', 'nbrRelationsValidationId'),
  'GET /api/Validation/RunRanShareNbrRelationsValidation': record(({ caller, records }) => ({ query: `site=${records.siteId}&userId=${userOf(caller)}` })),
  'GET /api/Validation/GetRanShareValidationHistory': list(site),
  'GET /api/Validation/GetRanShareSites': SHARES,
  'GET /api/Validation/GetRanShareValidationExport': runExport('ranShareValidation', 'runId'),
  'GET /api/Validation/GetRanShareValidationFindings': runExport('ranShareValidation', 'runId'),
  'GET /api/Validation/GetHealthChecksExport': record(({ caller, records }) => ({ query: `siteId=${records.siteId}&userId=${userOf(caller)}` })),
  'GET /api/Validation/GetHealthChecksHistory': list(site),
  'GET /api/Validation/GetHealthChecksRunExport': runExport('healthChecks', 'runId'),
  'GET /api/Validation/GetHealthChecksFindings': runExport('healthChecks', 'runId'),
  'GET /api/Optimization/GetNbrRelationsOptimizationExport': runExport('nbrRelationsOptimization', 'nbrRelationsOptimizationId'),
  'GET /api/Optimization/GetNbrRelationsOptimizationFindings': runExport('nbrRelationsOptimization', 'nbrRelationsOptimizationId'),
  'GET /api/Optimization/GetNbrRelationsOptimizationHistory': list(site),
  // Each operator's runs keep a scripts zip (support/tenants.ts): another operator's run answers 404.
  'GET /api/Parameters/GetPlanningScripts': runExport('parameterPlanning', 'parameterPlanningId'),
  'GET /api/Validation/GetCpichValidationScripts': runExport('cpichValidation', 'cpichValidationId'),
  'GET /api/Validation/GetNbrRelationsValidationScripts': runExport('nbrRelationsValidation', 'nbrRelationsValidationId'),
  'GET /api/Optimization/GetNbrRelationsOptimizationScripts': runExport('nbrRelationsOptimization', 'nbrRelationsOptimizationId'),

  // Dashboards for every signed-in user.
  'GET /api/Dashboard/GetRollout': list((r) => trackerStatusOf(r.operatorId)),
  'GET /api/Monitoring/GetSiteMap': list(site),
};

const RECORD_KINDS = ['mine', 'belonging, not current', 'not belonging'] as const;
type RecordKind = (typeof RECORD_KINDS)[number];

async function workbookText(buffer: Buffer): Promise<string> {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(buffer as never);
  const cells: string[] = [];
  workbook.eachSheet((sheet) => sheet.eachRow((row) => row.eachCell((cell) => cells.push(String(cell.text)))));
  return cells.join('\n');
}

describe.each(TEST_DATABASES)('the access matrix by operator on $name', (kind) => {
  let database: TestDatabase;
  let app: FastifyInstance;
  let callers: Callers;
  let routes: Map<string, RecordedRoute>;
  /** Each operator's records; 'Orange' is an operator no user belongs to, not even the Administrator. */
  const records = new Map<string, OperatorRecords>();
  /** Per caller: the operator of each kind of record (null: the caller has no such operator). */
  const operatorsOf = new Map<CallerName, Record<RecordKind, string | null>>();

  beforeAll(async () => {
    database = await kind.open();
    let config: Config;
    ({ app, config } = await testApp(database));
    callers = await setUpCallers(app, database, config);
    routes = new Map(apiRoutesOf(app).api.map((route) => [routeKey(route.method, route.url), route]));
    await database.db.insertInto('operators').values({ name: 'Orange', avatar: null, created_at: new Date().toISOString() }).execute();
    const admin = callers.Administrator.userId!;
    for (const operator of await database.db.selectFrom('operators').select(['id', 'name']).orderBy('id').execute()) {
      records.set(operator.name, await insertOperatorRecords(database, config.dataDir, operator.id, admin));
    }
    const names = new Map([...records].map(([name, r]) => [r.operatorId, name]));
    for (const name of CALLER_NAMES) {
      const caller = callers[name];
      const mine = caller.principal.operatorId === null ? null : names.get(caller.principal.operatorId)!;
      const belonging =
        caller.userId === null
          ? []
          : (await database.db.selectFrom('user_operators').select('operator_id').where('user_id', '=', caller.userId).orderBy('operator_id').execute()).map(
              (o) => names.get(o.operator_id)!,
            );
      operatorsOf.set(name, {
        mine,
        'belonging, not current': belonging.find((o) => o !== mine) ?? null,
        'not belonging': ['MEO', 'NOS', 'Vodafone PT', 'Orange'].find((o) => !belonging.includes(o)) ?? null,
      });
    }
  });
  afterAll(async () => {
    await app.close();
    await database.dispose();
  });

  test('every API route is either a data route probed per operator or says why it is not one', () => {
    const tenancy = Object.keys(TENANCY).map((key) => routeKey(...(key.split(' ') as [string, string])));
    expect(tenancy.length).toBe(new Set(tenancy).size);
    const served = [...routes.keys()];
    expect({ unlisted: served.filter((key) => !tenancy.includes(key)), notServed: tenancy.filter((key) => !routes.has(key)) }).toEqual({
      unlisted: [],
      notServed: [],
    });
  });

  test('the callers have the operators the matrix needs', () => {
    expect(operatorsOf.get('CellwiseHQ')).toEqual({ mine: 'Vodafone PT', 'belonging, not current': 'MEO', 'not belonging': 'NOS' });
    expect(operatorsOf.get('Manager')).toEqual({ mine: 'Vodafone PT', 'belonging, not current': 'NOS', 'not belonging': 'MEO' });
    expect(operatorsOf.get('Administrator')).toEqual({ mine: 'Vodafone PT', 'belonging, not current': 'NOS', 'not belonging': 'Orange' });
    expect(operatorsOf.get('Client')).toEqual({ mine: 'NOS', 'belonging, not current': null, 'not belonging': 'MEO' });
  });

  /** What the caller's answer shows of the record: found, not found (404, or absent from the list), a refusal, or a fault. */
  async function outcomeOf(probe: DataProbe, caller: Caller, target: OperatorRecords, res: LightMyRequestResponse): Promise<string> {
    if (res.statusCode === 401 || res.statusCode === 403) return String(res.statusCode);
    // 599 is the API's answer for work it refuses on what it found (a site that is not shared, no logs yet).
    if (probe.shows === 'record' && res.statusCode === 599) return 'found';
    if (res.statusCode >= 500) {
      // A job's fault answers only 'Something went wrong!': the failed job's error says what happened.
      const job = await database.db.selectFrom('jobs').select(['kind', 'error']).where('state', '=', 'failed').orderBy('created_at', 'desc').executeTakeFirst();
      return `${res.statusCode} ${res.body.slice(0, 200)}${job ? ` (last failed job ${job.kind}: ${job.error})` : ''}`;
    }
    if (probe.shows === 'record') return res.statusCode === 404 ? 'not found' : 'found';
    if (res.statusCode !== 200) return `${res.statusCode} ${res.body.slice(0, 200)}`;
    let text = res.body;
    if (probe.shows === 'export') {
      const file = res.json<{ file: string }>().file;
      const download = await app.inject({ url: `/api/File/Download?file=${encodeURIComponent(file)}`, headers: headersOf(caller) });
      if (download.statusCode !== 200) return `download ${download.statusCode}`;
      text = await workbookText(download.rawPayload);
    }
    return text.includes(probe.marker!(target)) ? 'found' : 'not found';
  }

  const dataRoutes = Object.entries(TENANCY).flatMap(([key, tenancy]) => {
    if ('notData' in tenancy) return [];
    const [method, path] = key.split(' ') as [Method, string];
    const row = ROWS.find(([m, p]) => m === method && p === path);
    return row ? [{ method, path, access: row[2], probe: tenancy }] : [];
  });

  test.each(dataRoutes)('$method $path: a record of another operator is never found, whoever asks', async ({ method, path, access, probe }) => {
    const expected: string[] = [];
    const actual: string[] = [];
    for (const name of CALLER_NAMES) {
      const caller = callers[name];
      for (const recordKind of RECORD_KINDS) {
        const operator = operatorsOf.get(name)![recordKind];
        if (operator === null) continue;
        const target = records.get(operator)!;
        if (probe.prepare) await runInOperator(target.operatorId, () => probe.prepare!(database, target));
        const res = await app.inject(requestOf(method, path, probe.request({ caller, records: target }), caller));
        const policy = expectedOutcome(caller, access);
        expected.push(`${name}, ${recordKind} (${operator}): ${policy === 'allowed' ? (recordKind === 'mine' ? 'found' : 'not found') : policy}`);
        actual.push(`${name}, ${recordKind} (${operator}): ${await outcomeOf(probe, caller, target, res)}`);
      }
    }
    expect(actual).toEqual(expected);
  });
});
