// The app's instances record every route with its options (see support/routes): the corpus below is
// generated from each route's own querystring, params and body schemas, so a new route joins it.
jest.mock('fastify', () => jest.requireActual<{ recordingFastify: () => unknown }>('./support/routes').recordingFastify());

import fc from 'fast-check';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { sql } from 'kysely';
import { runUnscoped } from '../src/db/operator-scope';
import type { Config } from '../src/config';
import { testApp } from './support/app';
import { TEST_DATABASES, type TestDatabase } from './support/databases';
import { headersOf, MISSING_ID, setUpCallers, type Caller, type Callers } from './support/principals';
import { apiRoutesOf, declaredAccess, type RecordedRoute } from './support/routes';
import { multipart } from './fixtures/network-import/dumps';
import { PNG_BYTES } from './fixtures/tracking/workbooks';

/** Fixed, so a failure reproduces; each route mixes in a hash of its own key, so adding a route shifts no other. */
const SEED = 20_260_302;
const RUNS_PER_ROUTE = 20;
/** An answer slower than this is a hang. */
const TIMEOUT_MS = 5_000;

// ---------------------------------------------------------------------------------------------
// Schemas, as TypeBox leaves them on the route (JSON Schema).

interface Schema {
  type?: string | string[];
  anyOf?: Schema[];
  const?: unknown;
  enum?: unknown[];
  properties?: Record<string, Schema>;
  required?: string[];
  additionalProperties?: boolean | Schema;
  items?: Schema;
  minItems?: number;
  maxItems?: number;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  format?: string;
  pattern?: string;
  content?: Record<string, { schema: Schema }>;
}

type Location = 'querystring' | 'params' | 'body';

/** The JSON schema a location is validated with (a body may be given per content type). */
function schemaAt(route: RecordedRoute, location: Location): Schema | undefined {
  const schema = (route.options.schema as Partial<Record<Location, Schema>> | undefined)?.[location];
  if (!schema) return undefined;
  if (location === 'body' && schema.content) return schema.content['application/json']?.schema;
  return schema;
}

const typesOf = (schema: Schema): string[] => (schema.type === undefined ? [] : Array.isArray(schema.type) ? schema.type : [schema.type]);

/**
 * Whether a value might pass the schema under any coercion a validator could apply (text to number,
 * a one-item array to its item, null to '' or 0, ...). Generous on purpose: when this says no, the
 * input is invalid by the declared contract whatever the validator's options, and must get a 4xx
 * that changes nothing. `undefined` is an absent value.
 */
function mayAccept(schema: Schema, value: unknown): boolean {
  if (schema.anyOf) return schema.anyOf.some((member) => mayAccept(member, value));
  if (value === undefined) return false;
  if (Array.isArray(value) && value.length === 1 && !typesOf(schema).includes('array') && mayAccept(schema, value[0])) return true;
  if ('const' in schema) return value === schema.const || (typeof value !== 'object' && String(value) === String(schema.const));
  if (schema.enum) return schema.enum.some((option) => value === option || (typeof value !== 'object' && String(value) === String(option)));
  const types = typesOf(schema);
  if (types.length === 0) return true;
  return types.some((type) => {
    switch (type) {
      case 'string': {
        if (typeof value === 'object' && value !== null) return false;
        const text = value === null ? '' : String(value);
        return text.length >= (schema.minLength ?? 0) && text.length <= (schema.maxLength ?? Infinity);
      }
      case 'integer':
      case 'number': {
        let n: number;
        if (typeof value === 'number') n = value;
        else if (typeof value === 'boolean') n = Number(value);
        else if (value === null) n = 0;
        else if (typeof value === 'string') n = value.trim() === '' ? 0 : Number(value);
        else return false;
        if (Number.isNaN(n) || (type === 'integer' && !Number.isInteger(n))) return false;
        return n >= (schema.minimum ?? -Infinity) && n <= (schema.maximum ?? Infinity);
      }
      case 'boolean':
        return typeof value === 'boolean' || value === null || ['true', 'false', '1', '0', ''].includes(String(value));
      case 'null':
        return value === null || value === '' || value === 0 || value === false || value === 'null';
      case 'array': {
        const items = Array.isArray(value) ? value : [value];
        if (items.length < (schema.minItems ?? 0) || items.length > (schema.maxItems ?? Infinity)) return false;
        return !schema.items || items.every((item) => mayAccept(schema.items!, item));
      }
      case 'object': {
        if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
        const record = value as Record<string, unknown>;
        const properties = schema.properties ?? {};
        if ((schema.required ?? []).some((key) => !Object.prototype.hasOwnProperty.call(record, key))) return false;
        return Object.keys(record).every((key) =>
          Object.prototype.hasOwnProperty.call(properties, key) ? mayAccept(properties[key]!, record[key]) : schema.additionalProperties !== false,
        );
      }
      default:
        return true;
    }
  });
}

