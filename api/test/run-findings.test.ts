import { utranCell } from './support/cells';
import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { Migrator, sql, type Kysely, type Migration, type MigrationProvider } from 'kysely';
import type { RunFindingsPage, RunResponse } from 'contracts';
import { MIGRATIONS, migrationsUpTo } from '../src/db/migrate';
import { runInOperator, runUnscoped } from '../src/db/operator-scope';
import { listRunFindings, recordRun, runsDir, writeRunWorkbook, type RunSheet } from '../src/runs';
import { sheetInfoOf, verdictKeyOf, verdictRank } from '../src/runs/findings';
import { testApp } from './support/app';
import { TEST_DATABASES, type EmptyTestDatabase, type TestDatabase } from './support/databases';
import { headersOf, setUpCallers, type Callers } from './support/principals';

/**
 * Every row of a run's result sheets is kept and listed worst first (issue 46: CPICH's only ERROR sat
 * on page 2 of a preview that stopped at 20 rows).
 */

describe('verdicts in the worst-first order', () => {
  test('ERROR, WARNING, MISSING, WRONG, EXTRA, then other verdicts, OK, and rows without one', () => {
    const given = ['OK', null, 'EXTRA', 'NO_LAYER', 'WRONG', 'N/A', 'missing', 'MISSING_PLMN', 'warning', 'ERROR', 'NOK', ''];
    const sorted = [...given].sort((a, b) => verdictRank(a) - verdictRank(b));
    expect(sorted).toEqual(['ERROR', 'NOK', 'warning', 'missing', 'MISSING_PLMN', 'WRONG', 'EXTRA', 'NO_LAYER', 'OK', null, 'N/A', '']);
  });

  test("a sheet's verdict column is its own choice, else verdict, status, level or severity, else none", () => {
    const col = (key: string) => ({ key, label: key });
    expect(verdictKeyOf({ columns: [col('cell'), col('status'), col('verdict')] })).toBe('verdict');
    expect(verdictKeyOf({ columns: [col('check'), col('status')] })).toBe('status');
    expect(verdictKeyOf({ columns: [col('level'), col('message')] })).toBe('level');
    expect(verdictKeyOf({ columns: [col('source'), col('target')] })).toBeNull();
    expect(verdictKeyOf({ columns: [col('verdict'), col('state')], verdictKey: 'state' })).toBe('state');
  });

  test("a sheet's description: column kinds from every value (mixed or odd values read as text), its worst verdict", () => {
    const info = sheetInfoOf({
      name: 'Mixed',
      columns: [
        { key: 'n', label: 'N' },
        { key: 'mixed', label: 'Mixed' },
        { key: 'at', label: 'At' },
        { key: 'blank', label: 'Blank' },
        { key: 'verdict', label: 'Verdict' },
      ],
      rows: [
        { n: 1, mixed: 2, at: new Date('2026-01-01T00:00:00Z'), blank: null, verdict: 'OK' },
        { n: null, mixed: 'two', at: null, verdict: 'WRONG' },
        { n: 3, mixed: Number.NaN, at: new Date('2026-01-02T00:00:00Z'), verdict: 'EXTRA' },
      ],
    });
    expect(info).toEqual({
      name: 'Mixed',
      columns: [
        { key: 'n', label: 'N', kind: 'number' },
        { key: 'mixed', label: 'Mixed', kind: 'text' },
        { key: 'at', label: 'At', kind: 'date' },
        { key: 'blank', label: 'Blank', kind: 'text' },
        { key: 'verdict', label: 'Verdict', kind: 'text' },
      ],
      total: 3,
      verdictKey: 'verdict',
      worst: 'WRONG',
    });
    expect(sheetInfoOf({ name: 'Empty', columns: [], rows: [] })).toMatchObject({ total: 0, verdictKey: null, worst: null });
    expect(sheetInfoOf({ name: 'Fixed', columns: [{ key: 'source', label: 'Source' }], rows: [{ source: 'A' }], verdict: 'Remove' })).toMatchObject({
      verdictKey: null,
      worst: 'Remove',
    });
  });
});

const utran = (name: string, uarfcn: number, cpich: number, max: number) => utranCell('LX0001', name, uarfcn, cpich, max);

