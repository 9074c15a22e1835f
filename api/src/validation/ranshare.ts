import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { RunResponse, RunSummaryItem } from '../contracts/runs';
import type { Cell } from '../domain/network/model';
import { validateMocn, validateMoran, type MocnRow, type MoranRow } from '../domain/planning';
import { JobRefusal, type TaskContext } from '../jobs/model';
import { siteNotFound } from '../monitoring/report';
import { previewOf, recordRun, runsDir, writeRunWorkbook, type RunSheet } from '../runs';
import { fileStamp } from '../tracking/exporter';
import { loadSiteNetwork, type SiteNetwork } from '../network/scope';
import { operatorOfPlmn } from './ranshare-operators';

/**
 * RAN-share neighbour relations validation of one site (DESIGN §7.4), as a run: whether the site is
 * shared and with whom comes from the dump's PLMN data (cells' served PLMNs, the PLMN of the external
 * cells its relations point at) and the PLMN → operator map; MOCN (one layer, several PLMNs: every
 * target must broadcast each PLMN its source serves) and MORAN (one layer per operator: each sharing
 * operator's layer must mirror the host layer's relations) are judged by the pure engines.
 */

export const RANSHARE_KIND = 'validation.ranShare';

export const RANSHARE_MESSAGES = {
  notShared: (siteId: string) => `Site ${siteId} is not shared: no RAN-share relations to validate.`,
} as const;

export type SharingMode = 'MOCN' | 'MORAN';

export interface PlmnShare {
  plmn: string;
  operator: string;
  role: 'Host' | 'Sharing';
  /** Cells whose primary (first) PLMN this is: the operator's own layer. */
  layerCells: number;
  /** Cells that broadcast it besides their primary PLMN (MOCN). */
  mocnCells: number;
  /** External cells the site's relations reach that carry it. */
  neighbourExternals: number;
}

export interface SiteSharing {
  modes: SharingMode[];
  host: string | null;
  plmns: PlmnShare[];
}

const cmp = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** Shared when a cell serves several PLMNs (MOCN) or the site's cells have different primary PLMNs (MORAN). */
export function sharingOf(network: Pick<SiteNetwork, 'cells' | 'relations' | 'index'>): SiteSharing {
  const cells: readonly Cell[] = network.cells;
  const primaryCounts = new Map<string, number>();
  const mocnCounts = new Map<string, number>();
  for (const c of cells) {
    const [first, ...rest] = c.plmns;
    if (first) primaryCounts.set(first, (primaryCounts.get(first) ?? 0) + 1);
    for (const p of rest) mocnCounts.set(p, (mocnCounts.get(p) ?? 0) + 1);
  }
  const modes: SharingMode[] = [];
  if (cells.some((c) => new Set(c.plmns).size > 1)) modes.push('MOCN');
  if (primaryCounts.size > 1) modes.push('MORAN');
  // The host: the most common primary PLMN (ties: the lowest code), as validateMoran picks it.
  const host = [...primaryCounts].sort((a, b) => b[1] - a[1] || cmp(a[0], b[0]))[0]?.[0] ?? null;
  const externalCounts = new Map<string, number>();
  const seen = new Set<string>();
  for (const r of network.relations) {
    const ext = network.index.resolve(r).external;
    if (!ext?.plmn || seen.has(ext.dn)) continue;
    seen.add(ext.dn);
    externalCounts.set(ext.plmn, (externalCounts.get(ext.plmn) ?? 0) + 1);
  }
  const codes = [...new Set([...primaryCounts.keys(), ...mocnCounts.keys()])].sort((a, b) => Number(b === host) - Number(a === host) || cmp(a, b));
  return {
    modes,
    host,
    plmns: codes.map((plmn) => ({
      plmn,
      operator: operatorOfPlmn(plmn),
      role: plmn === host ? 'Host' : 'Sharing',
      layerCells: primaryCounts.get(plmn) ?? 0,
      mocnCells: mocnCounts.get(plmn) ?? 0,
      neighbourExternals: externalCounts.get(plmn) ?? 0,
    })),
  };
}