/**
 * A valid value that points at nothing: ids that no row has, names no row uses, an e-mail nobody
 * owns. Objects carry their required properties only. It is the background each bad field is put into.
 */
function validValue(schema: Schema, key = ''): unknown {
  if (schema.anyOf) return validValue(schema.anyOf[0]!, key);
  if ('const' in schema) return schema.const;
  if (schema.enum) return schema.enum[0];
  const type = typesOf(schema)[0];
  switch (type) {
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const name of schema.required ?? []) out[name] = validValue(schema.properties?.[name] ?? {}, name);
      return out;
    }
    case 'array':
      return [];
    case 'integer':
    case 'number':
      return Math.max(schema.minimum ?? 1, Math.min(schema.maximum ?? MISSING_ID, MISSING_ID));
    case 'boolean':
      return false;
    case 'null':
      return null;
    default: {
      if (schema.format === 'email' || /email/i.test(key)) return 'nobody@example.pt';
      const text = 'probe-value-'.padEnd(schema.minLength ?? 0, 'x');
      return text.slice(0, schema.maxLength ?? text.length);
    }
  }
}

// ---------------------------------------------------------------------------------------------
// The corpus.

const HUGE = 'A'.repeat(100_000);
const HUGE_EMOJI = '🚀'.repeat(25_000);
const STRANGE_TEXT = [
  '💥🚀📡 emoji',
  '\u202Egnp.exe',
  'مرحبا بالعالم',
  'שלום עולם',
  'a\u0000b',
  '\u0000',
  '\u0007\u001b[2J',
  "Robert'); DROP TABLE users;--",
  "' OR '1'='1",
  '../../../../etc/passwd',
  '%00',
  '${jndi:ldap://x/a}',
  '<script>alert(1)</script>',
  'e\u0301\u0301\u0301',
];
/** Numbers and number-like text no row's id equals (never a small positive integer: that could be a real user). */
const HUGE_IDS = [1e30, -1, 0, 1.5, 'NaN', '100000000000000000000', '1e30', '-1', 'Infinity', '0x10', Number.MAX_SAFE_INTEGER + 2];
/** Text that is no number, so it can never be coerced into a real id. */
const randomText = fc.string({ unit: 'binary', maxLength: 40 }).filter((s) => s.trim() === '' || Number.isNaN(Number(s)));
const hugeInteger = fc.oneof(fc.integer({ min: 2 ** 31, max: Number.MAX_SAFE_INTEGER }), fc.integer({ min: Number.MIN_SAFE_INTEGER, max: 0 }));

