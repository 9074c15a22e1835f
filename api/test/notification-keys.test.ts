import type { FastifyInstance } from 'fastify';
import { testApp } from './support/app';
import { TEST_DATABASES, type TestDatabase } from './support/databases';

/** 'validation.healthChecks' and 'validation-health-checks' both read 'validationhealthchecks'. */
const wordsOf = (text: string) => text.toLowerCase().replace(/[^a-z0-9]/g, '');

/**
 * The browser tells a job's notification by its key (shared-ui jobOutcomes: a page that shows a job's
 * outcome keeps the hub from toasting it again), so every kind's key must begin with the kind's words.
 */
describe('notification keys of job kinds', () => {
  let database: TestDatabase;
  let app: FastifyInstance;
  beforeAll(async () => {
    database = await TEST_DATABASES[0]!.open();
    ({ app } = await testApp(database));
  });
  afterAll(async () => {
    await app.close();
    await database.dispose();
  });

  test('every key begins with its kind, whatever the outcome', () => {
    const kinds = app.jobs.kindNames;
    expect(kinds).toEqual(expect.arrayContaining(['tracking.import', 'tracking.sync', 'monitoring.parse', 'validation.healthChecks']));
    const strays: string[] = [];
    for (const name of kinds) {
      const kind = app.jobs.kindOf(name)!;
      for (const ok of [true, false]) {
        // Keys built from parameters or the answer (a site, a report id) keep the prefix whatever those are.
        const key = kind.notificationKey?.({ dataSet: 'commissioningPlan', siteId: 'LX0001' } as never, ok, { parseId: 12 }) ?? `job-${name}`;
        if (kind.notificationKey && !wordsOf(key).startsWith(wordsOf(name))) strays.push(`${name} → ${key}`);
      }
    }
    expect(strays).toEqual([]);
  });
});
