import { recordDumpImport, utranCell } from './support/cells';
import ExcelJS from 'exceljs';
import type { FastifyInstance } from 'fastify';
import type { RunHistoryPage, RunResponse, UploadedFiles } from 'contracts';
import { findExport } from '../src/files';
import type { Config } from '../src/config';
import { testApp } from './support/app';
import { TEST_DATABASES, type TestDatabase } from './support/databases';
import { headersOf, setUpCallers, type Callers } from './support/principals';
import { multipart } from './fixtures/network-import/dumps';

/**
 * CPICH and neighbour relations validation through the API, on a hand-built inventory whose answers are
 * known: LX0001 and LX0002 carry UTRAN and LTE cells, LX0003 only LTE.
 */

const me = (site: string) => `SubNetwork=1,MeContext=${site},ManagedElement=1`;
const lteDn = (site: string, cell: string) => `${me(site)},ENodeBFunction=1,EUtranCellFDD=${cell}`;
const extDn = (cell: string) => `${me('LX0001')},ENodeBFunction=1,EUtraNetwork=1,ExternalENodeBFunction=x,ExternalEUtranCellFDD=${cell}`;

async function seedInventory(db: TestDatabase['db']): Promise<void> {
  await db
    .insertInto('network_sites')
    .values(['LX0001', 'LX0002', 'LX0003'].map((id, i) => ({ id, name: `Lisboa ${i + 1}`, lat: 38.7, lon: -9.1 })))
    .execute();
  await db
    .insertInto('network_nodes')
    .values([
      ...['LX0001', 'LX0002', 'LX0003'].map((site) => ({ name: site, dn: me(site), site_id: site, technology: 'multi', type: 'RadioNode' })),
      { name: 'RNC01', dn: 'SubNetwork=1,MeContext=RNC01', site_id: null, technology: '3G', type: 'RNC' },
    ])
    .execute();
  const base = {
    band: null,
    channel: null,
    pci: null,
    psc: null,
    bsic: null,
    lac: null,
    tac: null,
    nr_tac: null,
    azimuth: null,
    cpich_power: null,
    max_tx_power: null,
    plmns: '268-01',
    rach_root_sequence: null,
    ssb: null,
    cell_id: null,
    local_cell_id: null,
    owner_id: null,
    global_id: null,
  };
  const utran = utranCell;
  const lte = (site: string, name: string, enb: number, cellId: number, pci: number) => ({
    ...base,
    dn: lteDn(site, name),
    name,
    node_name: site,
    site_id: site,
    tech: '4G',
    channel: 6300,
    pci,
    tac: 1201,
    cell_id: cellId,
    owner_id: enb,
    global_id: `268-01-${enb}-${cellId}`,
  });
  await db
    .insertInto('network_cells')
    .values([
      utran('LX0001', 'LX0001_U1', 10612, 330, 430), // 10 dB below max: OK
      utran('LX0001', 'LX0001_U2', 10612, 340, 430), // 9 dB, sectors 1 dB apart: OK
      utran('LX0001', 'LX0001_U3', 10637, 430, 430), // CPICH = max: ERROR (alone on its carrier)
      utran('LX0002', 'LX0002_U1', 10612, 300, 430), // 13 dB below max: WARNING
      lte('LX0001', 'LX0001_L1', 1, 1, 10),
      lte('LX0001', 'LX0001_L2', 1, 2, 11),
      lte('LX0002', 'LX0002_L1', 2, 1, 20),
      lte('LX0002', 'LX0002_L2', 2, 2, 21),
      lte('LX0003', 'LX0003_L1', 3, 1, 30),
    ])
    .execute();
  const ext = (name: string, enb: number, cellId: number, pci: number) => ({
    dn: extDn(name),
    name,
    kind: '4G',
    node_name: 'LX0001',
    pci,
    psc: null,
    bsic: null,
    channel: 6300,
    band: null,
    tac: 1201,
    lac: null,
    plmn: '268-01',
    owner_id: enb,
    cell_id: cellId,
    global_id: `268-01-${enb}-${cellId}`,
  });
  await db
    .insertInto('network_external_cells')
    .values([ext('LX0002_L1', 2, 1, 20), ext('LX0002_L2', 2, 2, 29) /* stale PCI: the cell has 21 */, ext('LX0003_L1', 3, 1, 30)])
    .execute();
  const source = lteDn('LX0001', 'LX0001_L1');
  const rel = (id: number, target: string, extra: { created_by?: string; is_remove_allowed?: number } = {}) => ({
    id,
    dn: `${source},EUtranFreqRelation=6300,EUtranCellRelation=${id}`,
    name: String(id),
    node_name: 'LX0001',
    kind: 'LTE-LTE',
    source_cell_dn: source,
    target_ref: target,
    created_by: 'OPERATOR',
    is_remove_allowed: 1,
    is_ho_allowed: 1,
    ...extra,
  });
  await db
    .insertInto('network_relations')
    .values([
      rel(1, lteDn('LX0001', 'LX0001_L2')),
      rel(2, extDn('LX0002_L1')),
      rel(3, extDn('LX0002_L2')),
      rel(4, extDn('LX0003_L1'), { created_by: 'ANR', is_remove_allowed: 0 }),
    ])
    .execute();
  await recordDumpImport(db);
}

