import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import type { Config } from '../src/config';
import { runUnscoped } from '../src/db/operator-scope';
import type { CommissioningPlanPage, UploadedFile } from 'contracts';
import { NOT_A_WORKBOOK } from '../src/files';
import { seed } from '../src/seed';
import { testApp } from './support/app';
import { TEST_DATABASES, type TestDatabase } from './support/databases';
import { deflatedZeros, rowXml, sharedStringsXml, sheetXml, xlsx, zip } from './fixtures/files/zips';
import { multipart, PLAN_HEADER, planRow, storedZip, workbook } from './fixtures/tracking/workbooks';

/**
 * Hostile files, end to end (docs/architecture.md#files-and-archives, docs/architecture.md#reliability-and-security): each goes through File/Upload as an engineering user
 * and, when it is accepted there, through a tracking import. Each must end in a 4xx with a clear message,
 * never a 5xx, and change nothing: every table keeps its row count (but file_uploads, which holds the
 * accepted upload, and notifications, which tell the user the import failed) and the commissioning plan
 * imported before is still there, stamp included.
 */

interface Attempt {
  stage: 'upload' | 'import';
  status: number;
  message: string;
}

interface Case {
  name: string;
  file: string;
  content: () => Promise<Buffer> | Buffer;
  stage: Attempt['stage'];
  status: number;
  message: string | RegExp;
}

const planHeaderRow = rowXml(1, PLAN_HEADER);
/** Letters that do not compress: a text of real size in a small file. */
const incompressibleText = (bytes: number) =>
  randomBytes(bytes)
    .toString('base64')
    .replace(/[^A-Za-z]/g, 'x')
    .slice(0, bytes);

/** A stored zip of one entry, `bytes` long: 30 + n (local header) + 46 + n (directory) + 22 (end record) around the data. */
function exactly(bytes: number, entry: string): Buffer {
  const content = storedZip({ [entry]: 'x'.repeat(bytes - 98 - 2 * entry.length) });
  expect(content.length).toBe(bytes);
  return content;
}

