import type { Cell, ExternalCell, RelationKind } from '../network/model';
import type { NetworkIndex, ResolvedRelation } from './network-index';
import { lastRdnValue } from './network-index';

/**
 * Neighbour relations validation (docs/engines/planning.md#neighbour-relations-validation): planned (source cell, target cell) pairs against the dump.
 * - OK: a relation from the source reaches the target, and when it goes through an external cell, that
 *   proxy's PCI/PSC/BSIC, channel and TAC/LAC agree with the real cell's;
 * - WRONG: the relation meant for the target (reaching it with stale proxy values, or named after it but
 *   resolving to another cell or to none);
 * - MISSING: no relation from the source for the target;
 * - EXTRA: a relation of an in-scope source that no planned pair accounts for (with createdBy and
 *   isRemoveAllowed, so the engineer knows whether it can go).
 */

export type NbrVerdict = 'OK' | 'MISSING' | 'EXTRA' | 'WRONG';

export interface PlannedRelation {
  source: string;
  target: string;
}

export interface NbrValidationRow {
  source: string;
  target: string;
  verdict: NbrVerdict;
  relationDn: string | null;
  kind: RelationKind | null;
  createdBy: string | null;
  isRemoveAllowed: boolean | null;
  isHoAllowed: boolean | null;
  /** Where the relation actually leads (real cell name, or the external cell's name when it resolves nowhere). */
  resolvedTarget: string | null;
  reason: string;
}

export interface NbrValidationOptions {
  /** Sources whose unplanned relations are reported as EXTRA (default: the planned sources). */
  sourceCells?: readonly string[];
}

const cmp = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** Differences between an external cell and the real cell it stands for; empty when they agree (unknown values are not compared). */
export function externalMismatches(ext: ExternalCell, cell: Cell): string[] {
  const out: string[] = [];
  const check = (what: string, proxy: number | null, real: number | null): void => {
    if (proxy !== null && real !== null && proxy !== real) out.push(`${what} ${proxy} on the external cell, ${real} on ${cell.name}`);
  };
  switch (ext.kind) {
    case '2G':
      check('BSIC', ext.bsic, cell.bsic);
      check('LAC', ext.lac, cell.lac);
      break;
    case '3G':
      check('PSC', ext.psc, cell.psc);
      check('LAC', ext.lac, cell.lac);
      break;
    case '4G':
      check('PCI', ext.pci, cell.pci);
      check('TAC', ext.tac, cell.tac);
      break;
    case '5G':
      check('PCI', ext.pci, cell.pci);
      check('TAC', ext.tac, cell.nrTac ?? cell.tac);
      break;
  }
  // NR proxies may carry the SSB frequency rather than the carrier's NR-ARFCN.
  if (ext.channel !== null && cell.channel !== null && ext.channel !== cell.channel && !(ext.kind === '5G' && ext.channel === cell.ssb)) {
    out.push(`channel ${ext.channel} on the external cell, ${cell.channel} on ${cell.name}`);
  }
  return out;
}

function row(source: string, target: string, verdict: NbrVerdict, r: ResolvedRelation | null, reason: string): NbrValidationRow {
  return {
    source,
    target,
    verdict,
    relationDn: r?.relation.dn ?? null,
    kind: r?.relation.kind ?? null,
    createdBy: r?.relation.createdBy ?? null,
    isRemoveAllowed: r ? r.relation.isRemoveAllowed : null,
    isHoAllowed: r ? r.relation.isHoAllowed : null,
    resolvedTarget: r ? (r.target?.name ?? r.external?.name ?? null) : null,
    reason,
  };
}

export function validateNeighbourRelations(planned: readonly PlannedRelation[], index: NetworkIndex, options: NbrValidationOptions = {}): NbrValidationRow[] {
  const pairs = new Map<string, PlannedRelation>();
  for (const p of planned) {
    const source = p.source.trim();
    const target = p.target.trim();
    if (source && target) pairs.set(`${source}\u0000${target}`, { source, target });
  }
  const sorted = [...pairs.values()].sort((a, b) => cmp(a.source, b.source) || cmp(a.target, b.target));
  const scope = [...new Set(options.sourceCells ?? sorted.map((p) => p.source))].sort(cmp);
  const consumed = new Set<ResolvedRelation>();
  const rows: NbrValidationRow[] = [];

  // Exact matches first, so that a relation named after one target but reaching another planned one counts as that one.
  const exact = new Map<PlannedRelation, ResolvedRelation>();
  for (const p of sorted) {
    const hit = index.relationsFrom(p.source).find((r) => !consumed.has(r) && r.target?.name === p.target);
    if (hit) {
      consumed.add(hit);
      exact.set(p, hit);
    }
  }

  for (const p of sorted) {
    const hit = exact.get(p);
    if (hit) {
      const diffs = hit.external && hit.target ? externalMismatches(hit.external, hit.target) : [];
      rows.push(
        diffs.length > 0
          ? row(p.source, p.target, 'WRONG', hit, `external cell ${hit.external?.name ?? ''} is stale: ${diffs.join('; ')}`)
          : row(p.source, p.target, 'OK', hit, 'OK'),
      );
      continue;
    }
    const meant = index
      .relationsFrom(p.source)
      .find((r) => !consumed.has(r) && (r.external?.name === p.target || lastRdnValue(r.relation.targetRef) === p.target || r.relation.name === p.target));
    if (meant) {
      consumed.add(meant);
      const where = meant.target ? `resolves to ${meant.target.name}` : 'does not resolve to any cell in the dump';
      rows.push(row(p.source, p.target, 'WRONG', meant, `the relation for ${p.target} ${where}`));
      continue;
    }
    const src = index.cellByName(p.source);
    const tgt = index.cellByName(p.target);
    const reason = !src
      ? `source cell ${p.source} is not in the dump`
      : `no relation from ${p.source} to ${p.target}${tgt ? '' : ` (${p.target} is not in the dump either)`}`;
    rows.push(row(p.source, p.target, 'MISSING', null, reason));
  }

  const plannedTargets = new Set(sorted.map((p) => `${p.source}\u0000${p.target}`));
  for (const source of scope) {
    const extra: NbrValidationRow[] = [];
    for (const r of index.relationsFrom(source)) {
      if (consumed.has(r)) continue;
      const target = r.targetName ?? r.relation.targetRef ?? r.relation.name;
      const dup = plannedTargets.has(`${source}\u0000${target}`);
      const removable = r.relation.isRemoveAllowed ? 'removal allowed' : 'removal not allowed';
      extra.push(
        row(source, target, 'EXTRA', r, `${dup ? 'duplicate relation' : 'not planned'}; createdBy ${r.relation.createdBy ?? 'unknown'}, ${removable}`),
      );
    }
    rows.push(...extra.sort((a, b) => cmp(a.target, b.target)));
  }
  return rows;
}
