import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { RunResponse, RunSummaryItem } from 'contracts';
import type { Cell } from '../domain/network/model';
import { validateMocn, validateMoran, type MocnRow, type MoranRow } from '../domain/planning';
import { JobRefusal, type TaskContext } from '../jobs/model';
import { siteNotFound } from '../monitoring/report';
import { previewOf, recordRun, runsDir, writeRunWorkbook, type RunSheet } from '../runs';
import { fileStamp } from '../tracking/exporter';
import type { SiteNetwork } from '../network/scope';
import { currentOperatorId } from '../db/operator-scope';
import type { SiteShare } from '../network/shares';
import { loadSharedSiteNetwork } from './ranshare-layers';
import { operatorOfPlmn, PLMN_OPERATORS } from './ranshare-operators';

/**
 * RAN-share neighbour relations validation of one site (docs/engines/planning.md#ran-share-validation), as a run. A site recorded as
 * shared (network_site_shares, docs/tenancy.md) is validated across both operators: the other party's
 * layer on it is read in that operator's scope (ranshare-layers.ts), the owner's layer is the host, and
 * the PLMNs and names are the two operators'. A site not recorded as shared is judged from the dump's
 * PLMN data alone (cells' served PLMNs, the PLMN of the external cells its relations point at, the
 * PLMN → operator map), as before operators were tenants, so an inventory that predates the share
 * table keeps its runs. MOCN (one layer, several PLMNs: every target must broadcast each PLMN its
 * source serves, and every cell of the layer each sharing operator's PLMN) and MORAN (one layer per
 * operator: each sharing operator's layer must mirror the host layer's relations) are judged by the
 * pure engines.
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

/** What the share table says of a site, beside what its cells show (see shareKnowledgeOf). */
export interface ShareKnowledge {
  modes: readonly SharingMode[];
  /** The owner's layer's PLMN. */
  host: string | null;
  /** The partners' PLMNs (MORAN: their layers' primary PLMN; MOCN: the PLMN their subscribers use). */
  partnerPlmns: readonly string[];
  /** PLMN → the operator's name, as the operators table names them. */
  names: ReadonlyMap<string, string>;
  owner: string;
  partners: readonly string[];
  /** The MOCN partners' PLMNs every cell of the owner's layer on the site must broadcast. */
  mocnPlmns: readonly string[];
  /** DNs of the owner's cells on the site. */
  ownerCells: ReadonlySet<string>;
  /** Relations of the other operator's layer left out: they lead to sites the two do not share. */
  leftOut: number;
}

const cmp = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** The most frequent key (ties: the lowest), or null. */
function mostCommon(counts: ReadonlyMap<string, number>): string | null {
  return [...counts].sort((a, b) => b[1] - a[1] || cmp(a[0], b[0]))[0]?.[0] ?? null;
}

const countPrimaries = (cells: readonly Cell[]): Map<string, number> => {
  const counts = new Map<string, number>();
  for (const c of cells) if (c.plmns[0]) counts.set(c.plmns[0], (counts.get(c.plmns[0]) ?? 0) + 1);
  return counts;
};

/** The PLMN of an operator named in the PLMN map, or null. */
function plmnOfOperator(name: string): string | null {
  return Object.entries(PLMN_OPERATORS).find(([, operator]) => operator === name)?.[0] ?? null;
}

/**
 * What the share rows of a site say, read against its cells: the owner's layer (the owner's cells on
 * the site) gives the host PLMN; a MORAN partner's layer its PLMN; a MOCN partner's PLMN is the one the
 * PLMN map gives its name, else the one the owner's cells broadcast besides their own. `otherCells`:
 * the cells read from the other operator (ranshare-layers.ts); `me`: the current operator.
 */
