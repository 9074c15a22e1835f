import ExcelJS from 'exceljs';
import type { RunResponse, RunSummaryItem } from 'contracts';
import type { Cell } from '../domain/network/model';
import { NetworkIndex, validateNeighbourRelations, type NbrValidationRow, type NbrVerdict } from '../domain/planning';
import { resolveUpload } from '../files';
import { cellInteger, cellText, HeaderedWorkbookError, readHeaderedSheet, type HeaderColumn } from '../files/header-workbook';
import { JobRefusal, type TaskContext } from '../jobs/model';
import type { RunCell, RunSheet } from '../runs';
import { loadRelationScope, loadSiteCells, unknownSites } from '../network/scope';
import { countsInWords, recordRunWithWorkbook, runFileName } from './run-files';
import { neighbourScripts } from '../domain/scripts';
import { prepareRunScripts } from '../runs/scripts';

/**
 * Neighbour relations validation (specification §7 Validation/RunNbrRelationsValidation; docs/engines/planning.md#neighbour-relations-validation):
 * planned relations read from uploaded workbooks, against the dump around one site, by (source cell,
 * target cell) → OK, MISSING, EXTRA, WRONG.
 */

export const NBR_JOB_KIND = 'validation.neighbours';
export const RELATIONS_SHEET = 'Relations';
export const SKIPPED_SHEET = 'Skipped Rows';

export const NBR_MESSAGES = {
  unknownSite: (site: string) => `Site ${site} not found.`,
  noCells: (site: string) => `Site ${site} has no cells in the network dump.`,
  nothingPlanned: (site: string, files: readonly string[]) => `No planned relations of site ${site} in ${files.join(', ')}.`,
} as const;

/** The planned-relations workbook's columns: what the template writes, and the other names real files use. */
export const PLANNED_COLUMNS: readonly HeaderColumn[] = [
  {
    field: 'source',
    label: 'Source Cell',
    required: true,
    aliases: [
      'Source',
      'Source Cell Name',
      'Cell',
      'Cell Name',
      'EUtranCellFDD',
      'EUtranCellTDD',
      'UtranCell',
      'GeranCell',
      'NRCellCU',
      'NRCellDU',
      'From Cell',
    ],
  },
  {
    field: 'target',
    label: 'Target Cell',
    required: true,
    aliases: [
      'Target',
      'Target Cell Name',
      'Neighbour',
      'Neighbor',
      'Neighbour Cell',
      'Neighbor Cell',
      'Neighbour Cell Name',
      'Neighbor Cell Name',
      'Nbr Cell',
      'Adjacent Cell',
      'To Cell',
    ],
  },
  { field: 'pci', label: 'Target PCI', aliases: ['Target PSC', 'Target BSIC', 'PCI', 'PSC', 'Neighbour PCI', 'Neighbor PCI', 'physicalCellId'] },
  {
    field: 'channel',
    label: 'Target Channel',
    aliases: ['Target EARFCN', 'Target UARFCN', 'Target ARFCN', 'Target NR-ARFCN', 'EARFCN', 'earfcnDl', 'UARFCN', 'uarfcnDl', 'ARFCN', 'NR-ARFCN', 'Channel'],
  },
  { field: 'tac', label: 'Target TAC', aliases: ['Target LAC', 'TAC', 'LAC', 'nRTAC'] },
];

export interface PlannedRow {
  source: string;
  target: string;
  pci: number | null;
  channel: number | null;
  tac: number | null;
  file: string;
  row: number;
}

export interface SkippedRow {
  file: string;
  row: number;
  source: string | null;
  target: string | null;
  reason: string;
}

export interface PlannedRead {
  planned: PlannedRow[];
  skipped: SkippedRow[];
}

/** The planned rows of one workbook; rows with a blank source or target are reported, not read. */
export async function readPlannedWorkbook(file: string, name: string): Promise<PlannedRead> {
  const sheet = await readHeaderedSheet(file, name, PLANNED_COLUMNS);
  const planned: PlannedRow[] = [];
  const skipped: SkippedRow[] = [];
  for (const { number, values } of sheet.rows) {
    const source = cellText(values.source);
    const target = cellText(values.target);
    if (source === null || target === null) {
      const blank = [source === null ? 'Source Cell' : null, target === null ? 'Target Cell' : null].filter(Boolean).join(' and ');
      skipped.push({ file: name, row: number, source, target, reason: `${blank} blank` });
      continue;
    }
    planned.push({ source, target, pci: cellInteger(values.pci), channel: cellInteger(values.channel), tac: cellInteger(values.tac), file: name, row: number });
  }
  return { planned, skipped };
}