const CASES: Case[] = [
  {
    name: 'zip bomb: 1 MB that inflates past 1 GB',
    file: 'logs.zip',
    content: async () => {
      const zeros = await deflatedZeros(64);
      return zip([{ name: 'node.log', raw: zeros.raw, size: zeros.size }]);
    },
    stage: 'upload',
    status: 400,
    message: 'File logs.zip inflates to more than 1,000,000,000 bytes; the limit is 1,000,000,000.',
  },
  {
    name: 'workbook bomb: a part compressed 1,000 to 1',
    file: 'plan.xlsx',
    content: async () => {
      const zeros = await deflatedZeros(8);
      return xlsx({ sheet: sheetXml(planHeaderRow), parts: [{ name: 'xl/media/image1.png', raw: zeros.raw, size: zeros.size }] });
    },
    stage: 'upload',
    status: 400,
    message: 'The part xl/media/image1.png of file plan.xlsx is compressed more than 200 to 1, as zip bombs are; the limit is 200 to 1.',
  },
  {
    name: 'workbook bomb whose directory lies about the size',
    file: 'plan.xlsx',
    content: async () => {
      const zeros = await deflatedZeros(8);
      return xlsx({ sheet: sheetXml(planHeaderRow), parts: [{ name: 'xl/media/image1.png', raw: zeros.raw, size: 4_096 }] });
    },
    stage: 'import',
    status: 400,
    message: NOT_A_WORKBOOK,
  },
  {
    name: '../ entry names in a zip',
    file: 'logs.zip',
    content: () => zip([{ name: '../../../etc/cron.d/evil', data: '* * * * * root rm -rf /' }]),
    stage: 'upload',
    status: 400,
    message: 'File logs.zip holds an entry named "../../../etc/cron.d/evil", which is not a plain relative path; it is refused.',
  },
  {
    name: '../ entry names in a workbook',
    file: 'plan.xlsx',
    content: () => xlsx({ sheet: sheetXml(planHeaderRow), parts: [{ name: '../evil.xml', data: '<x/>' }] }),
    stage: 'upload',
    status: 400,
    message: 'File plan.xlsx holds an entry named "../evil.xml", which is not a plain relative path; it is refused.',
  },
  {
    name: 'nested zip',
    file: 'logs.zip',
    content: () => zip([{ name: 'inner.zip', data: storedZip({ 'node.log': 'x' }) }]),
    stage: 'upload',
    status: 400,
    message: 'File logs.zip holds another archive (inner.zip); nested archives are refused.',
  },
  {
    name: 'truncated zip',
    file: 'logs.zip',
    content: () => {
      const archive = zip([{ name: 'node.log', data: incompressibleText(5_000) }]);
      return archive.subarray(0, archive.length - 30);
    },
    stage: 'upload',
    status: 400,
    message: 'File logs.zip is not a zip archive.',
  },
  {
    name: 'truncated workbook',
    file: 'plan.xlsx',
    content: async () => {
      const book = await workbook(PLAN_HEADER, [planRow(1)]);
      return book.subarray(0, book.length - 100);
    },
    stage: 'upload',
    status: 400,
    message: 'File plan.xlsx is not an Excel workbook (.xlsx).',
  },
  {
    name: 'text file named .xlsx',
    file: 'plan.xlsx',
    content: () => Buffer.from('localId;technology\nLX0001;4G\n'),
    stage: 'upload',
    status: 400,
    message: 'File plan.xlsx is not an Excel workbook (.xlsx).',
  },
  {
    name: 'shared-string bomb: one string of 50 MB',
    file: 'plan.xlsx',
    content: () => xlsx({ sheet: sheetXml(planHeaderRow), sharedStrings: sharedStringsXml(`<si><t>${'a'.repeat(50_000_000)}</t></si>`) }),
    stage: 'upload',
    status: 400,
    message: 'The part xl/sharedStrings.xml of file plan.xlsx is compressed more than 200 to 1, as zip bombs are; the limit is 200 to 1.',
  },
  {
    name: 'shared string longer than any Excel cell',
    file: 'plan.xlsx',
    content: () => xlsx({ sheet: sheetXml(planHeaderRow), sharedStrings: sharedStringsXml(`<si><t>${incompressibleText(1_000_000)}</t></si>`) }),
    stage: 'import',
    status: 400,
    message: "The workbook holds a text longer than 262,144 bytes; the limit is 262,144 (Excel's own is 32,767 characters).",
  },
  {
    name: 'row bomb: 250,001 data rows',
    file: 'plan.xlsx',
    content: () => xlsx({ sheet: sheetXml(planHeaderRow + Array.from({ length: 250_001 }, (_, i) => `<row r="${i + 2}"/>`).join('')) }),
    stage: 'import',
    status: 400,
    message: 'The workbook has more than 250,000 rows; the limit is 250,000.',
  },
  {
    name: 'a file of exactly 10,000,001 bytes (zip)',
    file: 'logs.zip',
    content: () => exactly(10_000_001, 'pad.bin'),
    stage: 'upload',
    status: 413,
    message: 'File logs.zip not valid. Please check file size.',
  },
  {
    name: 'a file of exactly 10,000,001 bytes (workbook)',
    file: 'plan.xlsx',
    content: () => exactly(10_000_001, '[Content_Types].xml'),
    stage: 'upload',
    status: 413,
    message: 'File plan.xlsx not valid. Please check file size.',
  },
  {
    name: '10,001 entries in a zip',
    file: 'logs.zip',
    content: () => zip(Array.from({ length: 10_001 }, (_, i) => ({ name: `logs/${i}.log`, data: '', method: 0 as const }))),
    stage: 'upload',
    status: 400,
    message: 'File logs.zip has more than 10,000 entries; the limit is 10,000.',
  },
  {
    name: '10,001 parts in a workbook',
    file: 'plan.xlsx',
    content: () =>
      xlsx({
        sheet: sheetXml(planHeaderRow),
        parts: Array.from({ length: 10_001 - 5 }, (_, i) => ({ name: `xl/extra/${i}.xml`, data: '', method: 0 as const })),
      }),
    stage: 'upload',
    status: 400,
    message: 'File plan.xlsx has more than 10,000 parts; the limit is 10,000.',
  },
];

