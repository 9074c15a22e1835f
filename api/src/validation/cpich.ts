import type { RunResponse, RunSummaryItem } from 'contracts';
import { validateCpich, type CpichRow } from '../domain/planning';
import { JobRefusal, type TaskContext } from '../jobs/model';
import type { RunSheet } from '../runs';
import { countCells, loadSiteCells, unknownSites } from '../network/scope';
import { countsInWords, recordRunWithWorkbook, runFileName } from './run-files';
import { cpichScripts } from '../domain/scripts';
import { prepareRunScripts } from '../runs/scripts';

/**
 * CPICH validation (specification §7 Validation/RunCpichValidation; docs/engines/planning.md#cpich-validation): the chosen sites'
 * UTRAN cells through validateCpich, one row per cell in the workbook, the run in its history.
 */

export const CPICH_JOB_KIND = 'validation.cpich';
export const CPICH_SHEET = 'Cpich Validation';

export const CPICH_MESSAGES = {
  noSites: 'Choose at least one site.',
  unknownSites: (sites: readonly string[]) => (sites.length === 1 ? `Site ${sites[0]} not found.` : `Sites ${sites.join(', ')} not found.`),
  noUtranCells: (sites: readonly string[]) => `No UTRAN cells on ${sites.join(', ')}.`,
} as const;

export interface CpichParams {
  sites: string[];
  ownerId: number;
  jobId?: string;
}

export interface CpichAnswer extends RunResponse {
  /** The notification's words (the answer's message too). */
  notice: string;
}

/** The site ids of `sites=` (comma-joined), trimmed, without blanks or repeats, in the order given. */
export function siteListOf(text: string): string[] {
  return [...new Set(text.split(',').map((s) => s.trim()))].filter((s) => s !== '');
}

/** Why the sites cannot be validated (status and message), or null: checked before a job is made, and again by the job. */
export async function cpichRefusal(db: TaskContext['db'], sites: readonly string[]): Promise<JobRefusal | null> {
  if (sites.length === 0) return new JobRefusal(400, { message: CPICH_MESSAGES.noSites });
  const unknown = await unknownSites(db, sites);
  if (unknown.length > 0) return new JobRefusal(404, { message: CPICH_MESSAGES.unknownSites(unknown) });
  if ((await countCells(db, sites, '3G')) === 0) return new JobRefusal(599, { message: CPICH_MESSAGES.noUtranCells(sites) });
  return null;
}

const COLUMNS = [
  { key: 'site', label: 'Site' },
  { key: 'node', label: 'Node' },
  { key: 'cell', label: 'Cell' },
  { key: 'uarfcn', label: 'UARFCN' },
  { key: 'primaryCpichPower', label: 'primaryCpichPower (0.1 dBm)' },
  { key: 'maximumTransmissionPower', label: 'maximumTransmissionPower (0.1 dBm)' },
  { key: 'offsetDb', label: 'Max − CPICH (dB)' },
  { key: 'verdict', label: 'Verdict' },
  { key: 'reason', label: 'Reason' },
] as const;

export function cpichSheet(rows: readonly CpichRow[], nodeOf: (cell: string) => string | null): RunSheet {
  return {
    name: CPICH_SHEET,
    columns: COLUMNS,
    rows: rows.map((r) => ({
      site: r.siteId,
      node: nodeOf(r.cell),
      cell: r.cell,
      uarfcn: r.uarfcn,
      primaryCpichPower: r.primaryCpichPower,
      maximumTransmissionPower: r.maximumTransmissionPower,
      offsetDb: r.offsetDb,
      verdict: r.verdict,
      reason: r.reason,
    })),
  };
}

export function cpichSummary(rows: readonly CpichRow[]): RunSummaryItem[] {
  const count = (verdict: CpichRow['verdict']) => rows.filter((r) => r.verdict === verdict).length;
  return [
    { label: 'OK', count: count('OK'), tone: 'ok' },
    { label: 'WARNING', count: count('WARNING'), tone: 'warning' },
    { label: 'ERROR', count: count('ERROR'), tone: 'error' },
  ];
}

/** "Cpich validation of LX0001, LX0002: 12 OK, 2 warnings, 1 error." */
export function cpichNotice(sites: readonly string[], summary: readonly RunSummaryItem[]): string {
  const words = countsInWords(summary, { OK: ['OK', 'OK'], WARNING: ['warning', 'warnings'], ERROR: ['error', 'errors'] });
  return `Cpich validation of ${sites.join(', ')}: ${words}.`;
}

/** Thread task of `validation.cpich`. */
export async function cpichTask(params: CpichParams, context: TaskContext): Promise<CpichAnswer> {
  const { db, dataDir } = context;
  const refusal = await cpichRefusal(db, params.sites);
  if (refusal) throw refusal;
  context.progress(10, 'Reading the UTRAN cells');
  const cells = await loadSiteCells(db, params.sites, '3G');
  context.progress(40, `Validating ${cells.length.toLocaleString('en-US')} UTRAN cells`);
  const rows = validateCpich(cells);
  const scripts = prepareRunScripts(dataDir, cpichScripts(rows, cells), {
    title: `CPICH validation of ${params.sites.join(', ')}`,
    tag: 'CPICH',
    date: new Date(),
  });
  const nodes = new Map(cells.map((c) => [c.name, c.nodeName]));
  const sheet = cpichSheet(rows, (cell) => nodes.get(cell) ?? null);
  const summary = cpichSummary(rows);
  const notice = cpichNotice(params.sites, summary);
  context.progress(70, 'Writing the workbook');
  const answer = await recordRunWithWorkbook(db, dataDir, [sheet], runFileName('CpichValidation', params.sites, new Date()), {
    kind: 'cpichValidation',
    userId: params.ownerId,
    sites: params.sites,
    files: [],
    parameters: { sites: params.sites },
    jobId: params.jobId ?? null,
    message: notice,
    summary,
    findings: [sheet],
  });
  await scripts?.keep(answer.runId);
  return { ...answer, notice };
}