/** LX0001: 29 UTRAN cells 10 dB below their maximum (OK) on one carrier, and LX0001_U99 with CPICH = max (the one ERROR), alone on another. */
async function seedCpich(db: TestDatabase['db']): Promise<void> {
  await db.insertInto('network_sites').values({ id: 'LX0001', name: 'Lisboa 1', lat: 38.7, lon: -9.1 }).execute();
  await db
    .insertInto('network_nodes')
    .values([
      { name: 'LX0001', dn: 'SubNetwork=1,MeContext=LX0001', site_id: 'LX0001', technology: 'multi', type: 'RadioNode' },
      { name: 'RNC01', dn: 'SubNetwork=1,MeContext=RNC01', site_id: null, technology: '3G', type: 'RNC' },
    ])
    .execute();
  const ok = Array.from({ length: 29 }, (_, i) => utran(`LX0001_U${String(i + 1).padStart(2, '0')}`, 10612, 330, 430));
  await db
    .insertInto('network_cells')
    .values([...ok, utran('LX0001_U99', 10637, 430, 430)])
    .execute();
}

const SHEET: RunSheet = {
  name: 'Checks',
  columns: [
    { key: 'cell', label: 'Cell' },
    { key: 'power', label: 'Power' },
    { key: 'at', label: 'At' },
    { key: 'verdict', label: 'Verdict' },
  ],
  rows: [
    { cell: 'A', power: 95, at: new Date('2026-03-05T10:00:00Z'), verdict: 'OK' },
    { cell: 'B', power: 330, at: new Date('2026-03-06T10:00:00Z'), verdict: 'EXTRA' },
    { cell: 'C', power: 1200, at: null, verdict: 'WARNING' },
    { cell: 'D', power: null, at: new Date('2026-03-07T10:00:00Z'), verdict: 'ERROR' },
    { cell: 'E', power: 7, at: null, verdict: 'MISSING' },
  ],
};
const NOTES: RunSheet = { name: 'Notes', columns: [{ key: 'note', label: 'Note' }], rows: [{ note: 'first' }, { note: 'second' }] };