/** Rows these tables gain when a refused import is still reported to its user. */
// A refused import is still a job the dashboard shows (failed, with its reason).
const EXPECTED_TO_GROW = new Set(['file_uploads', 'notifications', 'jobs']);

describe.each(TEST_DATABASES)('hostile files on $name', (kind) => {
  let database: TestDatabase;
  let app: FastifyInstance;
  let config: Config;
  let token = '';

  beforeAll(async () => {
    database = await kind.open();
    ({ app, config } = await testApp(database));
    await seed(database.db, config);
    const { id } = await database.db.selectFrom('users').select('id').where('email', '=', 'os@cellwise.local').executeTakeFirstOrThrow();
    token = (await app.auth.issueToken(id))!;
    const plan = await attempt(
      'plan.xlsx',
      await workbook(
        PLAN_HEADER,
        Array.from({ length: 30 }, (_, i) => planRow(i + 1)),
      ),
    );
    expect(plan).toEqual({ stage: 'import', status: 200, message: 'Commissioning Plan successfully imported!' });
  });
  afterAll(async () => {
    await app.close();
    await database.dispose();
  });

  const headers = () => ({ authorization: `Bearer ${token}` });

  async function attempt(name: string, content: Buffer): Promise<Attempt> {
    const body = multipart([{ name: 'file', filename: name, content }]);
    const uploaded = await app.inject({ method: 'POST', url: '/api/File/Upload', payload: body.payload, headers: { ...body.headers, ...headers() } });
    if (uploaded.statusCode !== 200) return { stage: 'upload', status: uploaded.statusCode, message: uploaded.json<{ message: string }>().message };
    const id = uploaded.json<UploadedFile>().uploadId;
    if (!name.endsWith('.xlsx')) return { stage: 'upload', status: 200, message: '' };
    const imported = await app.inject({ url: `/api/Tracker/CommissioningPlanUpload?filePath=${id}`, headers: headers() });
    return { stage: 'import', status: imported.statusCode, message: imported.json<{ message: string }>().message };
  }

  async function tableNames(): Promise<string[]> {
    const schema =
      kind.name === 'postgres' ? (await sql<{ schema: string }>`select current_schema() as schema`.execute(database.db)).rows[0]!.schema : undefined;
    const tables = await database.db.introspection.getTables();
    return tables.filter((t) => schema === undefined || t.schema === schema).map((t) => t.name);
  }

  /** Every table's rows, every operator's: a refused file must change nothing anywhere. */
  async function rowCounts(): Promise<Record<string, number>> {
    const counts: Record<string, number> = {};
    for (const table of await tableNames()) {
      const { rows } = await runUnscoped(() => sql<{ n: number | string }>`select count(*) as n from ${sql.table(table)}`.execute(database.db));
      counts[table] = Number(rows[0]!.n);
    }
    return counts;
  }

  const plan = async () => ({
    page: (await app.inject({ url: '/api/Tracker/GetCommissioningPlan?size=100&sort=id', headers: headers() })).json<CommissioningPlanPage>(),
    stamp: (await app.inject({ url: '/api/Tracker/GetCommissioningPlanLastImport', headers: headers() })).json<string>(),
  });

  it.each(CASES)('$name: refused with a clear message, nothing changed', async (hostile) => {
    const before = { counts: await rowCounts(), plan: await plan() };
    expect(before.plan.page.total).toBe(30);
    const content = await hostile.content();
    const result = await attempt(hostile.file, content);
    expect(result.status).toBeLessThan(500);
    expect(result).toEqual({ stage: hostile.stage, status: hostile.status, message: hostile.message });

    const after = await rowCounts();
    for (const [table, count] of Object.entries(before.counts)) {
      if (EXPECTED_TO_GROW.has(table)) continue;
      expect({ table, count: after[table] }).toEqual({ table, count });
    }
    expect(after.file_uploads).toBe(before.counts.file_uploads! + (hostile.stage === 'import' ? 1 : 0));
    expect(await plan()).toEqual(before.plan);
  });
});
