import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { ImportDumpResponse, NetworkSummary, SiteOption } from 'contracts';
import { DEFAULT_SITE_RULE_SOURCE, emptyCounts, totalOf } from '../src/domain/network';
import { NETWORK_MESSAGES } from '../src/routes/network';
import { seed } from '../src/seed';
import type { Config } from '../src/config';
import { testApp } from './support/app';
import { TEST_DATABASES, type TestDatabase } from './support/databases';
import {
  bodastage,
  demoFile,
  domainFixture,
  fixture,
  multipart,
  RESOLUTION,
  removeTempDirs,
  siteListDump,
  TYPE_PREFIXED_SITES,
  type FormPart,
  type ListSite,
} from './fixtures/network-import/dumps';

const SITE_LISTS = ['/api/Parameters/GetSiteList', '/api/Validation/GetSites', '/api/Monitoring/GetSiteList'] as const;
const DATES = ['/api/Parameters/GetLastDumpDate', '/api/Validation/GetLastUtranCellsDate', '/api/Validation/GetLastNbrRelationsDate'] as const;

/** 30 sites (more than a list answers), with names that are LIKE wildcards and the escape character. */
const LIST_SITES: ListSite[] = [
  ...Array.from({ length: 24 }, (_, i): ListSite => ({ id: `LX${String(i + 1).padStart(4, '0')}`, name: `Lisboa ${i + 1}`, utran: i % 5 === 0 })),
  { id: 'LX0101', name: '100% Lisboa' },
  { id: 'LX0102', name: 'Cais_do_Sodre', utran: true },
  { id: 'LX0103', name: 'CaisXdoXSodre' },
  { id: 'LX0104', name: 'Back\\slash' },
  { id: 'PT0001', name: 'Alfama' },
  { id: 'PT0002', name: 'Graça' },
];