describe.each(TEST_DATABASES)('run findings on $name', (kind) => {
  let database: TestDatabase;
  let app: FastifyInstance;
  let callers: Callers;
  let dataDir: string;
  let userId: number;

  beforeAll(async () => {
    database = await kind.open();
    let config;
    ({ app, config } = await testApp(database));
    dataDir = config.dataDir;
    callers = await setUpCallers(app, database, config);
    userId = callers.CellwiseOS.userId!;
    await seedCpich(database.db);
  });
  afterAll(async () => {
    await app.close();
    await database.dispose();
  });

  const get = (url: string) => app.inject({ url, headers: headersOf(callers.CellwiseOS) });
  const record = (findings: readonly RunSheet[], kindOfRun: 'cpichValidation' | 'nbrRelationsValidation' = 'nbrRelationsValidation') =>
    recordRun(database.db, dataDir, {
      kind: kindOfRun,
      userId,
      sites: ['LX0001'],
      files: [],
      parameters: {},
      jobId: null,
      message: null,
      summary: [],
      findings,
      workbook: null,
    });
  const findings = async (path: string, query: string) => {
    const res = await get(`/api/${path}?${query}`);
    expect(res.statusCode).toBe(200);
    return res.json<RunFindingsPage>();
  };

  test("a CPICH run's one ERROR among 29 OK cells is the first row of page 1, though it is the sheet's last row", async () => {
    const res = await get(`/api/Validation/RunCpichValidation?sites=LX0001&userId=${userId}`);
    expect(res.statusCode).toBe(200);
    const run = res.json<RunResponse>();
    expect(run.summary).toEqual([
      { label: 'OK', count: 29, tone: 'ok' },
      { label: 'WARNING', count: 0, tone: 'warning' },
      { label: 'ERROR', count: 1, tone: 'error' },
    ]);
    // The run's own order (the workbook's) has it last: beyond the old 20-row preview.
    expect(run.preview.rows).toHaveLength(20);
    expect(run.preview.rows.some((r) => r.verdict === 'ERROR')).toBe(false);

    const page = await findings('Validation/GetCpichValidationFindings', `cpichValidationId=${run.runId}`);
    expect(page.total).toBe(30);
    expect(page.sheet).toBe('Cpich Validation');
    expect(page.rows).toHaveLength(10);
    expect(page.rows[0]).toMatchObject({ rowNo: 30, verdict: 'ERROR', values: { cell: 'LX0001_U99', site: 'LX0001', node: 'RNC01', primaryCpichPower: 430 } });
    expect(page.rows.slice(1).map((r) => [r.verdict, r.rowNo])).toEqual(Array.from({ length: 9 }, (_, i) => ['OK', i + 1]));
    expect(page.run).toMatchObject({ runId: run.runId, sites: 'LX0001', summary: run.summary, hasFile: true, message: run.message });
    expect(page.run.sheets).toEqual([expect.objectContaining({ name: 'Cpich Validation', total: 30, verdictKey: 'verdict', worst: 'ERROR' })]);
    expect(page.run.sheets[0]!.columns.find((c) => c.key === 'primaryCpichPower')).toEqual({
      key: 'primaryCpichPower',
      label: 'primaryCpichPower (0.1 dBm)',
      kind: 'number',
    });

    // Every row is there: the last page holds the rest of the OK cells.
    const last = await findings('Validation/GetCpichValidationFindings', `cpichValidationId=${run.runId}&page=3`);
    expect(last.rows.map((r) => r.values.cell)).toEqual(Array.from({ length: 10 }, (_, i) => `LX0001_U${20 + i}`));
    // Filters and sorts work on the sheet's columns.
    const filtered = await findings(
      'Validation/GetCpichValidationFindings',
      `cpichValidationId=${run.runId}&filters=${encodeURIComponent(JSON.stringify({ cell: 'u0', verdict: 'ok' }))}`,
    );
    expect({ total: filtered.total, cells: filtered.rows.map((r) => r.values.cell) }).toEqual({
      total: 9,
      cells: Array.from({ length: 9 }, (_, i) => `LX0001_U0${i + 1}`),
    });
    const byCell = await findings('Validation/GetCpichValidationFindings', `cpichValidationId=${run.runId}&sort=cell&order=descend&size=2`);
    expect(byCell.rows.map((r) => r.values.cell)).toEqual(['LX0001_U99', 'LX0001_U29']);
  });

  test('sorts numbers as numbers and dates as dates, the verdict column worst first, and filters dates as the table shows them', async () => {
    const { runId } = await record([SHEET, NOTES]);
    const path = 'Validation/GetNbrRelationsValidationFindings';
    const cells = async (query: string) => (await findings(path, `nbrRelationsValidationId=${runId}&${query}`)).rows.map((r) => r.values.cell);
    expect(await cells('')).toEqual(['D', 'C', 'E', 'B', 'A']);
    // Blanks last either way; 95 before 330 before 1200 (as text '1200' < '330' < '95').
    expect(await cells('sort=power&order=ascend')).toEqual(['E', 'A', 'B', 'C', 'D']);
    expect(await cells('sort=power&order=descend')).toEqual(['C', 'B', 'A', 'E', 'D']);
    expect(await cells('sort=at&order=descend')).toEqual(['D', 'B', 'A', 'C', 'E']);
    expect(await cells('sort=verdict&order=ascend')).toEqual(['D', 'C', 'E', 'B', 'A']);
    expect(await cells('sort=verdict&order=descend')).toEqual(['A', 'B', 'E', 'C', 'D']);
    expect(await cells(`filters=${encodeURIComponent(JSON.stringify({ at: '06-03-2026' }))}`)).toEqual(['B']);
    expect(await cells(`filters=${encodeURIComponent(JSON.stringify({ power: '3' }))}`)).toEqual(['B']);

    const notes = await findings(path, `nbrRelationsValidationId=${runId}&sheet=Notes`);
    expect({ sheet: notes.sheet, total: notes.total, rows: notes.rows }).toEqual({
      sheet: 'Notes',
      total: 2,
      rows: [
        { rowNo: 1, verdict: null, values: { note: 'first' } },
        { rowNo: 2, verdict: null, values: { note: 'second' } },
      ],
    });
    expect(notes.run.sheets.map((s) => [s.name, s.total, s.worst])).toEqual([
      ['Checks', 5, 'ERROR'],
      ['Notes', 2, null],
    ]);
  });

  test.each([
    ['an unknown sheet', 'sheet=Nope', 'This run has no sheet "Nope"; it has Checks, Notes.'],
    ['a sort on a column the sheet lacks', 'sort=nope', 'Sheet Checks has no column "nope".'],
    ['a filter on a column the sheet lacks', `filters=${encodeURIComponent('{"nope":"x"}')}`, 'Sheet Checks has no column "nope".'],
    ['filters that are not JSON', 'filters=%7B', 'filters must be JSON text of an object { field: text }.'],
    ['filters that are a list', 'filters=%5B%5D', 'filters must be JSON text of an object { field: text }.'],
    ['a filter that is not text', `filters=${encodeURIComponent('{"cell":{"a":1}}')}`, expect.any(String)],
    ['page 0', 'page=0', expect.any(String)],
    ['a size over 100', 'size=101', expect.any(String)],
    ['an unknown order', 'order=up', expect.any(String)],
    ['an unknown parameter', 'runId=1', expect.any(String)],
  ])('refuses %s with 400', async (_what, query, message) => {
    const { runId } = await record([SHEET, NOTES]);
    const res = await get(`/api/Validation/GetNbrRelationsValidationFindings?nbrRelationsValidationId=${runId}&${query}`);
    expect({ status: res.statusCode, body: res.json() }).toEqual({ status: 400, body: { message } });
  });

  test.each([
    ['no run id', ''],
    ['a run id that is not a number', 'cpichValidationId=x'],
    ['a run id beyond the ids', 'cpichValidationId=99999999999'],
  ])('refuses %s with 400', async (_what, query) => {
    const res = await get(`/api/Validation/GetCpichValidationFindings?${query}`);
    expect(res.statusCode).toBe(400);
  });

  test("another operator's run, another kind's run and an unknown run answer 404", async () => {
    const { id: nos } = await database.db.selectFrom('operators').select('id').where('name', '=', 'NOS').executeTakeFirstOrThrow();
    const theirs = await runInOperator(nos, () => record([SHEET], 'cpichValidation'));
    const mine = await record([SHEET], 'nbrRelationsValidation');
    for (const query of [`cpichValidationId=${theirs.runId}`, `cpichValidationId=${mine.runId}`, 'cpichValidationId=999999']) {
      const res = await get(`/api/Validation/GetCpichValidationFindings?${query}`);
      expect({ status: res.statusCode, body: res.json() }).toEqual({ status: 404, body: { message: 'Run not found.' } });
    }
    // Their rows stay theirs: read in their operator, they are all there.
    const page = await runInOperator(nos, () => listRunFindings(database.db, 'cpichValidation', theirs.runId, {}));
    expect(page?.total).toBe(5);
  });

  test('a big run keeps every row and still answers its worst rows first', async () => {
    const rows = Array.from({ length: 20_000 }, (_, i) => ({
      source: `C${i}`,
      target: `T${i}`,
      verdict: i === 17_321 ? 'ERROR' : i % 1000 === 999 ? 'WARNING' : 'OK',
    }));
    const big: RunSheet = {
      name: 'Relations',
      columns: [
        { key: 'source', label: 'Source' },
        { key: 'target', label: 'Target' },
        { key: 'verdict', label: 'Verdict' },
      ],
      rows,
    };
    const { runId } = await record([big]);
    const page = await listRunFindings(database.db, 'nbrRelationsValidation', runId, {});
    expect(page?.total).toBe(20_000);
    expect(page?.rows.map((r) => r.values.source)).toEqual(['C17321', 'C999', 'C1999', 'C2999', 'C3999', 'C4999', 'C5999', 'C6999', 'C7999', 'C8999']);
    const stored = await database.db
      .selectFrom('run_findings')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('run_id', '=', runId)
      .executeTakeFirstOrThrow();
    expect(Number(stored.n)).toBe(20_000);
  });

  test('a run whose findings cannot be written is not kept at all: no history row, no findings, no workbook', async () => {
    const runsBefore = await database.db.selectFrom('runs').select('id').execute();
    const temp = path.join(dataDir, 'doomed.xlsx');
    await writeRunWorkbook(temp, [SHEET]);
    const kept = () => fs.readdirSync(runsDir(dataDir)).filter((f) => !f.startsWith('.'));
    const workbooksBefore = fs.existsSync(runsDir(dataDir)) ? kept().length : 0;
    const rows = [...Array.from({ length: 1200 }, (_, i) => ({ cell: `X${i}`, verdict: 'OK' })), { cell: BigInt(1) as never, verdict: 'OK' }];
    await expect(
      recordRun(database.db, dataDir, {
        kind: 'nbrRelationsValidation',
        userId,
        sites: ['LX0001'],
        files: [],
        parameters: {},
        jobId: null,
        message: null,
        summary: [],
        findings: [
          {
            name: 'Doomed',
            columns: [
              { key: 'cell', label: 'Cell' },
              { key: 'verdict', label: 'Verdict' },
            ],
            rows,
          },
        ],
        workbook: { file: temp, fileName: 'Doomed.xlsx' },
      }),
    ).rejects.toThrow();
    expect(await database.db.selectFrom('runs').select('id').execute()).toEqual(runsBefore);
    const orphans = await database.db
      .selectFrom('run_findings')
      .select('run_id')
      .where('run_id', 'not in', runsBefore.length > 0 ? runsBefore.map((r) => r.id) : [0])
      .execute();
    expect(orphans).toEqual([]);
    expect(kept().length).toBe(workbooksBefore);
  });
});