async function workbook(rows: ReadonlyArray<ReadonlyArray<string | number | null>>): Promise<Buffer> {
  const book = new ExcelJS.Workbook();
  const sheet = book.addWorksheet('Planned');
  for (const row of rows) sheet.addRow([...row]);
  return Buffer.from(await book.xlsx.writeBuffer());
}

async function sheetsOf(file: string): Promise<Record<string, unknown[][]>> {
  const book = new ExcelJS.Workbook();
  await book.xlsx.readFile(file);
  return Object.fromEntries(
    book.worksheets.map((ws) => {
      const rows: unknown[][] = [];
      ws.eachRow((row) => rows.push((row.values as unknown[]).slice(1)));
      return [ws.name, rows];
    }),
  );
}

describe.each(TEST_DATABASES)('validation runs on $name', (kind) => {
  let database: TestDatabase;
  let app: FastifyInstance;
  let config: Config;
  let callers: Callers;
  let userId: number;

  beforeAll(async () => {
    database = await kind.open();
    ({ app, config } = await testApp(database));
    callers = await setUpCallers(app, database, config);
    userId = callers.CellwiseOS.userId!;
    await seedInventory(database.db);
  });
  afterAll(async () => {
    await app.close();
    await database.dispose();
  });

  const get = (url: string) => app.inject({ url, headers: headersOf(callers.CellwiseOS) });
  const runs = async () =>
    Number(
      (
        await database.db
          .selectFrom('runs')
          .select((eb) => eb.fn.countAll<number | string>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  const download = (file: string) => findExport(database.db, config.dataDir, file, userId);
  const upload = async (files: Array<{ name: string; content: Buffer }>) => {
    const body = multipart(files.map((f) => ({ name: 'files', filename: f.name, content: f.content })));
    const res = await app.inject({
      method: 'POST',
      url: '/api/File/UploadMultiple',
      payload: body.payload,
      headers: { ...body.headers, ...headersOf(callers.CellwiseOS) },
    });
    expect(res.statusCode).toBe(200);
    return res
      .json<UploadedFiles>()
      .uploads.map((u) => u.uploadId)
      .join(',');
  };

  describe('CPICH', () => {
    test('validates the UTRAN cells of the sites, records the run, and its workbook reads back', async () => {
      const res = await get(`/api/Validation/RunCpichValidation?sites=LX0001,LX0002&userId=${userId}`);
      expect(res.statusCode).toBe(200);
      const answer = res.json<RunResponse>();
      expect(answer.summary).toEqual([
        { label: 'OK', count: 2, tone: 'ok' },
        { label: 'WARNING', count: 1, tone: 'warning' },
        { label: 'ERROR', count: 1, tone: 'error' },
      ]);
      expect(answer.message).toBe('Cpich validation of LX0001, LX0002: 2 OK, 1 warning, 1 error.');
      expect(answer.preview.title).toBe('Cpich Validation');
      expect(answer.preview.rows.map((r) => [r.cell, r.node, r.verdict])).toEqual([
        ['LX0001_U1', 'RNC01', 'OK'],
        ['LX0001_U2', 'RNC01', 'OK'],
        ['LX0001_U3', 'RNC01', 'ERROR'],
        ['LX0002_U1', 'RNC01', 'WARNING'],
      ]);

      const sheets = await sheetsOf((await download(answer.file!)).file);
      expect(Object.keys(sheets)).toEqual(['Cpich Validation']);
      const [header, ...rows] = sheets['Cpich Validation']!;
      expect(header).toEqual([
        'Site',
        'Node',
        'Cell',
        'UARFCN',
        'primaryCpichPower (0.1 dBm)',
        'maximumTransmissionPower (0.1 dBm)',
        'Max − CPICH (dB)',
        'Verdict',
        'Reason',
      ]);
      expect(rows[2]).toEqual(['LX0001', 'RNC01', 'LX0001_U3', 10637, 430, 430, 0, 'ERROR', 'primaryCpichPower 43.0 dBm ≥ maximumTransmissionPower 43.0 dBm']);

      const history = (await get('/api/Validation/GetCpichValidationHistory')).json<RunHistoryPage>();
      expect(history.rows[0]).toMatchObject({ id: answer.runId, sites: 'LX0001,LX0002', outcome: 'OK 2, WARNING 1, ERROR 1', hasFile: true });
      const again = await get(`/api/Validation/GetCpichValidationExport?cpichValidationId=${answer.runId}`);
      expect(again.statusCode).toBe(200);
      expect(Object.keys(await sheetsOf((await download(again.json<{ file: string }>().file)).file))).toEqual(['Cpich Validation']);

      const notice = await database.db.selectFrom('notifications').select('title').where('user_id', '=', userId).orderBy('id', 'desc').executeTakeFirst();
      expect(notice?.title).toBe('Cpich validation of LX0001, LX0002: 2 OK, 1 warning, 1 error.');
    });

    test.each([
      ['an unknown site', 'sites=LX0001,NOPE', 404, 'Site NOPE not found.'],
      ['a site with no UTRAN cells', 'sites=LX0003', 599, 'No UTRAN cells on LX0003.'],
      ['an empty selection', 'sites=', 400, expect.any(String)],
      ['a blank selection', 'sites=%20', 400, 'Choose at least one site.'],
      ['21 sites', `sites=${Array.from({ length: 21 }, (_, i) => `S${i}`).join(',')}`, 400, expect.any(String)],
    ])('refuses %s, recording nothing', async (_what, query, status, message) => {
      const before = await runs();
      const res = await get(`/api/Validation/RunCpichValidation?${query}&userId=${userId}`);
      expect({ status: res.statusCode, body: res.json() }).toEqual({ status, body: { message } });
      expect(await runs()).toBe(before);
    });

    test('refuses a userId that is not the caller', async () => {
      const res = await get(`/api/Validation/RunCpichValidation?sites=LX0001&userId=${callers.CellwiseHQ.userId}`);
      expect({ status: res.statusCode, body: res.json() }).toEqual({ status: 403, body: { message: 'You can only run this as yourself.' } });
    });

    test('an unknown run has no export', async () => {
      const res = await get('/api/Validation/GetCpichValidationExport?cpichValidationId=999999');
      expect({ status: res.statusCode, body: res.json() }).toEqual({ status: 404, body: { message: 'Run not found.' } });
    });
  });

  describe('neighbour relations', () => {
    test('gives every verdict from two workbooks (template and Ericsson headers), and reports blank rows', async () => {
      const planned = await workbook([
        ['Source Cell', 'Target Cell', 'Target PCI', 'Target Channel', 'Target TAC'],
        ['LX0001_L1', 'LX0001_L2', 11, 6300, 1201], // OK
        ['LX0001_L1', 'LX0002_L1', 20, null, null], // OK through its external cell
        ['LX0001_L1', 'LX0002_L2', null, null, null], // WRONG: the external cell's PCI is stale
        ['LX0001_L2', 'LX0002_L1', 20, null, null], // MISSING: LX0001_L2 has no relations
        ['LX0001_L2', null, null, null, null], // blank target: reported
        ['LX0002_L1', 'LX0001_L1', null, null, null], // another site's source: set aside
      ]);
      const ericsson = await workbook([
        ['EUtranCellFDD', 'neighbor cell', 'PCI'],
        ['LX0001_L2', 'LX0001_L1', 10], // MISSING
      ]);
      const files = await upload([
        { name: 'planned.xlsx', content: planned },
        { name: 'ericsson.xlsx', content: ericsson },
      ]);
      const res = await get(`/api/Validation/RunNbrRelationsValidation?site=LX0001&userId=${userId}&filesPath=${files}`);
      expect(res.statusCode).toBe(200);
      const answer = res.json<RunResponse>();
      expect(answer.summary).toEqual([
        { label: 'OK', count: 2, tone: 'ok' },
        { label: 'MISSING', count: 2, tone: 'error' },
        { label: 'WRONG', count: 1, tone: 'error' },
        { label: 'EXTRA', count: 1, tone: 'warning' },
        { label: 'Skipped rows', count: 2, tone: 'info' },
      ]);
      expect(answer.message).toBe('Neighbour relations of LX0001: 2 OK, 2 missing, 1 wrong, 1 extra; 2 rows with blanks skipped.');
      expect(answer.preview.rows.map((r) => [r.source, r.target, r.verdict])).toEqual([
        ['LX0001_L1', 'LX0001_L2', 'OK'],
        ['LX0001_L1', 'LX0002_L1', 'OK'],
        ['LX0001_L1', 'LX0002_L2', 'WRONG'],
        ['LX0001_L2', 'LX0001_L1', 'MISSING'],
        ['LX0001_L2', 'LX0002_L1', 'MISSING'],
        ['LX0001_L1', 'LX0003_L1', 'EXTRA'],
      ]);
      const extra = answer.preview.rows.find((r) => r.verdict === 'EXTRA');
      expect(extra).toMatchObject({ createdBy: 'ANR', isRemoveAllowed: 'FALSE', reason: 'not planned; createdBy ANR, removal not allowed' });
      expect(answer.preview.rows.find((r) => r.verdict === 'WRONG')?.reason).toBe(
        'external cell LX0002_L2 is stale: PCI 29 on the external cell, 21 on LX0002_L2',
      );

      const sheets = await sheetsOf((await download(answer.file!)).file);
      expect(Object.keys(sheets)).toEqual(['Relations', 'Missing', 'Wrong', 'Extra', 'Skipped Rows']);
      expect(sheets['Skipped Rows']!.slice(1)).toEqual([
        ['planned.xlsx', 6, 'LX0001_L2', undefined, 'Target Cell blank'],
        ['planned.xlsx', 7, 'LX0002_L1', 'LX0001_L1', 'source cell on site LX0002'],
      ]);

      const history = (await get('/api/Validation/GetNbrRelationsValidationHistory')).json<RunHistoryPage>();
      expect(history.rows[0]).toMatchObject({ id: answer.runId, sites: 'LX0001', files: 'planned.xlsx, ericsson.xlsx', hasFile: true });
      const again = await get(`/api/Validation/GetNbrRelationsValidationExport?nbrRelationsValidationId=${answer.runId}`);
      expect(again.statusCode).toBe(200);
    });

    test('a planned target value the real cell does not have is WRONG', async () => {
      const files = await upload([
        {
          name: 'pci.xlsx',
          content: await workbook([
            ['Source Cell', 'Target Cell', 'Target PCI'],
            ['LX0001_L1', 'LX0001_L2', 99],
          ]),
        },
      ]);
      const answer = (await get(`/api/Validation/RunNbrRelationsValidation?site=LX0001&userId=${userId}&filesPath=${files}`)).json<RunResponse>();
      expect(answer.preview.rows[0]).toMatchObject({ target: 'LX0001_L2', verdict: 'WRONG', reason: 'planned PCI 99, LX0001_L2 has 11' });
    });

    test('refuses a workbook without the needed headers, naming the file and the columns, recording nothing', async () => {
      const files = await upload([
        {
          name: 'nothing.xlsx',
          content: await workbook([
            ['Foo', 'Target'],
            ['a', 'b'],
          ]),
        },
      ]);
      const before = await runs();
      const res = await get(`/api/Validation/RunNbrRelationsValidation?site=LX0001&userId=${userId}&filesPath=${files}`);
      expect({ status: res.statusCode, body: res.json() }).toEqual({
        status: 400,
        body: { message: 'nothing.xlsx has no Source Cell column: the first row must name it (see the template).' },
      });
      expect(await runs()).toBe(before);
    });

    test('refuses an unknown site, an unknown upload, another user, and workbooks that plan nothing for the site', async () => {
      const files = await upload([
        {
          name: 'other.xlsx',
          content: await workbook([
            ['Source Cell', 'Target Cell'],
            ['LX0002_L1', 'LX0001_L1'],
          ]),
        },
      ]);
      const before = await runs();
      const answers = await Promise.all([
        get(`/api/Validation/RunNbrRelationsValidation?site=NOPE&userId=${userId}&filesPath=${files}`),
        get(`/api/Validation/RunNbrRelationsValidation?site=LX0001&userId=${userId}&filesPath=no-such-upload`),
        get(`/api/Validation/RunNbrRelationsValidation?site=LX0001&userId=${callers.CellwiseHQ.userId}&filesPath=${files}`),
      ]);
      expect(answers.map((r) => [r.statusCode, r.json<{ message: string }>().message])).toEqual([
        [404, 'Site NOPE not found.'],
        [404, expect.any(String)],
        [403, 'You can only run this as yourself.'],
      ]);
      const nothing = await get(`/api/Validation/RunNbrRelationsValidation?site=LX0001&userId=${userId}&filesPath=${files}`);
      expect({ status: nothing.statusCode, body: nothing.json() }).toEqual({
        status: 599,
        body: { message: 'No planned relations of site LX0001 in other.xlsx.' },
      });
      expect(await runs()).toBe(before);
    });

    test('the template has the headers the reader needs, an example row and a Read me', async () => {
      const res = await get('/api/Validation/GetNbrRelationsTemplate');
      expect(res.statusCode).toBe(200);
      const exported = await download(res.json<{ file: string }>().file);
      expect(exported.fileName).toBe('NbrRelationsValidation_Template.xlsx');
      const sheets = await sheetsOf(exported.file);
      expect(Object.keys(sheets)).toEqual(['Planned Relations', 'Read me']);
      expect(sheets['Planned Relations']![0]).toEqual(['Source Cell', 'Target Cell', 'Target PCI', 'Target Channel', 'Target TAC']);
      expect(sheets['Planned Relations']).toHaveLength(2);

      // The template, filled in, is read back as planned relations.
      const files = await upload([
        { name: 'template.xlsx', content: await workbook([sheets['Planned Relations']![0] as string[], ['LX0001_L1', 'LX0001_L2', 11, 6300, 1201]]) },
      ]);
      const answer = (await get(`/api/Validation/RunNbrRelationsValidation?site=LX0001&userId=${userId}&filesPath=${files}`)).json<RunResponse>();
      expect(answer.summary.find((s) => s.label === 'OK')?.count).toBe(1);
    });
  });
});