/** Planned values the real target cell does not have (PCI/PSC/BSIC by technology, channel, TAC/LAC). */
export function plannedMismatches(p: PlannedRow, cell: Cell): string[] {
  const out: string[] = [];
  const code =
    cell.tech === '3G' ? { what: 'PSC', value: cell.psc } : cell.tech === '2G' ? { what: 'BSIC', value: cell.bsic } : { what: 'PCI', value: cell.pci };
  const area =
    cell.tech === '3G' || cell.tech === '2G'
      ? { what: 'LAC', value: cell.lac }
      : { what: 'TAC', value: cell.tech === '5G' ? (cell.nrTac ?? cell.tac) : cell.tac };
  const check = (what: string, planned: number | null, real: number | null) => {
    if (planned !== null && real !== null && planned !== real) out.push(`planned ${what} ${planned}, ${cell.name} has ${real}`);
  };
  check(code.what, p.pci, code.value);
  check('channel', p.channel, cell.channel);
  check(area.what, p.tac, area.value);
  return out;
}

const COLUMNS = [
  { key: 'source', label: 'Source Cell' },
  { key: 'target', label: 'Target Cell' },
  { key: 'verdict', label: 'Verdict' },
  { key: 'reason', label: 'Reason' },
  { key: 'resolvedTarget', label: 'Resolved Target' },
  { key: 'kind', label: 'Kind' },
  { key: 'createdBy', label: 'createdBy' },
  { key: 'isRemoveAllowed', label: 'isRemoveAllowed' },
  { key: 'isHoAllowed', label: 'isHoAllowed' },
  { key: 'relationDn', label: 'Relation DN' },
  { key: 'file', label: 'File' },
  { key: 'row', label: 'Row' },
] as const;

const VERDICTS: ReadonlyArray<{ verdict: NbrVerdict; sheet: string; tone: RunSummaryItem['tone'] }> = [
  { verdict: 'OK', sheet: 'OK', tone: 'ok' },
  { verdict: 'MISSING', sheet: 'Missing', tone: 'error' },
  { verdict: 'WRONG', sheet: 'Wrong', tone: 'error' },
  { verdict: 'EXTRA', sheet: 'Extra', tone: 'warning' },
];

const flag = (value: boolean | null): RunCell => (value === null ? null : value ? 'TRUE' : 'FALSE');

export interface NbrResult {
  rows: NbrValidationRow[];
  /** Where each planned (source, target) was first read. */
  origin: Map<string, PlannedRow>;
}

const pairKey = (source: string, target: string) => `${source}\u0000${target}`;

/** Runs the engine, then holds OK rows against the planned target values (a planned PCI the real cell does not have is WRONG). */
export function validatePlanned(planned: readonly PlannedRow[], index: NetworkIndex): NbrResult {
  const origin = new Map<string, PlannedRow>();
  for (const p of planned) if (!origin.has(pairKey(p.source, p.target))) origin.set(pairKey(p.source, p.target), p);
  const rows = validateNeighbourRelations(planned, index).map((row) => {
    if (row.verdict !== 'OK') return row;
    const p = origin.get(pairKey(row.source, row.target));
    const cell = row.resolvedTarget === null ? null : index.cellByName(row.resolvedTarget);
    const diffs = p && cell ? plannedMismatches(p, cell) : [];
    return diffs.length > 0 ? { ...row, verdict: 'WRONG' as const, reason: diffs.join('; ') } : row;
  });
  return { rows, origin };
}

