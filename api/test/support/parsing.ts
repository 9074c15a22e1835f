import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import type { UploadedFiles } from 'contracts';
import { seed } from '../../src/seed';
import { logZip } from '../fixtures/monitoring/archives';
import { multipart } from '../fixtures/tracking/workbooks';
import { testApp } from './app';
import type { TEST_DATABASES, TestDatabase } from './databases';

/** A seeded app whose inventory knows the given nodes (each its own site), and its administrator's calls. */
export interface ParsingApp {
  readonly app: FastifyInstance;
  readonly database: TestDatabase;
  /** The administrator's authorization header. */
  headers(): Record<string, string>;
  /** GET as the administrator. */
  get(url: string): Promise<LightMyRequestResponse>;
  /** Uploads the entries as one zip archive and asks for its parse; the parse call's answer as it came. */
  parse(entries: Record<string, string | Buffer>): Promise<LightMyRequestResponse>;
}

/**
 * The log-parse API suites' set-up, registered on the calling describe block (beforeAll/afterAll):
 * the parser reads logs against the inventory, so each suite names the nodes it needs there.
 */
export function parsingApp(kind: (typeof TEST_DATABASES)[number], nodes: readonly string[]): ParsingApp {
  let app: FastifyInstance | undefined;
  let database: TestDatabase | undefined;
  let token = '';
  let adminId = 0;
  const ready = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error('parsingApp is used before its beforeAll ran');
    return value;
  };

  beforeAll(async () => {
    database = await kind.open();
    const started = await testApp(database);
    app = started.app;
    await seed(database.db, started.config);
    const { id } = await database.db.selectFrom('users').select('id').where('email', '=', started.config.adminEmail).executeTakeFirstOrThrow();
    adminId = id;
    token = (await app.auth.issueToken(id))!;
    await database.db
      .insertInto('network_sites')
      .values(nodes.map((site) => ({ id: site, name: `Site ${site}`, lat: 38.7, lon: -9.1 })))
      .execute();
    await database.db
      .insertInto('network_nodes')
      .values(nodes.map((name) => ({ name, dn: `SubNetwork=1,MeContext=${name}`, site_id: name, technology: '4G', type: 'RadioNode' })))
      .execute();
  });
  afterAll(async () => {
    await app?.close();
    await database?.dispose();
  });

  const headers = () => ({ authorization: `Bearer ${token}` });
  const get = (url: string) => ready(app).inject({ url, headers: headers() });
  return {
    get app() {
      return ready(app);
    },
    get database() {
      return ready(database);
    },
    headers,
    get,
    async parse(entries) {
      const body = multipart([{ name: 'files', filename: 'logs.zip', content: logZip(entries) }]);
      const sent = await ready(app).inject({
        method: 'POST',
        url: '/api/File/UploadMultiple',
        payload: body.payload,
        headers: { ...body.headers, ...headers() },
      });
      expect(sent.statusCode).toBe(200);
      const id = sent.json<UploadedFiles>().uploads[0]!.uploadId;
      return get(`/api/Parser/ParseEricssonLogs?filesPath=${id}&userId=${adminId}`);
    },
  };
}