const SEVERITY: Record<string, number> = { MISSING: 0, MISSING_PLMN: 0, NO_LAYER: 1, UNRESOLVED: 1, OK: 2 };
const TONES: Record<string, RunSummaryItem['tone']> = { OK: 'ok', MISSING: 'error', MISSING_PLMN: 'error', NO_LAYER: 'warning', UNRESOLVED: 'warning' };
/** Problems first (engine order kept within a verdict), so the page's first rows are what needs doing. */
const problemsFirst = <T extends { verdict: string }>(rows: readonly T[]): T[] =>
  rows
    .map((row, i) => ({ row, i }))
    .sort((a, b) => (SEVERITY[a.row.verdict] ?? 1) - (SEVERITY[b.row.verdict] ?? 1) || a.i - b.i)
    .map(({ row }) => row);

function counts(rows: ReadonlyArray<{ verdict: string }>, verdicts: readonly string[]): Array<[string, number]> {
  return verdicts.map((v) => [v, rows.filter((r) => r.verdict === v).length]);
}

export interface RanShareResult {
  sharing: SiteSharing;
  sheets: RunSheet[];
  /** The sheet the page previews. */
  main: RunSheet;
  summary: RunSummaryItem[];
  message: string;
}

/** The run's sheets, summary and message for a shared site; null when the site is not shared. */
export function ranShareResult(network: SiteNetwork, siteId: string): RanShareResult | null {
  const sharing = sharingOf(network);
  if (sharing.modes.length === 0) return null;
  const sheets: RunSheet[] = [
    {
      name: 'Sharing',
      columns: [
        { key: 'plmn', label: 'PLMN' },
        { key: 'operator', label: 'Operator' },
        { key: 'role', label: 'Role' },
        { key: 'layerCells', label: 'Own Layer Cells' },
        { key: 'mocnCells', label: 'MOCN Cells' },
        { key: 'neighbourExternals', label: 'Neighbour External Cells' },
      ],
      rows: sharing.plmns.map((p) => ({ ...p })),
    },
  ];
  const summary: RunSummaryItem[] = [];
  const parts: string[] = [];
  const add = (check: SharingMode, rows: ReadonlyArray<{ verdict: string }>, verdicts: readonly string[]) => {
    const found = counts(rows, verdicts);
    for (const [verdict, n] of found) if (verdict === 'OK' || n > 0) summary.push({ label: `${check} ${verdict}`, count: n, tone: TONES[verdict] ?? 'info' });
    const said = found.filter(([v, n]) => v === 'OK' || n > 0).map(([v, n]) => `${n} ${v}`);
    parts.push(`${check} ${said.join(', ')}`);
  };
  if (sharing.modes.includes('MOCN')) {
    const rows: MocnRow[] = problemsFirst(validateMocn(network.index, siteId));
    sheets.push({
      name: 'MOCN',
      columns: [
        { key: 'source', label: 'Source Cell' },
        { key: 'sourcePlmns', label: 'Source PLMNs' },
        { key: 'target', label: 'Target Cell' },
        { key: 'targetPlmns', label: 'Target PLMNs' },
        { key: 'missingPlmns', label: 'Missing PLMNs' },
        { key: 'missingOperators', label: 'Missing Operators' },
        { key: 'verdict', label: 'Verdict' },
        { key: 'reason', label: 'Reason' },
        { key: 'relationDn', label: 'Relation DN' },
      ],
      rows: rows.map((r) => ({
        source: r.source,
        sourcePlmns: r.sourcePlmns.join(', '),
        target: r.target,
        targetPlmns: r.targetPlmns.join(', '),
        missingPlmns: r.missingPlmns.join(', '),
        missingOperators: r.missingPlmns.map(operatorOfPlmn).join(', '),
        verdict: r.verdict,
        reason: r.reason,
        relationDn: r.relationDn,
      })),
    });
    add('MOCN', rows, ['OK', 'MISSING_PLMN', 'UNRESOLVED']);
  }
  if (sharing.modes.includes('MORAN')) {
    const rows: MoranRow[] = problemsFirst(validateMoran(network.index, siteId, sharing.host ? { hostPlmn: sharing.host } : {}));
    sheets.push({
      name: 'MORAN',
      columns: [
        { key: 'plmn', label: 'PLMN' },
        { key: 'operator', label: 'Operator' },
        { key: 'hostSource', label: 'Host Source Cell' },
        { key: 'hostTarget', label: 'Host Target Cell' },
        { key: 'source', label: 'Operator Source Cell' },
        { key: 'expectedTarget', label: 'Expected Target Cell' },
        { key: 'verdict', label: 'Verdict' },
        { key: 'reason', label: 'Reason' },
      ],
      rows: rows.map((r) => ({
        plmn: r.plmn,
        operator: operatorOfPlmn(r.plmn),
        hostSource: r.hostSource,
        hostTarget: r.hostTarget,
        source: r.source,
        expectedTarget: r.expectedTarget,
        verdict: r.verdict,
        reason: r.reason,
      })),
    });
    add('MORAN', rows, ['OK', 'MISSING', 'NO_LAYER']);
  }
  const hostOperator = sharing.host ? operatorOfPlmn(sharing.host) : 'unknown';
  const partners = sharing.plmns.filter((p) => p.role === 'Sharing').map((p) => p.operator);
  const message = `RAN-share validation of ${siteId} (${sharing.modes.join(' + ')}, ${hostOperator} shared with ${partners.join(', ') || 'nobody'}): ${parts.join('; ')}.`;
  return { sharing, sheets, main: sheets[1] ?? sheets[0]!, summary, message };
}