export function nbrSheets(result: NbrResult, skipped: readonly SkippedRow[]): RunSheet[] {
  const tableRows = result.rows.map((r) => {
    const p = r.verdict === 'EXTRA' ? undefined : result.origin.get(pairKey(r.source, r.target));
    return {
      source: r.source,
      target: r.target,
      verdict: r.verdict,
      reason: r.reason,
      resolvedTarget: r.resolvedTarget,
      kind: r.kind,
      createdBy: r.createdBy,
      isRemoveAllowed: flag(r.isRemoveAllowed),
      isHoAllowed: flag(r.isHoAllowed),
      relationDn: r.relationDn,
      file: p?.file ?? null,
      row: p?.row ?? null,
    };
  });
  const sheets: RunSheet[] = [{ name: RELATIONS_SHEET, columns: COLUMNS, rows: tableRows }];
  for (const v of VERDICTS) {
    if (v.verdict === 'OK') continue;
    const rows = tableRows.filter((r) => r.verdict === v.verdict);
    if (rows.length > 0) sheets.push({ name: v.sheet, columns: COLUMNS, rows });
  }
  if (skipped.length > 0) {
    sheets.push({
      name: SKIPPED_SHEET,
      columns: [
        { key: 'file', label: 'File' },
        { key: 'row', label: 'Row' },
        { key: 'source', label: 'Source Cell' },
        { key: 'target', label: 'Target Cell' },
        { key: 'reason', label: 'Reason' },
      ],
      rows: skipped.map((s) => ({ file: s.file, row: s.row, source: s.source, target: s.target, reason: s.reason })),
    });
  }
  return sheets;
}

export function nbrSummary(rows: readonly NbrValidationRow[], skipped: number): RunSummaryItem[] {
  const summary: RunSummaryItem[] = VERDICTS.map((v) => ({ label: v.verdict, count: rows.filter((r) => r.verdict === v.verdict).length, tone: v.tone }));
  if (skipped > 0) summary.push({ label: 'Skipped rows', count: skipped, tone: 'info' });
  return summary;
}

/** "Neighbour relations of LX0001: 10 OK, 2 missing, 1 wrong, 1 extra; 3 rows skipped." */
export function nbrNotice(site: string, summary: readonly RunSummaryItem[]): string {
  const verdicts = summary.filter((s) => s.label !== 'Skipped rows');
  const words = countsInWords(verdicts, { OK: ['OK', 'OK'], MISSING: ['missing', 'missing'], WRONG: ['wrong', 'wrong'], EXTRA: ['extra', 'extra'] });
  const skipped = summary.find((s) => s.label === 'Skipped rows')?.count ?? 0;
  return `Neighbour relations of ${site}: ${words}${skipped > 0 ? `; ${skipped} ${skipped === 1 ? 'row' : 'rows'} with blanks skipped` : ''}.`;
}

export interface NbrParams {
  site: string;
  uploads: Array<{ id: string; name: string }>;
  ownerId: number;
  jobId?: string;
}

export interface NbrAnswer extends RunResponse {
  notice: string;
}

/**
 * Which planned rows belong to the site: those whose source cell is on it, and those whose source the
 * dump does not know at all (reported MISSING, so a mistyped cell is seen). Rows of other sites' cells
 * are set aside as skipped.
 */
export function plannedForSite(planned: readonly PlannedRow[], siteCells: ReadonlySet<string>, siteOf: ReadonlyMap<string, string>): PlannedRead {
  const mine: PlannedRow[] = [];
  const skipped: SkippedRow[] = [];
  for (const p of planned) {
    const other = siteOf.get(p.source);
    if (siteCells.has(p.source) || other === undefined) mine.push(p);
    else skipped.push({ file: p.file, row: p.row, source: p.source, target: p.target, reason: `source cell on site ${other}` });
  }
  return { planned: mine, skipped };
}