describe.each(TEST_DATABASES)('network routes on $name', (kind) => {
  let database: TestDatabase;
  let app: FastifyInstance;
  let config: Config;
  const tokens: Record<'admin' | 'os' | 'client', string> = { admin: '', os: '', client: '' };
  let adminId = 0;

  beforeAll(async () => {
    database = await kind.open();
    ({ app, config } = await testApp(database));
    await seed(database.db, config);
    const idOf = async (email: string) => (await database.db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirstOrThrow()).id;
    adminId = await idOf(config.adminEmail);
    const issue = async (id: number) => {
      const token = await app.auth.issueToken(id);
      if (!token) throw new Error(`no token for user ${id}`);
      return token;
    };
    tokens.admin = await issue(adminId);
    tokens.os = await issue(await idOf('os@cellwise.local'));
    tokens.client = await issue(await idOf('client@cellwise.local'));
  });
  afterAll(async () => {
    await app.close();
    await database.dispose();
    removeTempDirs();
  });

  const auth = (who: keyof typeof tokens) => ({ authorization: `Bearer ${tokens[who]}` });
  const get = (url: string, who: keyof typeof tokens = 'admin') => app.inject({ url, headers: auth(who) });

  function upload(parts: FormPart[], who: keyof typeof tokens = 'admin') {
    const body = multipart(parts);
    return app.inject({ method: 'POST', url: '/api/Network/ImportDump', payload: body.payload, headers: { ...body.headers, ...auth(who) } });
  }
  const uploadFile = (file: string, fields: Record<string, string> = {}, who: keyof typeof tokens = 'admin') =>
    upload(
      [
        ...Object.entries(fields).map(([name, content]) => ({ name, content })),
        { name: 'file', filename: path.basename(file), content: fs.readFileSync(file) },
      ],
      who,
    );

  async function summary(): Promise<NetworkSummary> {
    const res = await get('/api/Network/GetSummary');
    expect(res.statusCode).toBe(200);
    return res.json<NetworkSummary>();
  }

  async function options(url: string, query?: string): Promise<SiteOption[]> {
    const res = await get(query === undefined ? url : `${url}?query=${encodeURIComponent(query)}`);
    expect(res.statusCode).toBe(200);
    return res.json<SiteOption[]>();
  }

  describe('before any import', () => {
    test('the summary is empty and dated null; the dates are empty JSON strings', async () => {
      expect(await summary()).toEqual({ ...emptyCounts(), importedAt: null });
      for (const url of DATES) {
        const res = await get(url);
        expect(res.statusCode).toBe(200);
        expect(res.headers['content-type']).toMatch(/^application\/json/);
        expect(res.body).toBe('""');
      }
      expect(await options('/api/Parameters/GetSiteList')).toEqual([]);
    });
  });

  describe('access', () => {
    test('every network route needs a session', async () => {
      for (const url of ['/api/Network/GetSummary', ...DATES, ...SITE_LISTS, '/api/Validation/GetUtranSites']) {
        expect([url, (await app.inject({ url })).statusCode]).toEqual([url, 401]);
      }
      expect((await app.inject({ method: 'POST', url: '/api/Network/ImportDump', payload: { uploadId: 'x' } })).statusCode).toBe(401);
    });

    test('importing is for administrators; engineers read, the summary included; a client reads none of it', async () => {
      expect((await uploadFile(bodastage('bulkcm.xml'), {}, 'os')).statusCode).toBe(403);
      expect((await uploadFile(bodastage('bulkcm.xml'), {}, 'client')).statusCode).toBe(403);
      for (const url of ['/api/Network/GetSummary', ...DATES, ...SITE_LISTS, '/api/Validation/GetUtranSites']) {
        expect([url, (await get(url, 'os')).statusCode]).toEqual([url, 200]);
        expect([url, (await get(url, 'client')).statusCode]).toEqual([url, 403]);
      }
    });
  });

  describe('ImportDump', () => {
    test('a multipart upload of a generated dump (larger than the JSON body limit) is stored exactly', async () => {
      const { file, summary: generated } = await demoFile({ sites: 30, seed: 21 });
      expect(generated.bytes).toBeGreaterThan(2 * 1024 * 1024);
      const res = await uploadFile(file, { format: 'bulkcm', coords: 'microdegrees' });
      expect(res.statusCode).toBe(200);
      const body = res.json<ImportDumpResponse>();
      expect(body).toEqual({
        message: `Network dump imported: ${generated.counts.sites} sites, ${totalOf(generated.counts.cells)} cells.`,
        counts: generated.counts,
        importedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/) as unknown as string,
        // One node per demo site; ties listed by id.
        sites: {
          rule: DEFAULT_SITE_RULE_SOURCE,
          total: 30,
          nodesOnSites: 30,
          largest: ['LX0001', 'LX0002', 'LX0003', 'LX0004', 'LX0005'].map((siteId) => ({ siteId, nodes: 1 })),
          unmatched: { count: 0, examples: [] },
        },
        warnings: [],
      });
      expect(await summary()).toEqual({ ...generated.counts, importedAt: body.importedAt });
      for (const url of DATES) expect((await get(url)).json()).toBe(body.importedAt);

      const record = await database.db.selectFrom('network_imports').selectAll().orderBy('id', 'desc').executeTakeFirstOrThrow();
      expect(record).toMatchObject({
        file_name: path.basename(file),
        format: 'bulkcm',
        coords: 'microdegrees',
        imported_by: adminId,
        imported_at: body.importedAt,
      });
      expect(Number(record.bytes)).toBe(generated.bytes);
      // The upload's temporary copy is gone.
      expect(fs.readdirSync(path.join(config.dataDir, 'files', 'tmp'))).toEqual([]);
    });

    test('the importer hears about it in a notification too', async () => {
      await database.db.deleteFrom('notifications').execute();
      const res = await uploadFile(fixture(RESOLUTION.file));
      expect(res.statusCode).toBe(200);
      const stored = async () => database.db.selectFrom('notifications').select(['user_id', 'key', 'title', 'icon']).execute();
      for (let i = 0; i < 50 && (await stored()).length === 0; i++) await new Promise((resolve) => setTimeout(resolve, 20));
      expect(await stored()).toEqual([
        { user_id: adminId, key: 'network-import-finished', title: 'Network dump imported: 3 sites, 6 cells.', icon: 'success' },
      ]);
    });

    test('form fields may follow the file; format and coords default to auto and microdegrees; the name loses its path', async () => {
      const latest = () => database.db.selectFrom('network_imports').selectAll().orderBy('id', 'desc').executeTakeFirstOrThrow();
      const res = await upload([
        { name: 'file', filename: 'C:\\exports\\bulkcm.xml', content: fs.readFileSync(bodastage('bulkcm.xml')) },
        { name: 'coords', content: 'degrees' },
        { name: 'format', content: 'bulkcm' },
      ]);
      expect(res.statusCode).toBe(200);
      expect(await latest()).toMatchObject({ file_name: 'bulkcm.xml', format: 'bulkcm', coords: 'degrees' });
      expect((await uploadFile(bodastage('bulkcm2.xml'))).statusCode).toBe(200);
      expect(await latest()).toMatchObject({ file_name: 'bulkcm2.xml', format: 'auto', coords: 'microdegrees' });
    });

    describe('bad input answers 400 and changes nothing', () => {
      let before: NetworkSummary;
      beforeAll(async () => {
        expect((await uploadFile(fixture(RESOLUTION.file))).statusCode).toBe(200);
        before = await summary();
      });
      afterEach(async () => {
        expect(await summary()).toEqual(before);
        expect(fs.readdirSync(path.join(config.dataDir, 'files', 'tmp'))).toEqual([]);
      });

      test.each(['bad-xml.xml', 'truncated.xml', 'wrong-root.xml', 'unknown-encoding.xml'])('%s: the parser message with line and column', async (name) => {
        const res = await uploadFile(domainFixture(name));
        expect(res.statusCode).toBe(400);
        expect(res.json<{ message: string }>().message).toMatch(/^Line \d+, column \d+: \S/);
      });

      test('the importer is told in a notification that it failed', async () => {
        await database.db.deleteFrom('notifications').execute();
        expect((await uploadFile(domainFixture('wrong-root.xml'))).statusCode).toBe(400);
        const stored = async () => database.db.selectFrom('notifications').select(['key', 'title', 'icon']).execute();
        for (let i = 0; i < 50 && (await stored()).length === 0; i++) await new Promise((resolve) => setTimeout(resolve, 20));
        const [notification] = await stored();
        expect(notification).toMatchObject({ key: 'network-import-failed', icon: 'error' });
        expect(notification?.title).toMatch(/^Network dump wrong-root\.xml not imported: Line 2, column 1: the root element is <measCollecFile>/);
      });

      test('a coordinate encoding that puts the sites off the globe', async () => {
        const res = await uploadFile(fixture(RESOLUTION.file), { coords: 'degrees' });
        expect(res.statusCode).toBe(400);
        expect(res.json<{ message: string }>().message).toMatch(/outside the globe when read as degrees/);
      });

      test('unknown settings and fields', async () => {
        const format = await uploadFile(fixture(RESOLUTION.file), { format: 'csv' });
        expect([format.statusCode, format.json()]).toEqual([400, { message: 'unknown dump format "csv"; expected one of auto, bulkcm, cmedit' }]);
        const coords = await uploadFile(fixture(RESOLUTION.file), { coords: 'furlongs' });
        expect(coords.statusCode).toBe(400);
        expect(coords.json<{ message: string }>().message).toMatch(/unknown coordinate encoding "furlongs"/);
        const extra = await uploadFile(fixture(RESOLUTION.file), { site: 'LX0001' });
        expect([extra.statusCode, extra.json()]).toEqual([400, { message: 'Unknown field "site": send format, coords and siteRule only.' }]);
      });

      test.each([
        ['(?<site>\\d+', 'site rule: not a valid regular expression: /(?<site>\\d+/: Unterminated group'],
        ['^ERBS_(\\d+)', 'site rule: the rule has no group named site; mark the site id with (?<site>…), e.g. ^ERBS_(?<site>\\d+)'],
        ['^(?:[A-Z]+_)*(?<site>\\d+)', expect.stringMatching(/^site rule: "\(\?:\[A-Z\]\+_\)\*" repeats a repetition/) as unknown as string],
        [`(?<site>${'x'.repeat(300)})`, 'site rule: the rule is 309 characters long; at most 200 are accepted'],
      ])('a site rule %j that cannot be used', async (siteRule, message) => {
        const res = await uploadFile(fixture(RESOLUTION.file), { siteRule });
        expect([res.statusCode, res.json()]).toEqual([400, { message }]);
      });

      test('no file, or two files', async () => {
        const none = await upload([{ name: 'format', content: 'auto' }]);
        expect([none.statusCode, none.json()]).toEqual([400, { message: NETWORK_MESSAGES.noFile }]);
        const content = fs.readFileSync(fixture(RESOLUTION.file));
        const two = await upload([
          { name: 'file', filename: 'a.txt', content },
          { name: 'file', filename: 'b.txt', content },
        ]);
        expect([two.statusCode, two.json()]).toEqual([400, { message: NETWORK_MESSAGES.oneFile }]);
      });

      test('a JSON body with an upload id is reserved for the file service; unknown JSON fields are refused', async () => {
        const reserved = await app.inject({
          method: 'POST',
          url: '/api/Network/ImportDump',
          payload: { uploadId: 'abc', coords: '3gpp' },
          headers: auth('admin'),
        });
        expect([reserved.statusCode, reserved.json()]).toEqual([400, { message: NETWORK_MESSAGES.uploadIdsUnsupported }]);
        const unknown = await app.inject({
          method: 'POST',
          url: '/api/Network/ImportDump',
          payload: { uploadId: 'abc', path: '/etc/passwd' },
          headers: auth('admin'),
        });
        expect(unknown.statusCode).toBe(400);
        // The wording is the app's error handler's (older: "must NOT have additional properties").
        expect(unknown.json<{ message: string }>().message).toMatch(/Unknown field "path"|additional properties/);
        const missing = await app.inject({ method: 'POST', url: '/api/Network/ImportDump', payload: {}, headers: auth('admin') });
        expect([missing.statusCode, missing.json()]).toEqual([400, { message: 'uploadId is required' }]);
      });
    });
  });

  describe('the site rule', () => {
    const nodeSites = async () =>
      Object.fromEntries((await database.db.selectFrom('network_nodes').select(['name', 'site_id']).execute()).map((n) => [n.name, n.site_id]));

    test('by default, type-prefixed node names (ERBS_12345_…) fall on the site of their number, each with its own position', async () => {
      const res = await uploadFile(domainFixture('type-prefixed-nodes.txt'));
      expect(res.statusCode).toBe(200);
      const body = res.json<ImportDumpResponse>();
      expect(body.message).toBe('Network dump imported: 2 sites, 6 cells.');
      expect(body.sites).toEqual(TYPE_PREFIXED_SITES);
      expect(body.warnings).toEqual([]);
      expect(await database.db.selectFrom('network_sites').select(['id', 'lat', 'lon']).orderBy('id').execute()).toEqual([
        { id: '12345', lat: 38.71, lon: -9.14 },
        { id: '12346', lat: 41.15, lon: -8.61 },
      ]);
    });

    test('a siteRule field replaces the default; names it does not match are their own site, and the answer says so', async () => {
      const res = await uploadFile(domainFixture('type-prefixed-nodes.txt'), { siteRule: '^(?:ERBS|RBS)_(?<site>\\d+)' });
      expect(res.statusCode).toBe(200);
      const body = res.json<ImportDumpResponse>();
      expect(body.sites).toMatchObject({ rule: '^(?:ERBS|RBS)_(?<site>\\d+)', total: 6, unmatched: { count: 4 } });
      expect(body.sites.unmatched.examples).toEqual(['MSRBS_V2_12345_SOMEWHERE_G', 'NR_12345_SOMEWHERE', '12345W1', '12346W1']);
      expect(body.warnings).toEqual([
        '4 names did not match the site rule and became site ids whole (MSRBS_V2_12345_SOMEWHERE_G, NR_12345_SOMEWHERE, 12345W1, 12346W1).',
      ]);
      expect(body.message).toBe(`Network dump imported: 6 sites, 6 cells. ${body.warnings[0]}`);
      expect(await nodeSites()).toMatchObject({ ERBS_12345_SOMEWHERE_K: '12345', RBS_12345_SOMEWHERE_W: '12345', NR_12345_SOMEWHERE: 'NR_12345_SOMEWHERE' });

      // A blank field is a form left empty: the default rule.
      const blank = await uploadFile(domainFixture('type-prefixed-nodes.txt'), { siteRule: '  ' });
      expect(blank.json<ImportDumpResponse>().sites).toMatchObject({ rule: DEFAULT_SITE_RULE_SOURCE, total: 2 });
    });

    test('a rule that puts most nodes on one site is answered with a warning', async () => {
      const sites = Array.from({ length: 13 }, (_, i): ListSite => ({ id: `ERBS_${41000 + i}_PLACE${i}_K`, name: `Place ${i}` }));
      const dump = siteListDump(sites);
      const wrong = await upload([
        { name: 'siteRule', content: '^(?<site>[A-Z]+)_' },
        { name: 'file', filename: 'erbs.txt', content: dump },
      ]);
      expect(wrong.statusCode).toBe(200);
      const body = wrong.json<ImportDumpResponse>();
      expect(body.sites).toMatchObject({ total: 1, nodesOnSites: 13, largest: [{ siteId: 'ERBS', nodes: 13 }] });
      expect(body.warnings).toEqual(['Site ERBS got 13 of the 13 nodes: check that the site rule finds the site in these node names.']);
      expect(body.message).toBe(`Network dump imported: 1 sites, 13 cells. ${body.warnings[0]}`);

      const right = (await upload([{ name: 'file', filename: 'erbs.txt', content: dump }])).json<ImportDumpResponse>();
      expect([right.sites.total, right.sites.largest[0], right.warnings]).toEqual([13, { siteId: '41000', nodes: 1 }, []]);
    });
  });

  describe('site lists', () => {
    beforeAll(async () => {
      const res = await upload([{ name: 'file', filename: 'sites.txt', content: siteListDump(LIST_SITES) }]);
      expect(res.statusCode).toBe(200);
    });

    test('without a query: the first 20 sites by id, as "id – name"', async () => {
      const all = [...LIST_SITES].sort((a, b) => (a.id < b.id ? -1 : 1));
      for (const url of SITE_LISTS) {
        expect(await options(url)).toEqual(all.slice(0, 20).map((s) => ({ value: s.id, text: `${s.id} – ${s.name}` })));
      }
    });

    test('the query matches id or name, anywhere, in any case; at most 20 answered', async () => {
      const values = async (query: string, url: string = SITE_LISTS[0]) => (await options(url, query)).map((o) => o.value);
      expect(await values('alfama')).toEqual(['PT0001']);
      expect(await values('graça')).toEqual(['PT0002']);
      expect(await values('x001')).toEqual(['LX0010', 'LX0011', 'LX0012', 'LX0013', 'LX0014', 'LX0015', 'LX0016', 'LX0017', 'LX0018', 'LX0019']);
      expect(await values('pt0')).toEqual(['PT0001', 'PT0002']);
      expect(await values('  lisboa 2 ')).toEqual(['LX0002', 'LX0020', 'LX0021', 'LX0022', 'LX0023', 'LX0024']);
      expect(await values('lisboa')).toHaveLength(20);
      for (const url of SITE_LISTS) expect(await values('SODRE', url)).toEqual(['LX0102', 'LX0103']);
    });

    test('LIKE wildcards and the escape character in the query match themselves', async () => {
      const values = async (query: string) => (await options(SITE_LISTS[0], query)).map((o) => o.value);
      expect(await values('%')).toEqual(['LX0101']);
      expect(await values('_')).toEqual(['LX0102']);
      expect(await values('cais_do')).toEqual(['LX0102']);
      expect(await values('\\')).toEqual(['LX0104']);
      expect(await values('0%')).toEqual(['LX0101']);
    });

    test('UTRAN sites: only sites with 3G cells', async () => {
      const utran = LIST_SITES.filter((s) => s.utran).map((s) => s.id);
      expect(utran.length).toBeGreaterThan(3);
      expect((await options('/api/Validation/GetUtranSites')).map((o) => o.value)).toEqual([...utran].sort());
      expect((await options('/api/Validation/GetUtranSites', 'cais')).map((o) => o.value)).toEqual(['LX0102']);
    });

    test('a query longer than 100 characters or an unknown parameter is refused', async () => {
      expect((await get(`${SITE_LISTS[0]}?query=${'x'.repeat(101)}`)).statusCode).toBe(400);
      expect((await get(`${SITE_LISTS[0]}?search=x`)).statusCode).toBe(400);
    });
  });
});
