import ExcelJS from 'exceljs';
import type { FastifyInstance } from 'fastify';
import type { RunResponse, UploadedFiles } from 'contracts';
import type { Config } from '../src/config';
import { checkMosScript } from '../src/domain/scripts';
import { findExport } from '../src/files';
import { readArchiveFiles } from '../src/files/zip';
import { importDemoNetworkIfEmpty } from '../src/network/demo';
import { testApp } from './support/app';
import { TEST_DATABASES, type TestDatabase } from './support/databases';
import { headersOf, setUpCallers, type Callers } from './support/principals';
import { multipart } from './fixtures/network-import/dumps';

/**
 * A neighbour validation run on the demo network (imported through the real importer) answers its
 * corrective scripts as a zip: one .mos per node with its undo, the README and the sitelist, read back
 * with the project's zip reader.
 */

async function workbook(rows: ReadonlyArray<ReadonlyArray<string | number | null>>): Promise<Buffer> {
  const book = new ExcelJS.Workbook();
  const sheet = book.addWorksheet('Planned');
  for (const row of rows) sheet.addRow([...row]);
  return Buffer.from(await book.xlsx.writeBuffer());
}

async function zipFiles(file: string): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for await (const entry of readArchiveFiles(file)) out.set(entry.name, entry.data!.toString('utf8'));
  return out;
}