/** Thread task of `validation.neighbours`. */
export async function neighboursTask(params: NbrParams, context: TaskContext): Promise<NbrAnswer> {
  const { db, dataDir } = context;
  if ((await unknownSites(db, [params.site])).length > 0) throw new JobRefusal(404, { message: NBR_MESSAGES.unknownSite(params.site) });
  const planned: PlannedRow[] = [];
  const skipped: SkippedRow[] = [];
  for (const [i, upload] of params.uploads.entries()) {
    context.progress((i / params.uploads.length) * 30, `Reading ${upload.name}`);
    const { file } = await resolveUpload(db, dataDir, upload.id, params.ownerId, 'xlsx');
    try {
      const read = await readPlannedWorkbook(file, upload.name);
      planned.push(...read.planned);
      skipped.push(...read.skipped);
    } catch (error) {
      if (error instanceof HeaderedWorkbookError) throw new JobRefusal(400, { message: error.message });
      throw error;
    }
  }
  context.progress(35, 'Reading the dump around the site');
  const siteCells = await loadSiteCells(db, [params.site]);
  if (siteCells.length === 0) throw new JobRefusal(599, { message: NBR_MESSAGES.noCells(params.site) });
  const names = new Set(siteCells.map((c) => c.name));
  const others = await cellSites(
    db,
    [...new Set(planned.map((p) => p.source))].filter((s) => !names.has(s)),
  );
  const scoped = plannedForSite(planned, names, others);
  const files = params.uploads.map((u) => u.name);
  if (scoped.planned.length === 0) throw new JobRefusal(599, { message: NBR_MESSAGES.nothingPlanned(params.site, files) });
  skipped.push(...scoped.skipped);

  const scopeSources = siteCells.filter((c) => scoped.planned.some((p) => p.source === c.name));
  const dump = await loadRelationScope(db, scopeSources, [...new Set(scoped.planned.map((p) => p.target))]);
  context.progress(
    60,
    `Validating ${scoped.planned.length.toLocaleString('en-US')} planned relations against ${dump.relations.length.toLocaleString('en-US')} in the dump`,
  );
  const index = new NetworkIndex(dump);
  const result = validatePlanned(scoped.planned, index);
  const scripts = prepareRunScripts(dataDir, neighbourScripts(result.rows, index), {
    title: `Neighbour relations validation of ${params.site}`,
    tag: 'NBR',
    date: new Date(),
  });
  const sheets = nbrSheets(result, skipped);
  const summary = nbrSummary(result.rows, skipped.length);
  const notice = nbrNotice(params.site, summary);
  context.progress(80, 'Writing the workbook');
  const answer = await recordRunWithWorkbook(db, dataDir, sheets, runFileName('NbrRelationsValidation', [params.site], new Date()), {
    kind: 'nbrRelationsValidation',
    userId: params.ownerId,
    sites: [params.site],
    files,
    parameters: { site: params.site, uploads: params.uploads.map((u) => u.name) },
    jobId: params.jobId ?? null,
    message: notice,
    summary,
    // The relations sheet holds every verdict (the Missing/Wrong/Extra sheets are its copies); then the skipped rows.
    findings: sheets.filter((s) => s.name === RELATIONS_SHEET || s.name === SKIPPED_SHEET),
  });
  await scripts?.keep(answer.runId);
  return { ...answer, notice };
}

/** Site of each named cell the dump knows (cells of other sites in a cluster workbook). */
async function cellSites(db: TaskContext['db'], names: readonly string[]): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (let i = 0; i < names.length; i += 500) {
    const part = names.slice(i, i + 500);
    for (const row of await db.selectFrom('network_cells').select(['name', 'site_id']).where('name', 'in', part).execute()) {
      if (!out.has(row.name)) out.set(row.name, row.site_id);
    }
  }
  return out;
}

/** The planned-relations template: the headers the reader needs, an example row, and a short 'Read me'. */
export async function writeNbrTemplate(file: string): Promise<void> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('Planned Relations');
  sheet.columns = PLANNED_COLUMNS.map((c) => ({ header: c.label, key: c.field, width: 20 }));
  sheet.getRow(1).font = { bold: true };
  sheet.addRow({ source: 'LX0001_L800_1', target: 'LX0002_L800_2', pci: 101, channel: 6300, tac: 1201 });
  const readMe = workbook.addWorksheet('Read me');
  readMe.getColumn(1).width = 110;
  const lines = [
    'Planned neighbour relations for Validation → Nbr Relations Validation.',
    'One row per planned relation on the first sheet: Source Cell and Target Cell (cell names as in the network dump) are required.',
    'Target PCI (PSC for UTRAN, BSIC for GERAN), Target Channel (EARFCN/UARFCN/ARFCN/NR-ARFCN) and Target TAC (LAC) are optional; when given they are checked against the real target cell.',
    'Headers are matched without case or spaces; Ericsson-style names are read too (EUtranCellFDD, UtranCell, NRCellCU for the source; neighbor cell for the target).',
    'Several workbooks may be uploaded at once; rows whose source cell is on another site are set aside, rows with a blank source or target are reported.',
    'Verdicts: OK, MISSING (planned, not in the dump), EXTRA (in the dump, not planned; with createdBy and isRemoveAllowed), WRONG (resolves elsewhere or stale values).',
  ];
  for (const line of lines) readMe.addRow([line]);
  await workbook.xlsx.writeFile(file);
}