export interface RanShareParams {
  site: string;
  ownerId: number;
  /** The job running it (added by the job kind), kept with the history row. */
  jobId?: string | null;
}

/** `RanShareValidation_LX0001_20240305-143000.xlsx`, the site id kept to safe characters. */
export function runFileName(prefix: string, siteId: string, now = new Date()): string {
  return `${prefix}_${siteId.replace(/[^A-Za-z0-9_.-]+/g, '_').slice(0, 60)}_${fileStamp(now)}.xlsx`;
}

/** Writes the sheets to a temporary file next to the kept workbooks (recordRun moves it there). */
export async function writeTempWorkbook(dataDir: string, sheets: readonly RunSheet[]): Promise<string> {
  const dir = runsDir(dataDir);
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `pending-${randomUUID()}.xlsx`);
  try {
    await writeRunWorkbook(file, sheets);
  } catch (error) {
    fs.rmSync(file, { force: true });
    throw error;
  }
  return file;
}

/** Thread task of `Validation/RunRanShareNbrRelationsValidation`. */
export async function ranShareTask(params: RanShareParams, context: TaskContext): Promise<RunResponse> {
  context.progress(5, `Reading ${params.site} and its neighbours`);
  const network = await loadSiteNetwork(context.db, params.site);
  if (!network.site && network.cells.length === 0) throw new JobRefusal(404, { message: siteNotFound(params.site) });
  context.progress(40, 'Validating the shared relations');
  const result = ranShareResult(network, params.site);
  if (!result) throw new JobRefusal(599, { message: RANSHARE_MESSAGES.notShared(params.site) });
  context.progress(70, 'Writing the workbook');
  const file = await writeTempWorkbook(context.dataDir, result.sheets);
  try {
    return await recordRun(context.db, context.dataDir, {
      kind: 'ranShareValidation',
      userId: params.ownerId,
      sites: [params.site],
      files: [],
      parameters: { modes: result.sharing.modes, host: result.sharing.host, plmns: result.sharing.plmns.map((p) => p.plmn) },
      jobId: params.jobId ?? null,
      message: result.message,
      summary: result.summary,
      preview: previewOf(result.main),
      workbook: { file, fileName: runFileName('RanShareValidation', params.site) },
    });
  } finally {
    fs.rmSync(file, { force: true });
  }
}
