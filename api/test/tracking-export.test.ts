import type { FastifyInstance } from 'fastify';
import type { Config } from '../src/config';
import { seed } from '../src/seed';
import { DELTA_TABLE } from '../src/tracking';
import { exportTask } from '../src/tracking/jobs';
import { RowWriter } from '../src/tracking/queries';
import { testApp } from './support/app';
import { TEST_DATABASES, type TestDatabase } from './support/databases';

const ROWS = 2345;

describe.each(TEST_DATABASES)('tracking export progress on $name', (kind) => {
  let database: TestDatabase;
  let app: FastifyInstance;
  let config: Config;

  beforeAll(async () => {
    database = await kind.open();
    ({ app, config } = await testApp(database));
    await seed(database.db, config);
  });
  afterAll(async () => {
    await app.close();
    await database.dispose();
  });

  test('an export says how many rows it has written of how many, up to the last', async () => {
    await database.db.deleteFrom('tracking_wo_delta').execute();
    const writer = new RowWriter(database.db, DELTA_TABLE.table, DELTA_TABLE.rowFields);
    for (let id = 1; id <= ROWS; id++) await writer.add({ id, siteId: `S${id}`, woType: 'Install', action: 'Update tracker' });
    await writer.flush();
    const owner = (await database.db.selectFrom('users').select('id').where('email', '=', config.adminEmail).executeTakeFirstOrThrow()).id;

    const reports: Array<[number, string | undefined]> = [];
    const { file } = await exportTask(
      { table: DELTA_TABLE.exportKind, ownerId: owner },
      { db: database.db, dialect: database.dialect, dataDir: config.dataDir, progress: (percent, text) => reports.push([percent, text]) },
    );

    expect(reports.map(([, text]) => text)).toEqual([
      'Writing Work Order Delta',
      'Writing rows 0 / 2,345',
      'Writing rows 1,000 / 2,345',
      'Writing rows 2,000 / 2,345',
      'Writing rows 2,345 / 2,345',
    ]);
    const percents = reports.map(([percent]) => percent);
    expect(percents).toEqual([...percents].sort((a, b) => a - b));
    expect(percents.at(-1)).toBe(99);
    expect(await database.db.selectFrom('file_exports').select('id').where('id', '=', file).executeTakeFirst()).toBeDefined();
  });
});
