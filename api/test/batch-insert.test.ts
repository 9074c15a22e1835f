import { BatchInsert, batchSizeFor, valuesPlaceholders } from '../src/db/batch-insert';
import { TEST_DATABASES, type TestDatabase } from './support/databases';

test('the placeholders of a multi-row insert: one tuple per row, numbered on PostgreSQL', () => {
  expect(valuesPlaceholders(2, 3, false)).toBe('(?, ?, ?), (?, ?, ?)');
  expect(valuesPlaceholders(2, 3, true)).toBe('($1, $2, $3), ($4, $5, $6)');
  expect(valuesPlaceholders(1, 1, true)).toBe('($1)');
});

const COLUMNS = ['id', 'local_id', 'project'];

describe.each(TEST_DATABASES)('batched inserts on $name', (kind) => {
  let database: TestDatabase;

  beforeAll(async () => {
    database = await kind.open();
  });
  afterAll(async () => {
    await database.dispose();
  });

  test('every row of several full batches and a short last one lands with its own values', async () => {
    const size = batchSizeFor(COLUMNS.length);
    // Three full batches (the second and third reuse the first's statement) and a remainder of 7 rows.
    const total = size * 3 + 7;
    const writer = new BatchInsert(database.db, 'tracking_commissioning_plan', COLUMNS, { fixed: { project: 'Rollout' } });
    for (let id = 1; id <= total; id += 1) await writer.add({ id, local_id: `LX${id}` });
    await writer.flush();

    const rows = await database.db.selectFrom('tracking_commissioning_plan').select(['id', 'local_id', 'project']).orderBy('id').execute();
    expect(writer.written).toBe(total);
    expect(rows).toHaveLength(total);
    for (const at of [0, size - 1, size, 2 * size + 1, total - 7, total - 1]) {
      expect(rows[at]).toEqual({ id: at + 1, local_id: `LX${at + 1}`, project: 'Rollout' });
    }
  });
});
