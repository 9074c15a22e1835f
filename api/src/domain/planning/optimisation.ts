import { PlanningError } from './errors';
import type { NetworkIndex, ResolvedRelation } from './network-index';

/**
 * Neighbour optimisation from handover statistics (docs/engines/planning.md#neighbour-optimisation). Attempts and successes are the
 * per-relation handover execution counters (Ericsson pmHoExeAtt / pmHoExeSucc) per period.
 * - remove: a defined relation of a source present in the statistics with no attempt over the whole
 *   period, and isRemoveAllowed;
 * - block: a defined relation with at least `blockMinAttempts` attempts and a success rate below
 *   `blockSuccessRate` (relations already not allowed to hand over are left out);
 * - add: a pair with at least `addMinAttempts` attempts (and at least `addMinShare` of the source's
 *   attempts) whose target is not a defined neighbour of the source.
 */

export interface HoStat {
  source: string;
  target: string;
  period: string;
  attempts: number;
  successes: number;
}

export interface OptimisationOptions {
  blockSuccessRate?: number;
  blockMinAttempts?: number;
  addMinAttempts?: number;
  addMinShare?: number;
}

interface Evidence {
  attempts: number;
  successes: number;
  /** successes / attempts, null without attempts. */
  successRate: number | null;
  /** Periods present for the source. */
  periods: number;
  evidence: string;
}

export interface RemoveCandidate extends Evidence {
  source: string;
  target: string;
  relationDn: string;
  createdBy: string | null;
}

export interface BlockCandidate extends Evidence {
  source: string;
  target: string;
  relationDn: string;
  createdBy: string | null;
}

export interface AddCandidate extends Evidence {
  source: string;
  target: string;
  /** Share of the source's attempts. */
  share: number;
  targetInDump: boolean;
  sourceInDump: boolean;
}

export interface OptimisationResult {
  periods: string[];
  remove: RemoveCandidate[];
  block: BlockCandidate[];
  add: AddCandidate[];
}

/**
 * Accepted header names per field, in order of preference (compared without case, spaces, `_`, `-`, `.`):
 * plain names, Ericsson MO classes and references (EUtranCellFDD / EUtranCellRelation / neighborCellRef),
 * and the handover counters (execution first, preparation as a fallback).
 */
export const HO_HEADERS: Readonly<Record<keyof HoStat, readonly string[]>> = {
  source: ['source', 'sourcecell', 'source_cell', 'sourcecellname', 'cell', 'eutrancellfdd', 'eutrancelltdd', 'nrcellcu', 'utrancell'],
  target: [
    'target',
    'targetcell',
    'target_cell',
    'targetcellname',
    'neighbour',
    'neighbor',
    'neighbourcell',
    'neighborcell',
    'neighborcellref',
    'neighbourcellref',
    'relation',
    'eutrancellrelation',
    'nrcellrelation',
    'utranrelation',
  ],
  period: ['period', 'date', 'day', 'time', 'datetime', 'week'],
  attempts: ['attempts', 'hoattempts', 'pmhoexeatt', 'pmhoexeattlteintraf', 'pmhoexeattlteinterf', 'pmhoprepatt'],
  successes: ['successes', 'hosuccesses', 'pmhoexesucc', 'pmhoexesucclteintraf', 'pmhoexesucclteinterf', 'pmhoprepsucc'],
};
const HEADERS = HO_HEADERS;

/** A header as compared: lower case, without spaces, `_`, `-` or `.`. */
export const hoHeaderKey = (h: string): string => h.toLowerCase().replace(/[\s_\-.]/g, '');

/** One statistics row from a record with any of the accepted header names (case, spaces, `_`, `-` ignored). */
export function normaliseHoRecord(record: Readonly<Record<string, unknown>>): HoStat {
  const byKey = new Map<string, unknown>();
  for (const [k, v] of Object.entries(record)) byKey.set(hoHeaderKey(k), v);
  const pick = (field: keyof HoStat): unknown => {
    for (const h of HEADERS[field]) {
      const v = byKey.get(hoHeaderKey(h));
      if (v !== undefined && v !== null && v !== '') return v;
    }
    return undefined;
  };
  const text = (field: keyof HoStat, required: boolean): string => {
    const v = pick(field);
    if (v === undefined) {
      if (required) throw new PlanningError(`handover statistics row without ${field}: ${JSON.stringify(record)}`);
      return '';
    }
    return v instanceof Date ? v.toISOString().slice(0, 10) : String(v).trim();
  };
  const num = (field: 'attempts' | 'successes'): number => {
    const v = pick(field);
    const n = typeof v === 'number' ? v : Number(String(v ?? '').trim());
    if (v === undefined || !Number.isFinite(n) || n < 0)
      throw new PlanningError(`handover statistics row with a bad ${field} (${String(v)}): ${JSON.stringify(record)}`);
    return n;
  };
  const attempts = num('attempts');
  const successes = num('successes');
  if (successes > attempts)
    throw new PlanningError(`handover statistics row with more successes (${successes}) than attempts (${attempts}): ${JSON.stringify(record)}`);
  return { source: text('source', true), target: text('target', true), period: text('period', false), attempts, successes };
}