class StaticProvider implements MigrationProvider {
  constructor(private readonly migrations: Record<string, Migration>) {}
  getMigrations(): Promise<Record<string, Migration>> {
    return Promise.resolve(this.migrations);
  }
}

describe.each(TEST_DATABASES)('migration 0018 (run findings) on $name', (kind) => {
  let database: EmptyTestDatabase;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations run on no schema
  let db: Kysely<any>;
  const migrate = async (migrations: Record<string, Migration>) => {
    const migrator = new Migrator({ db, provider: new StaticProvider(migrations), ...(database.schema ? { migrationTableSchema: database.schema } : {}) });
    const { error } = await database.migrating(() => runUnscoped(() => migrator.migrateToLatest()));
    if (error) throw error instanceof Error ? error : new Error(String(error));
  };

  beforeAll(async () => {
    database = await kind.openEmpty();
    db = database.db;
  });
  afterAll(() => database.dispose());

  test("a run recorded before keeps its preview's rows as its one sheet, worst first; an unreadable preview leaves it without sheets", async () => {
    await migrate(migrationsUpTo('0016_operator_tenancy'));
    await runUnscoped(async () => {
      await sql`insert into operators (id, name, avatar, created_at) values (5, 'Op', null, '2025-01-01T00:00:00.000Z')`.execute(db);
      const preview = JSON.stringify({
        title: 'Relations',
        columns: [
          { key: 'source', label: 'Source Cell' },
          { key: 'verdict', label: 'Verdict' },
        ],
        rows: [
          { source: 'A', verdict: 'OK' },
          { source: 'B', verdict: 'MISSING' },
        ],
        total: 40,
      });
      for (const [id, text] of [
        [1, preview],
        [2, 'not json'],
      ] as const) {
        await sql`insert into runs (id, operator_id, kind, user_id, user_name, sites, files, parameters, run_date, job_id, message, summary, preview, stored_name, file_name)
          values (${id}, 5, 'nbrRelationsValidation', null, 'Eva', 'LX0001', '', '{}', '2025-01-01T00:00:00.000Z', null, null, '[]', ${text}, null, null)`.execute(
          db,
        );
      }
    });
    await migrate(MIGRATIONS);
    const runs = await runUnscoped(() => sql<{ id: number; sheets: string }>`select id, sheets from runs order by id`.execute(db));
    expect(runs.rows.map((r) => [Number(r.id), JSON.parse(r.sheets) as unknown])).toEqual([
      [
        1,
        [
          {
            name: 'Relations',
            columns: [
              { key: 'source', label: 'Source Cell', kind: 'text' },
              { key: 'verdict', label: 'Verdict', kind: 'text' },
            ],
            total: 2,
            verdictKey: 'verdict',
            worst: 'MISSING',
          },
        ],
      ],
      [2, []],
    ]);
    const rows = await runUnscoped(() =>
      sql<{
        operator_id: number;
        row_no: number;
        rank: number;
        verdict: string;
        data: string;
      }>`select operator_id, row_no, rank, verdict, data from run_findings order by rank, row_no`.execute(db),
    );
    expect(rows.rows.map((r) => [Number(r.operator_id), Number(r.row_no), Number(r.rank), r.verdict, JSON.parse(r.data) as unknown])).toEqual([
      [5, 2, 2, 'MISSING', { source: 'B', verdict: 'MISSING' }],
      [5, 1, 6, 'OK', { source: 'A', verdict: 'OK' }],
    ]);
  });
});