/** A JSON value of the wrong kind, or of the right kind and a strange content. `true` is left out: it coerces to 1. */
const jsonOddity: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom<unknown>(...HUGE_IDS, false, null, '', '   ', ['x'], ['x', 'y'], ['x', { y: 1 }], [], { nested: { deep: ['x'] } }, {}, { $gt: '' }),
  fc.constantFrom(HUGE, HUGE_EMOJI, ...STRANGE_TEXT),
  randomText,
  hugeInteger,
  fc.double({ noNaN: true }).filter((n) => !Number.isInteger(n) || Math.abs(n) > 2 ** 31),
);
/** What a query or path parameter can carry: text, or (query only) the same name repeated. */
const textOddity: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(...HUGE_IDS.map(String), 'true', 'null', '', ' ', '[]', '{}', '{"$gt":""}', 'x,y', ',,,'),
  fc.constantFrom(HUGE, HUGE_EMOJI, ...STRANGE_TEXT),
  randomText,
  hugeInteger.map(String),
);
const queryOddity: fc.Arbitrary<string | string[]> = fc.oneof(
  { weight: 4, arbitrary: textOddity },
  { weight: 1, arbitrary: fc.constantFrom<string[]>(['x', 'y'], ['x'], ['1e30', '-1'], [HUGE, 'y'], ['', '']) },
);
const EXTRA_KEYS = ['unexpected', '__proto__', 'constructor', 'access', 'isAdmin', ' '];

type Body =
  | { kind: 'absent' }
  | { kind: 'json'; value: unknown }
  /** Not JSON, or not a type the route reads: invalid whatever it holds. */
  | { kind: 'raw'; contentType: string; payload: string };

interface BadRequest {
  what: string;
  query: Record<string, string | string[]>;
  params: Record<string, string>;
  body: Body;
}

/** Whole bodies that are wrong in themselves: no body, the wrong JSON kind, not JSON, not a type the route reads. */
const wholeBodies: fc.Arbitrary<{ what: string; body: Body }> = fc.constantFrom<{ what: string; body: Body }>(
  { what: 'no body', body: { kind: 'absent' } },
  { what: 'body null', body: { kind: 'json', value: null } },
  { what: 'body []', body: { kind: 'json', value: [] } },
  { what: 'body "text"', body: { kind: 'json', value: 'text' } },
  { what: 'body 42', body: { kind: 'json', value: 42 } },
  { what: 'body nested 2000 deep', body: { kind: 'raw', contentType: 'application/json', payload: '['.repeat(2000) + ']'.repeat(2000) } },
  { what: 'truncated JSON', body: { kind: 'raw', contentType: 'application/json', payload: '{"a":' } },
  { what: 'empty JSON body', body: { kind: 'raw', contentType: 'application/json', payload: '' } },
  { what: '__proto__ pollution', body: { kind: 'raw', contentType: 'application/json', payload: '{"__proto__":{"isAdmin":true}}' } },
  { what: 'text/plain', body: { kind: 'raw', contentType: 'text/plain', payload: '{"a":1}' } },
  { what: 'form-urlencoded', body: { kind: 'raw', contentType: 'application/x-www-form-urlencoded', payload: 'a=1&b=2' } },
  { what: 'XML', body: { kind: 'raw', contentType: 'application/xml', payload: '<a>1</a>' } },
  { what: 'multipart without boundary', body: { kind: 'raw', contentType: 'multipart/form-data', payload: '--x\r\n\r\n' } },
  { what: 'JSON as UTF-16', body: { kind: 'raw', contentType: 'application/json; charset=utf-16', payload: '{}' } },
);

function omit(record: Record<string, unknown>, key: string): Record<string, unknown> {
  const out = { ...record };
  delete out[key];
  return out;
}

function withKey(record: Record<string, unknown>, key: string, value: unknown): Record<string, unknown> {
  // defineProperty: `__proto__` becomes a real key, as a client sending it would make it.
  const out = { ...record };
  Object.defineProperty(out, key, { value, enumerable: true, configurable: true, writable: true });
  return out;
}

const show = (value: unknown): string => {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 60 ? `${text.slice(0, 40)}… (${text.length} chars)` : text;
};

