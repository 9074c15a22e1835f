import type { FastifyInstance } from 'fastify';
import { LIMITS } from '../src/auth/limits';
import { testApp } from './support/app';
import { TEST_DATABASES, type TestDatabase } from './support/databases';
import { headersOf, setUpCallers, type Caller, type Callers } from './support/principals';

/** Issue 44, fix 8: Monitoring/GetSiteReportEmail builds a workbook and sends a mail per call (30 mails in 2.2 s before). */
describe.each(TEST_DATABASES)('site report mails are limited per user on $name', (kind) => {
  let database: TestDatabase;
  let app: FastifyInstance;
  let callers: Callers;
  let now = Date.parse('2026-04-01T09:00:00.000Z');

  beforeAll(async () => {
    database = await kind.open();
    let config;
    ({ app, config } = await testApp(database, {}, { clock: () => now }));
    callers = await setUpCallers(app, database, config);
  });
  afterAll(async () => {
    await app.close();
    await database.dispose();
  });

  const mail = (caller: Caller) =>
    app.inject({ method: 'GET', url: `/api/Monitoring/GetSiteReportEmail?siteId=NO-SUCH-SITE&userId=${caller.userId}`, headers: headersOf(caller) });

  test(`${LIMITS.siteReportMailsPerUser.limit} per 15 minutes, then 429 with Retry-After; other users are not affected`, async () => {
    const { limit } = LIMITS.siteReportMailsPerUser;
    const statuses: number[] = [];
    for (let i = 0; i < limit; i++) statuses.push((await mail(callers.CellwiseOS)).statusCode);
    // Every call counts, whatever its answer (here: the site does not exist).
    expect(statuses).toEqual(Array<number>(limit).fill(404));

    now += 60_000;
    const refused = await mail(callers.CellwiseOS);
    expect([refused.statusCode, refused.headers['retry-after'], refused.json()]).toEqual([
      429,
      String(14 * 60),
      { message: 'Too many attempts. Try again in 14 minutes.' },
    ]);
    expect((await mail(callers.CellwiseHQ)).statusCode).toBe(404);

    now += 14 * 60_000;
    expect((await mail(callers.CellwiseOS)).statusCode).toBe(404);

    // Asking for someone else's report is refused before it counts.
    const forbidden = () =>
      app.inject({
        method: 'GET',
        url: `/api/Monitoring/GetSiteReportEmail?siteId=NO-SUCH-SITE&userId=${callers.CellwiseOS.userId}`,
        headers: headersOf(callers.Manager),
      });
    for (let i = 0; i < limit + 2; i++) expect((await forbidden()).statusCode).toBe(403);
    expect((await mail(callers.Manager)).statusCode).toBe(404);
  });
});