describe.each(TEST_DATABASES)('corrective scripts of a run on $name', (kind) => {
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
    await importDemoNetworkIfEmpty(database.db, { dataDir: config.dataDir, sites: 8, seed: 1 });
  });
  afterAll(async () => {
    await app.close();
    await database.dispose();
  });

  const get = (url: string) => app.inject({ url, headers: headersOf(callers.CellwiseOS) });
  const upload = async (name: string, content: Buffer) => {
    const body = multipart([{ name: 'files', filename: name, content }]);
    const res = await app.inject({
      method: 'POST',
      url: '/api/File/UploadMultiple',
      payload: body.payload,
      headers: { ...body.headers, ...headersOf(callers.CellwiseOS) },
    });
    expect(res.statusCode).toBe(200);
    return res.json<UploadedFiles>().uploads[0]!.uploadId;
  };

  test('a neighbour validation: a zip with one .mos per node, its undo and a README, every script in the grammar', async () => {
    const planned = await workbook([
      ['Source Cell', 'Target Cell'],
      ['LX0001_L800_1', 'LX0001_L800_2'],
      ['LX0001_L800_1', 'LX0001_L1800_2'], // MISSING on the same node
      ['LX0001_L800_1', 'LX0005_L800_1'], // MISSING on another node
    ]);
    const files = await upload('planned.xlsx', planned);
    const run = await get(`/api/Validation/RunNbrRelationsValidation?site=LX0001&userId=${userId}&filesPath=${files}`);
    expect(run.statusCode).toBe(200);
    const { runId } = run.json<RunResponse>();

    const res = await get(`/api/Validation/GetNbrRelationsValidationScripts?nbrRelationsValidationId=${runId}`);
    expect(res.statusCode).toBe(200);
    const exported = await findExport(database.db, config.dataDir, res.json<{ file: string }>().file, userId);
    expect(exported.fileName).toMatch(/^NbrRelationsValidation_LX0001_\d{8}-\d{6}_scripts\.zip$/);
    const zip = await zipFiles(exported.file);
    expect([...zip.keys()]).toEqual(['README.txt', 'sites.txt', 'LX0001.mos', 'LX0001_undo.mos']);
    expect(zip.get('sites.txt')).toBe('LX0001\n');
    const script = zip.get('LX0001.mos')!;
    expect(script).toContain(`cvms CW_NBR_${runId}_LX0001_pre_$date`);
    expect(script).toContain('# MISSING LX0001_L800_1 -> LX0001_L1800_2: relation to LX0001_L1800_2 (same node)');
    expect(script).toContain('crn ENodeBFunction=1,EUtranCellFDD=LX0001_L800_1,EUtranFreqRelation=1850,EUtranCellRelation=LX0001_L1800_2');
    expect(script).toMatch(/^crn ENodeBFunction=1,EUtraNetwork=1,ExternalENodeBFunction=26801-\d+$/m);
    expect(zip.get('LX0001_undo.mos')).toContain('del ENodeBFunction=1,EUtranCellFDD=LX0001_L800_1,EUtranFreqRelation=1850,EUtranCellRelation=LX0001_L1800_2$');
    expect(zip.get('README.txt')).toContain(`Run ${runId}: Neighbour relations validation of LX0001.`);
    for (const name of ['LX0001.mos', 'LX0001_undo.mos']) expect({ name, errors: checkMosScript(zip.get(name)!) }).toEqual({ name, errors: [] });

    // Downloaded again later: a fresh export of the same kept zip.
    const again = await get(`/api/Validation/GetNbrRelationsValidationScripts?nbrRelationsValidationId=${runId}`);
    expect(again.json<{ file: string }>().file).not.toBe(res.json<{ file: string }>().file);
  });

  test('a run that found nothing a command corrects has no scripts, and says so', async () => {
    // Every LX0004_L800_1 relation of the dump, planned: all OK.
    const relations = await database.db
      .selectFrom('network_relations')
      .innerJoin('network_cells as s', 's.dn', 'network_relations.source_cell_dn')
      .select(['network_relations.target_ref'])
      .where('s.name', '=', 'LX0004_L800_1')
      .execute();
    const targets = await database.db.selectFrom('network_cells').select(['name', 'dn', 'global_id']).execute();
    const externals = await database.db.selectFrom('network_external_cells').select(['dn', 'global_id']).execute();
    const nameOf = (ref: string | null) => {
      const direct = targets.find((t) => t.dn === ref);
      if (direct) return direct.name;
      const ext = externals.find((e) => e.dn === ref);
      return targets.find((t) => t.global_id !== null && t.global_id === ext?.global_id)?.name ?? null;
    };
    const rows = relations.map((r) => nameOf(r.target_ref)).filter((n): n is string => n !== null);
    expect(rows.length).toBe(relations.length);
    const files = await upload('all-ok.xlsx', await workbook([['Source Cell', 'Target Cell'], ...rows.map((t) => ['LX0004_L800_1', t])]));
    const run = await get(`/api/Validation/RunNbrRelationsValidation?site=LX0004&userId=${userId}&filesPath=${files}`);
    expect(run.statusCode).toBe(200);
    const answer = run.json<RunResponse>();
    expect(answer.summary.filter((s) => s.label !== 'OK' && s.count > 0)).toEqual([]);
    const res = await get(`/api/Validation/GetNbrRelationsValidationScripts?nbrRelationsValidationId=${answer.runId}`);
    expect({ status: res.statusCode, body: res.json() }).toEqual({ status: 404, body: { message: 'This run found nothing that needs a corrective script.' } });
  });

  test('an unknown run, or a run of another kind, answers 404 Run not found', async () => {
    const missing = await get('/api/Validation/GetCpichValidationScripts?cpichValidationId=999999');
    expect({ status: missing.statusCode, body: missing.json() }).toEqual({ status: 404, body: { message: 'Run not found.' } });
    const nbr = await database.db.selectFrom('runs').select('id').where('kind', '=', 'nbrRelationsValidation').executeTakeFirstOrThrow();
    const wrongKind = await get(`/api/Optimization/GetNbrRelationsOptimizationScripts?nbrRelationsOptimizationId=${nbr.id}`);
    expect({ status: wrongKind.statusCode, body: wrongKind.json() }).toEqual({ status: 404, body: { message: 'Run not found.' } });
  });

  test('a parameter planning run: the planned NR cells created on the new gNB', async () => {
    const nrSites = new Set((await database.db.selectFrom('network_cells').select('site_id').where('tech', '=', '5G').execute()).map((c) => c.site_id));
    const site = Array.from({ length: 8 }, (_, i) => `LX000${i + 1}`).find((s) => !nrSites.has(s))!;
    const run = await get(`/api/Parameters/RunParameterPlanning?siteId=${site}&antenna=AIR3227%2F78&lteBands=L800,L1800&userId=${userId}`);
    expect(run.statusCode).toBe(200);
    const { runId } = run.json<RunResponse>();
    const res = await get(`/api/Parameters/GetPlanningScripts?parameterPlanningId=${runId}`);
    expect(res.statusCode).toBe(200);
    const zip = await zipFiles((await findExport(database.db, config.dataDir, res.json<{ file: string }>().file, userId)).file);
    expect([...zip.keys()]).toEqual(['README.txt', 'sites.txt', `NR_${site}.mos`, `NR_${site}_undo.mos`]);
    const script = zip.get(`NR_${site}.mos`)!;
    expect(script).toMatch(new RegExp(`^# PLANNED ${site}_N78_1 \\(${site} sector \\d\\): cell ${site}_N78_1: PCI \\d+, TAC \\d+, SSB \\d+`, 'm'));
    expect(script).toContain(`crn GNBDUFunction=1,NRCellDU=${site}_N78_1`);
    expect(zip.get(`NR_${site}_undo.mos`)).toContain(`del GNBDUFunction=1,NRCellDU=${site}_N78_1$`);
    for (const name of [`NR_${site}.mos`, `NR_${site}_undo.mos`]) expect({ name, errors: checkMosScript(zip.get(name)!) }).toEqual({ name, errors: [] });
  });

  test('a CPICH run with findings has its RNC script', async () => {
    // The demo network leaves some sites' CPICH out of range (its generator's cpichOutOfRange).
    const sites = Array.from({ length: 8 }, (_, i) => `LX000${i + 1}`).join(',');
    const run = await get(`/api/Validation/RunCpichValidation?sites=${sites}&userId=${userId}`);
    expect(run.statusCode).toBe(200);
    const answer = run.json<RunResponse>();
    expect(answer.summary.filter((s) => s.label !== 'OK').reduce((n, s) => n + s.count, 0)).toBeGreaterThan(0);
    const res = await get(`/api/Validation/GetCpichValidationScripts?cpichValidationId=${answer.runId}`);
    expect(res.statusCode).toBe(200);
    const zip = await zipFiles((await findExport(database.db, config.dataDir, res.json<{ file: string }>().file, userId)).file);
    const scripts = [...zip.keys()].filter((n) => n.endsWith('.mos'));
    expect(scripts.length).toBeGreaterThan(0);
    for (const name of scripts) expect({ name, errors: checkMosScript(zip.get(name)!) }).toEqual({ name, errors: [] });
    expect([...zip.values()].join('\n')).toMatch(/^set RncFunction=1,UtranCell=LX000\d_U2100F\d_\d\$ primaryCpichPower \d+$/m);
  });
});