const cmp = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
const pct = (r: number | null): string => (r === null ? 'n/a' : `${(r * 100).toFixed(1)}%`);

export function optimiseNeighbours(stats: readonly HoStat[], index: NetworkIndex, options: OptimisationOptions = {}): OptimisationResult {
  const blockRate = options.blockSuccessRate ?? 0.9;
  const blockMin = options.blockMinAttempts ?? 50;
  const addMin = options.addMinAttempts ?? 100;
  const addShare = options.addMinShare ?? 0;

  const pairs = new Map<string, Map<string, { attempts: number; successes: number }>>();
  const sourcePeriods = new Map<string, Set<string>>();
  const sourceAttempts = new Map<string, number>();
  const allPeriods = new Set<string>();
  for (const s of stats) {
    let targets = pairs.get(s.source);
    if (!targets) pairs.set(s.source, (targets = new Map()));
    const agg = targets.get(s.target) ?? { attempts: 0, successes: 0 };
    agg.attempts += s.attempts;
    agg.successes += s.successes;
    targets.set(s.target, agg);
    sourcePeriods.set(s.source, (sourcePeriods.get(s.source) ?? new Set()).add(s.period));
    sourceAttempts.set(s.source, (sourceAttempts.get(s.source) ?? 0) + s.attempts);
    allPeriods.add(s.period);
  }
  const periods = [...allPeriods].sort(cmp);
  const span = (source: string): string => {
    const p = [...(sourcePeriods.get(source) ?? [])].filter((x) => x !== '').sort(cmp);
    return p.length === 0 ? '' : p.length === 1 ? ` (${p[0]})` : ` (${p[0]} … ${p[p.length - 1]})`;
  };
  const evidenceOf = (source: string, attempts: number, successes: number): Omit<Evidence, 'evidence'> => ({
    attempts,
    successes,
    successRate: attempts > 0 ? successes / attempts : null,
    periods: sourcePeriods.get(source)?.size ?? 0,
  });
  const targetOf = (r: ResolvedRelation): string | null => r.target?.name ?? r.targetName;

  const remove: RemoveCandidate[] = [];
  const block: BlockCandidate[] = [];
  const add: AddCandidate[] = [];
  for (const source of [...pairs.keys()].sort(cmp)) {
    const targets = pairs.get(source) as Map<string, { attempts: number; successes: number }>;
    const rels = index.relationsFrom(source);
    const defined = new Set<string>();
    for (const r of rels) {
      const target = targetOf(r);
      if (target === null) continue;
      defined.add(target);
      if (r.external?.name) defined.add(r.external.name);
      const agg = targets.get(target) ?? (r.external ? targets.get(r.external.name) : undefined) ?? { attempts: 0, successes: 0 };
      const e = evidenceOf(source, agg.attempts, agg.successes);
      const base = { source, target, relationDn: r.relation.dn, createdBy: r.relation.createdBy };
      if (agg.attempts === 0 && r.relation.isRemoveAllowed) {
        remove.push({
          ...base,
          ...e,
          evidence: `no handover attempt over ${e.periods} period(s)${span(source)}; createdBy ${r.relation.createdBy ?? 'unknown'}`,
        });
      } else if (agg.attempts >= blockMin && e.successRate !== null && e.successRate < blockRate && r.relation.isHoAllowed) {
        block.push({
          ...base,
          ...e,
          evidence: `${agg.successes}/${agg.attempts} handovers succeeded (${pct(e.successRate)} < ${pct(blockRate)}) over ${e.periods} period(s)${span(source)}`,
        });
      }
    }
    const total = sourceAttempts.get(source) ?? 0;
    for (const target of [...targets.keys()].sort(cmp)) {
      if (defined.has(target) || target === source) continue;
      const agg = targets.get(target) as { attempts: number; successes: number };
      const share = total > 0 ? agg.attempts / total : 0;
      if (agg.attempts < addMin || share < addShare) continue;
      const e = evidenceOf(source, agg.attempts, agg.successes);
      add.push({
        source,
        target,
        share,
        targetInDump: index.cellByName(target) !== null,
        sourceInDump: index.cellByName(source) !== null,
        ...e,
        evidence: `${agg.attempts} handover attempts (${pct(share)} of ${source}'s) to a cell that is not a defined neighbour, ${pct(e.successRate)} successful${span(source)}`,
      });
    }
  }
  return { periods, remove, block, add };
}