/** Bad versions of one location's value: a field missing, a field wrong, a field too many (and whole bodies). */
function badValuesOf(schema: Schema, location: Location): fc.Arbitrary<{ what: string; value: unknown }> {
  const base = validValue(schema) as Record<string, unknown>;
  const fields = Object.keys(schema.properties ?? {});
  const oddity: fc.Arbitrary<unknown> = location === 'body' ? jsonOddity : location === 'querystring' ? queryOddity : textOddity;
  const options: Array<fc.Arbitrary<{ what: string; value: unknown }>> = [];
  const required = schema.required ?? [];
  if (required.length > 0) options.push(fc.constantFrom(...required).map((field) => ({ what: `${location} without ${field}`, value: omit(base, field) })));
  if (fields.length > 0) {
    options.push(
      fc
        .tuple(fc.constantFrom(...fields), oddity)
        .map(([field, value]) => ({ what: `${location}.${field} = ${show(value)}`, value: withKey(base, field, value) })),
    );
  }
  if (location !== 'params') {
    options.push(
      fc
        .tuple(fc.constantFrom(...EXTRA_KEYS), oddity)
        .map(([key, value]) => ({ what: `${location} + ${key} = ${show(value)}`, value: withKey(base, key, value) })),
    );
  }
  return fc.oneof(...options);
}

interface Target {
  route: RecordedRoute;
  schemas: Partial<Record<Location, Schema>>;
}

/** Query and path parameters are text on the wire, and judged as text. */
const asText = (record: Record<string, unknown>): Record<string, string | string[]> =>
  Object.fromEntries(Object.entries(record).map(([k, v]) => [k, Array.isArray(v) ? v.map(String) : String(v)]));

/** A request with `value` at `location` and valid values everywhere else. */
function placed(target: Target, location: Location, { what, value }: { what: string; value: unknown }): BadRequest {
  const { schemas } = target;
  const request: BadRequest = {
    what,
    query: asText((schemas.querystring ? validValue(schemas.querystring) : {}) as Record<string, unknown>),
    params: asText((schemas.params ? validValue(schemas.params) : {}) as Record<string, unknown>) as Record<string, string>,
    body: schemas.body ? { kind: 'json', value: validValue(schemas.body) } : { kind: 'absent' },
  };
  if (location === 'querystring') request.query = asText(value as Record<string, unknown>);
  if (location === 'params') request.params = asText(value as Record<string, unknown>) as Record<string, string>;
  if (location === 'body') request.body = { kind: 'json', value };
  return request;
}

const locationsOf = (target: Target) => (['querystring', 'params', 'body'] as const).filter((location) => target.schemas[location]);

/** The route's random bad requests: one location made bad, the others valid. */
function badRequestsOf(target: Target): fc.Arbitrary<BadRequest> {
  const options: Array<fc.Arbitrary<BadRequest>> = locationsOf(target).map((location) =>
    badValuesOf(target.schemas[location]!, location).map((bad) => placed(target, location, bad)),
  );
  if (target.schemas.body) options.push(wholeBodies.map(({ what, body }) => ({ ...placed(target, 'body', { what, value: undefined }), body })));
  return fc.oneof(...options);
}

/** The values that broke servers before, for every field: too rare to leave to chance. */
const SWEEP_JSON: unknown[] = ['a\u0000b', HUGE, 1e30, '100000000000000000000', -1, ['x', 'y'], { nested: { deep: ['x'] } }];
const SWEEP_TEXT: Array<string | string[]> = ['a\u0000b', HUGE, '1e30', '100000000000000000000', '-1', 'NaN', ['x', 'y']];

/** Each field of each location with each sweep value, and each required field left out. */
function sweepOf(target: Target): BadRequest[] {
  return locationsOf(target).flatMap((location) => {
    const schema = target.schemas[location]!;
    const base = validValue(schema) as Record<string, unknown>;
    const values = location === 'body' ? SWEEP_JSON : SWEEP_TEXT.filter((v) => location === 'querystring' || !Array.isArray(v));
    return [
      ...(schema.required ?? []).map((field) => placed(target, location, { what: `${location} without ${field}`, value: omit(base, field) })),
      ...Object.keys(schema.properties ?? {}).flatMap((field) =>
        values.map((value) => placed(target, location, { what: `${location}.${field} = ${show(value)}`, value: withKey(base, field, value) })),
      ),
    ];
  });
}