export function shareKnowledgeOf(
  network: Pick<SiteNetwork, 'cells'>,
  shares: readonly SiteShare[],
  otherCells: ReadonlySet<string>,
  me: number | null | undefined,
  leftOut = 0,
): ShareKnowledge | null {
  const first = shares[0];
  if (!first) return null;
  const ownerIsMe = first.ownerId === me;
  const ownerCells = network.cells.filter((c) => otherCells.has(c.dn) !== ownerIsMe);
  const host = mostCommon(countPrimaries(ownerCells)) ?? plmnOfOperator(first.ownerName);
  const names = new Map<string, string>();
  const partnerPlmns: string[] = [];
  const mocnPlmns: string[] = [];
  for (const share of shares) {
    let plmn: string | null;
    if (share.mode === 'MORAN') {
      const partnerIsMe = share.partnerId === me;
      const layer = network.cells.filter((c) => (partnerIsMe ? !otherCells.has(c.dn) : otherCells.has(c.dn)) && !ownerCells.includes(c));
      plmn = mostCommon(countPrimaries(layer)) ?? plmnOfOperator(share.partnerName);
    } else {
      const extra = new Map<string, number>();
      for (const c of ownerCells) for (const p of c.plmns.slice(1)) if (p !== host) extra.set(p, (extra.get(p) ?? 0) + 1);
      plmn = plmnOfOperator(share.partnerName) ?? mostCommon(extra);
      if (plmn) mocnPlmns.push(plmn);
    }
    if (plmn && plmn !== host) {
      partnerPlmns.push(plmn);
      names.set(plmn, share.partnerName);
    }
  }
  if (host) names.set(host, first.ownerName);
  return {
    modes: [...new Set(shares.map((s) => s.mode))],
    host,
    partnerPlmns: [...new Set(partnerPlmns)],
    names,
    owner: first.ownerName,
    partners: [...new Set(shares.map((s) => s.partnerName))],
    mocnPlmns: [...new Set(mocnPlmns)],
    ownerCells: new Set(ownerCells.map((c) => c.dn)),
    leftOut,
  };
}

/**
 * Shared when a cell serves several PLMNs (MOCN) or the site's cells have different primary PLMNs
 * (MORAN), or when the share table says so (`known`: its modes are added, its host and names win).
 */