/** What the server will parse, for judging: JSON bodies go through JSON, text is made well-formed (as a URL carries it). */
function certainlyInvalid(target: Target, request: BadRequest): boolean {
  const { schemas } = target;
  // Where the route takes the session token from the query, the access layer reads `access_token` (and
  // removes it) before any schema sees the query: it is judged there, not here.
  const query = (target.route.options.config as { queryToken?: boolean } | undefined)?.queryToken ? omit(request.query, 'access_token') : request.query;
  if (schemas.querystring && !mayAccept(schemas.querystring, query)) return true;
  if (schemas.params && !mayAccept(schemas.params, request.params)) return true;
  if (!schemas.body) return false;
  if (request.body.kind === 'raw') return true;
  if (request.body.kind === 'absent') return !mayAccept(schemas.body, undefined);
  return !mayAccept(schemas.body, JSON.parse(JSON.stringify(request.body.value)) as unknown);
}

/** As a URL carries text: lone surrogates (which fast-check may generate) become U+FFFD first. */
const encode = (value: string) => encodeURIComponent(value.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD'));

function injectOf(target: Target, request: BadRequest, caller: Caller): InjectOptions {
  const path = target.route.url.replace(/:(\w+)/g, (_match, name: string) => encode(request.params[name] ?? ''));
  const query = Object.entries(request.query)
    .flatMap(([key, value]) => (Array.isArray(value) ? value : [value]).map((v) => `${encode(key)}=${encode(v)}`))
    .join('&');
  const url = query ? `${path}?${query}` : path;
  const method = target.route.method as InjectOptions['method'];
  const headers = headersOf(caller);
  const { body } = request;
  if (body.kind === 'absent') return { method, url, headers };
  if (body.kind === 'raw') return { method, url, headers: { ...headers, 'content-type': body.contentType }, payload: body.payload };
  return { method, url, headers: { ...headers, 'content-type': 'application/json' }, payload: JSON.stringify(body.value) ?? '' };
}

function hashOf(text: string): number {
  let hash = 0;
  for (const char of text) hash = (Math.imul(hash, 31) + char.charCodeAt(0)) | 0;
  return hash;
}

// ---------------------------------------------------------------------------------------------
// Judging an answer.

async function withinBound(app: FastifyInstance, options: InjectOptions): Promise<LightMyRequestResponse | 'hang'> {
  let timer: NodeJS.Timeout | undefined;
  const hang = new Promise<'hang'>((resolve) => {
    timer = setTimeout(() => resolve('hang'), TIMEOUT_MS);
  });
  try {
    return await Promise.race([app.inject(options), hang]);
  } finally {
    clearTimeout(timer);
  }
}

/** What is wrong with an answer (none: null). 4xx answers are JSON `{ message: string }`; nothing leaks Fastify's codes. */
function problemOf(res: LightMyRequestResponse | 'hang', certain: boolean): string | null {
  if (res === 'hang') return `no answer within ${TIMEOUT_MS} ms`;
  const seen = `${res.statusCode} ${res.body.slice(0, 300)}`;
  if (res.statusCode >= 500) return seen;
  if (res.body.includes('FST_ERR')) return `leaks a Fastify error code: ${seen}`;
  if (certain && (res.statusCode < 400 || res.statusCode >= 500)) return `accepted invalid input: ${seen}`;
  if (res.statusCode >= 400) {
    let message: unknown;
    try {
      message = (res.json() as { message?: unknown }).message;
    } catch {
      message = undefined;
    }
    if (typeof message !== 'string') return `4xx without a JSON { message }: ${seen}`;
  }
  return null;
}

const describeRow = (route: RecordedRoute) => `${route.method} ${route.url}`;

describe.each(TEST_DATABASES)('bad input on $name', (kind) => {
  let database: TestDatabase;
  let app: FastifyInstance;
  let config: Config;
  let callers: Callers;
  let tables: string[];

  beforeAll(async () => {
    // A database of its own: abuse limits and rows never leak between suites.
    database = await kind.open();
    ({ app, config } = await testApp(database));
    callers = await setUpCallers(app, database, config);
    const rows =
      database.dialect === 'sqlite'
        ? await sql<{ name: string }>`select name from sqlite_master where type = 'table' and name not like 'sqlite_%'`.execute(database.db)
        : await sql<{ name: string }>`select table_name as name from information_schema.tables where table_schema = current_schema()`.execute(database.db);
    tables = rows.rows.map((r) => r.name).sort();
  });
  afterAll(async () => {
    await app.close();
    await database.dispose();
  });

  /** Rows per table (every operator's: nothing may change anywhere), in one round trip. */
  async function rowCounts(): Promise<Record<string, number>> {
    const columns = tables.map((t) => sql`(select count(*) from ${sql.table(t)}) as ${sql.ref(t)}`);
    const { rows } = await runUnscoped(() => sql<Record<string, number | string>>`select ${sql.join(columns)}`.execute(database.db));
    return Object.fromEntries(Object.entries(rows[0] ?? {}).map(([k, v]) => [k, Number(v)]));
  }

  /** Counts once work a request started in the background (notifications) has landed. */
  async function settledCounts(): Promise<Record<string, number>> {
    let last = await rowCounts();
    for (let i = 0; i < 20; i++) {
      await new Promise((resolve) => setTimeout(resolve, 10));
      const next = await rowCounts();
      if (JSON.stringify(next) === JSON.stringify(last)) return next;
      last = next;
    }
    return last;
  }

  const changed = (before: Record<string, number>, after: Record<string, number>) =>
    Object.keys(after)
      .filter((t) => before[t] !== after[t])
      .map((t) => `${t} ${before[t]} → ${after[t]}`);

  /** Sends each request, checks each answer; answers the problems found, as '<what> → <problem>'. */
  async function send(requests: Array<{ what: string; options: InjectOptions; certain: boolean }>): Promise<string[]> {
    const problems: string[] = [];
    let before = await settledCounts();
    for (const { what, options, certain } of requests) {
      const res = await withinBound(app, options);
      const problem = problemOf(res, certain);
      if (problem) problems.push(`${what} → ${problem}`);
      if (certain) {
        const after = await rowCounts();
        const diff = changed(before, after);
        if (diff.length > 0) problems.push(`${what} → changed rows: ${diff.join(', ')}`);
        before = after;
      } else {
        before = await settledCounts();
      }
    }
    return problems;
  }

  test('every route with a querystring, params or body schema: swept and fuzzed from its schema, as the Administrator (and anonymously when public)', async () => {
    const targets: Target[] = apiRoutesOf(app)
      .api.map((route) => ({
        route,
        schemas: Object.fromEntries(
          (['querystring', 'params', 'body'] as const).flatMap((location) => {
            const schema = schemaAt(route, location);
            return schema ? [[location, schema]] : [];
          }),
        ) as Partial<Record<Location, Schema>>,
      }))
      .filter((target) => Object.keys(target.schemas).length > 0);
    // The corpus is not vacuous: the routes the security probe went through are in it.
    expect(targets.map((t) => describeRow(t.route))).toEqual(
      expect.arrayContaining([
        'GET /api/Tracker/ImportTracker',
        'POST /api/auth/completeRegistration',
        'GET /api/Users/GetAuditTrail',
        'POST /api/Users/ReactivateUser',
        'PUT /api/Notification/MarkAsRead/:id',
        'GET /api/Dashboard/Inspect',
        'PUT /api/Dashboard/Update',
        'GET /api/Dashboard/GetRollout',
        'GET /api/TableSettings/GetSettings',
        'PUT /api/TableSettings/SaveColumns',
        'PUT /api/TableSettings/SaveFilter',
        'DELETE /api/TableSettings/DeleteFilter',
        'GET /api/notificationhub',
        'POST /api/notificationhub',
        'DELETE /api/notificationhub',
        'GET /api/Validation/GetNbrRelationsValidationScripts',
        'GET /api/Validation/GetCpichValidationScripts',
        'GET /api/Optimization/GetNbrRelationsOptimizationScripts',
        'GET /api/Parameters/GetPlanningScripts',
        'GET /api/Monitoring/GetAlarm',
      ]),
    );

    const problems: Record<string, string[]> = {};
    for (const target of targets) {
      const key = describeRow(target.route);
      const admin = callers.Administrator;
      // A batch that quietly signed the Administrator out would pass for the wrong reason.
      expect({ route: key, adminSession: (await app.auth.authenticate(admin.token!)) !== null }).toEqual({ route: key, adminSession: true });
      const who: Caller[] = declaredAccess(target.route) === 'public' ? [admin, callers.anonymous] : [admin];
      const corpus = [...sweepOf(target), ...fc.sample(badRequestsOf(target), { seed: SEED ^ hashOf(key), numRuns: RUNS_PER_ROUTE })];
      const found = await send(
        who.flatMap((caller) =>
          corpus.map((request) => ({
            what: `[${caller.name}] ${request.what}`,
            options: injectOf(target, request, caller),
            certain: certainlyInvalid(target, request),
          })),
        ),
      );
      if (found.length > 0) problems[key] = found;
    }
    expect(problems).toEqual({});
  }, 240_000);

  describe('multipart', () => {
    const admin = () => headersOf(callers.Administrator);
    const png = (name: string, field = 'file') => ({ name: field, filename: name, content: PNG_BYTES });

    function truncated(parts: Parameters<typeof multipart>[0]) {
      const body = multipart(parts);
      return { payload: body.payload.subarray(0, Math.floor(body.payload.length / 2)), headers: body.headers };
    }

    const cases: Array<[string, string, () => { payload: Buffer | string; headers: Record<string, string> }]> = [
      ['/api/File/Upload', 'a missing boundary', () => ({ payload: multipart([png('a.png')]).payload, headers: { 'content-type': 'multipart/form-data' } })],
      ['/api/File/Upload', 'a truncated body', () => truncated([png('a.png')])],
      ['/api/File/Upload', 'no file part', () => multipart([{ name: 'note', content: 'no file here' }])],
      ['/api/File/Upload', 'two files', () => multipart([png('a.png'), png('b.png')])],
      [
        '/api/File/UploadMultiple',
        'a missing boundary',
        () => ({ payload: multipart([png('a.png', 'files')]).payload, headers: { 'content-type': 'multipart/form-data' } }),
      ],
      ['/api/File/UploadMultiple', 'a truncated body', () => truncated([png('a.png', 'files'), png('b.png', 'files')])],
      ['/api/File/UploadMultiple', 'no file part', () => multipart([{ name: 'note', content: 'no file here' }])],
      ['/api/File/UploadMultiple', 'an empty body', () => ({ payload: '', headers: { 'content-type': 'multipart/form-data; boundary=----nothing' } })],
    ];

    test.each(cases)('%s with %s: a 4xx with a message, nothing stored', async (url, what, build) => {
      const body = build();
      const problems = await send([{ what, options: { method: 'POST', url, payload: body.payload, headers: { ...admin(), ...body.headers } }, certain: true }]);
      expect(problems).toEqual([]);
    });
  });

  describe('a NUL in a name that would be stored', () => {
    // The sweep's ids point at nothing, so these handlers answer 404 before storing; here the rest of
    // each form is valid. PostgreSQL cannot store U+0000 in text, so the one answer that holds on every
    // database is to refuse it (as Account/UpdateSettings does: "must not contain control characters").
    test('CreateOperator, CreateProject, UpdateOperator and CreateUser: 400, nothing stored', async () => {
      const id = async (table: 'operators' | 'roles', name: string) =>
        (await database.db.selectFrom(table).select('id').where('name', '=', name).executeTakeFirstOrThrow()).id;
      const vodafone = await id('operators', 'Vodafone PT');
      // Renamed only by a server that accepts the NUL: a throwaway, so no fixture ever changes.
      const { id: throwaway } = await database.db
        .insertInto('operators')
        .values({ name: 'Throwaway for NUL', avatar: null, created_at: new Date().toISOString() })
        .returning('id')
        .executeTakeFirstOrThrow();
      const client = await id('roles', 'Client');
      const post = (url: string, payload: object) => ({
        what: `${url} ${JSON.stringify(payload)}`,
        options: { method: 'POST' as const, url, payload, headers: headersOf(callers.Administrator) },
        certain: true,
      });
      const problems = await send([
        post('/api/Operators/CreateOperator', { name: 'Nul\u0000Operator' }),
        post('/api/Operators/CreateProject', { name: 'Nul\u0000Project', operatorId: vodafone }),
        post('/api/Operators/UpdateOperator', { id: throwaway, name: 'Throwaway\u0000NUL' }),
        post('/api/Users/CreateUser', {
          firstname: 'Nul\u0000',
          lastname: 'User',
          email: 'nul.user@example.pt',
          roleId: client,
          operatorIds: [],
          projectIds: [],
        }),
      ]);
      expect(problems).toEqual([]);
    });
  });

  describe('table settings stored as text', () => {
    // The schemas take any text for a filter's name, fields and texts (site report fields come from the
    // data); what reaches the database is checked by the handler.
    test('SaveFilter and SaveColumns with control characters or blanks: 400, nothing stored', async () => {
      const put = (url: string, payload: object) => ({
        what: `${url} ${JSON.stringify(payload)}`,
        options: { method: 'PUT' as const, url, payload, headers: headersOf(callers.Administrator) },
        certain: true,
      });
      const problems = await send([
        put('/api/TableSettings/SaveFilter', { tableKey: 'tracking.tracker', name: 'Nul\u0000Filter', filters: { siteId: 'LX' } }),
        put('/api/TableSettings/SaveFilter', { tableKey: 'tracking.tracker', name: 'Bell\u0007', filters: { siteId: 'LX' } }),
        put('/api/TableSettings/SaveFilter', { tableKey: 'tracking.tracker', name: 'Blank text', filters: { siteId: '   ' } }),
        put('/api/TableSettings/SaveFilter', { tableKey: 'tracking.tracker', name: 'Field', filters: { 'site\nId': 'LX' } }),
        put('/api/TableSettings/SaveColumns', { tableKey: 'tracking.tracker', columns: [{ key: 'a\u0001', hidden: false, width: null }] }),
        put('/api/TableSettings/SaveColumns', { tableKey: 'tracking.tracker', columns: [{ key: 'a', hidden: false, width: 'wide' }] }),
      ]);
      expect(problems).toEqual([]);
    });
  });

  describe('regressions from the security probe', () => {
    const admin = () => headersOf(callers.Administrator);

    test.each(['CommissioningPlanUpload', 'ImportTracker', 'WorkOrderStatusUpload'])(
      'Tracker/%s with no, empty, repeated or extra filePath: 400 { message }, no serialization error',
      async (route) => {
        for (const query of ['', '?filePath=', '?filePath=a&filePath=b', `?filePath=${MISSING_ID}&extra=1`]) {
          const res = await app.inject({ url: `/api/Tracker/${route}${query}`, headers: admin() });
          expect({ query, status: res.statusCode, leaks: res.body.includes('FST_ERR') }).toEqual({ query, status: 400, leaks: false });
          expect(res.json()).toEqual(expect.objectContaining({ message: expect.any(String) }));
        }
      },
    );

    test.each(['/api/auth/completeRegistration', '/api/auth/recoverconfirmation'])('%s with "user": ["x"]: refused as bad input', async (url) => {
      const res = await app.inject({
        method: 'POST',
        url,
        payload: { password: 'Probe-Password-123', rpassword: 'Probe-Password-123', token: 'not-a-mailed-token', user: ['x'] },
      });
      // 429: the address is throttled (docs/architecture.md#accounts-sessions-and-abuse-limits), also a refusal; never a 5xx.
      expect([400, 429]).toContain(res.statusCode);
      expect(res.json()).toEqual({ message: expect.any(String) });
    });

    test('Users/GetAuditTrail?page=100000000000000000000: 400, or an empty page', async () => {
      const res = await app.inject({ url: '/api/Users/GetAuditTrail?page=100000000000000000000', headers: admin() });
      const answer = { status: res.statusCode, body: res.json<unknown>() };
      if (res.statusCode === 200) expect(answer).toEqual({ status: 200, body: expect.objectContaining({ rows: [] }) });
      else expect(answer).toEqual({ status: 400, body: { message: expect.any(String) } });
    });
  });
});