export function sharingOf(network: Pick<SiteNetwork, 'cells' | 'relations' | 'index'>, known?: ShareKnowledge): SiteSharing {
  const cells: readonly Cell[] = network.cells;
  const primaryCounts = new Map<string, number>();
  const mocnCounts = new Map<string, number>();
  for (const c of cells) {
    const [first, ...rest] = c.plmns;
    if (first) primaryCounts.set(first, (primaryCounts.get(first) ?? 0) + 1);
    for (const p of rest) mocnCounts.set(p, (mocnCounts.get(p) ?? 0) + 1);
  }
  const modes: SharingMode[] = [];
  if (cells.some((c) => new Set(c.plmns).size > 1) || known?.modes.includes('MOCN')) modes.push('MOCN');
  if (primaryCounts.size > 1 || known?.modes.includes('MORAN')) modes.push('MORAN');
  // The host: the owner's layer, else the most common primary PLMN (ties: the lowest code), as validateMoran picks it.
  const host = known?.host ?? mostCommon(primaryCounts);
  for (const p of known?.partnerPlmns ?? []) if (!primaryCounts.has(p) && !mocnCounts.has(p)) mocnCounts.set(p, 0);
  const nameOf = (plmn: string) => known?.names.get(plmn) ?? operatorOfPlmn(plmn);
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
      operator: nameOf(plmn),
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

const techGroup = (tech: string): string => (tech === 'NB-IoT' ? '4G' : tech);

/**
 * MOCN: every cell of the owner's layer on the site must broadcast each MOCN partner's PLMN, or the
 * partner's subscribers are not served there at all (a row without a target: the source itself). Only
 * the technologies the sharing covers are checked: those of which some cell of the site broadcasts
 * that PLMN, else LTE and NR (a site shared over LTE and NR keeps single-PLMN GSM and UMTS layers).
 */
function unbroadcastRows(network: Pick<SiteNetwork, 'cells'>, known: ShareKnowledge): MocnRow[] {
  const rows: MocnRow[] = [];
  const layer = network.cells.filter((c) => known.ownerCells.has(c.dn));
  const covered = new Map<string, Set<string>>();
  for (const p of known.mocnPlmns) {
    const techs = new Set(layer.filter((c) => c.plmns.includes(p)).map((c) => techGroup(c.tech)));
    covered.set(p, techs.size > 0 ? techs : new Set(['4G', '5G']));
  }
  for (const c of layer) {
    const missing = known.mocnPlmns.filter((p) => covered.get(p)!.has(techGroup(c.tech)) && !c.plmns.includes(p));
    if (missing.length === 0) continue;
    const whom = missing.map((p) => `${p} (${known.names.get(p) ?? operatorOfPlmn(p)})`).join(', ');
    rows.push({
      source: c.name,
      target: null,
      relationDn: '',
      sourcePlmns: [...c.plmns].sort(cmp),
      targetPlmns: [],
      missingPlmns: missing,
      verdict: 'MISSING_PLMN',
      reason: `${c.name} does not broadcast ${whom}, with whom the site is shared (MOCN)`,
    });
  }
  return rows;
}

/**
 * The run's sheets, summary and message for a shared site; null when the site is not shared. `known`:
 * what the share table says of the site (shareKnowledgeOf), for a site recorded as shared.
 */
export function ranShareResult(network: SiteNetwork, siteId: string, known?: ShareKnowledge | null): RanShareResult | null {
  const sharing = sharingOf(network, known ?? undefined);
  const nameOf = (plmn: string) => known?.names.get(plmn) ?? operatorOfPlmn(plmn);
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
    const rows: MocnRow[] = problemsFirst([...(known ? unbroadcastRows(network, known) : []), ...validateMocn(network.index, siteId)]);
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
        missingOperators: r.missingPlmns.map(nameOf).join(', '),
        verdict: r.verdict,
        reason: r.reason,
        relationDn: r.relationDn,
      })),
    });
    add('MOCN', rows, ['OK', 'MISSING_PLMN', 'UNRESOLVED']);
  }
  if (sharing.modes.includes('MORAN')) {
    const options = { ...(sharing.host ? { hostPlmn: sharing.host } : {}), ...(known ? { sharingPlmns: known.partnerPlmns } : {}) };
    const rows: MoranRow[] = problemsFirst(validateMoran(network.index, siteId, options));
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
        operator: nameOf(r.plmn),
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
  const hostOperator = known?.owner ?? (sharing.host ? operatorOfPlmn(sharing.host) : 'unknown');
  const partners = known ? [...known.partners] : sharing.plmns.filter((p) => p.role === 'Sharing').map((p) => p.operator);
  if (known && known.leftOut > 0) {
    // Counted, never shown: they lead to sites the two operators do not share.
    summary.push({ label: 'Relations to sites not shared (left out)', count: known.leftOut, tone: 'info' });
    parts.push(`${known.leftOut} relation${known.leftOut === 1 ? '' : 's'} of the other operator to sites not shared left out`);
  }
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
  const { network, shares, otherCells, leftOut } = await loadSharedSiteNetwork(context.db, params.site);
  if (!network.site && network.cells.length === 0) throw new JobRefusal(404, { message: siteNotFound(params.site) });
  context.progress(40, 'Validating the shared relations');
  const result = ranShareResult(network, params.site, shareKnowledgeOf(network, shares, otherCells, currentOperatorId(), leftOut));
  if (!result) throw new JobRefusal(599, { message: RANSHARE_MESSAGES.notShared(params.site) });
  context.progress(70, 'Writing the workbook');
  const file = await writeTempWorkbook(context.dataDir, result.sheets);
  try {
    return await recordRun(context.db, context.dataDir, {
      kind: 'ranShareValidation',
      userId: params.ownerId,
      sites: [params.site],
      files: [],
      parameters: {
        modes: result.sharing.modes,
        host: result.sharing.host,
        plmns: result.sharing.plmns.map((p) => p.plmn),
        // Whom the share table says the site is shared with (empty: judged from the dump's PLMNs alone).
        sharedWith: shares.map((s) => ({ owner: s.ownerName, partner: s.partnerName, mode: s.mode })),
      },
      jobId: params.jobId ?? null,
      message: result.message,
      summary: result.summary,
      preview: previewOf(result.main),
      // The checks first (the main one leading), then the sharing table they were judged against.
      findings: [
        result.main,
        ...result.sheets.filter((s) => s !== result.main && s.name !== 'Sharing'),
        ...result.sheets.filter((s) => s !== result.main && s.name === 'Sharing'),
      ],
      workbook: { file, fileName: runFileName('RanShareValidation', params.site) },
    });
  } finally {
    fs.rmSync(file, { force: true });
  }
}
