import type { Cell } from '../network/model';
import type { CpichRow } from '../planning/cpich';
import { classOf, emptyPlan, int, ldnOf, type MosCommand, type ScriptPlan } from './mos';

/**
 * Corrective scripts from a CPICH validation (issue 46): `set UtranCell=… primaryCpichPower <recommended>`
 * on the RNC of each cell the run flagged, and `maximumTransmissionPower` down to the radio's capability
 * when it exceeds it. Values are in 0.1 dBm, as Ericsson stores them and the validation reads them
 * (docs/engines/scripts.md).
 *
 * The recommendation answers the validation's own rules: CPICH between max − 12 dB and max − 8 dB (the
 * middle, max − 10 dB, when it is outside or not below max at all; kept when already inside), and the
 * sectors of one site on one UARFCN within 2 dB of each other (all moved to their median, within each
 * cell's window). "max" is the cell's maximumTransmissionPower, or the capability when it is above it.
 */

export interface CpichLimits {
  /** Lowest CPICH below max, 0.1 dB (the validation's 120). */
  maxOffset: number;
  /** Highest CPICH below max, 0.1 dB (80). */
  minOffset: number;
  /** Largest spread between a site's sectors, 0.1 dB (20). */
  siteSpread: number;
}

export const CPICH_LIMITS: CpichLimits = { maxOffset: 120, minOffset: 80, siteSpread: 20 };

export interface CpichRecommendation {
  cell: string;
  primaryCpichPower: { from: number; to: number } | null;
  maximumTransmissionPower: { from: number; to: number } | null;
  /** Why nothing can be recommended (a power missing). */
  unknown: string | null;
}

const clamp = (v: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, v));
const dbm = (tenths: number) => `${(tenths / 10).toFixed(1)} dBm`;

/** What each flagged cell should be set to (cells the run found OK are left out). */
export function recommendCpich(rows: readonly CpichRow[], limits: CpichLimits = CPICH_LIMITS): CpichRecommendation[] {
  const window = (r: CpichRow) => {
    const max = Math.min(r.maximumTransmissionPower!, r.capability);
    return { max, lo: max - limits.maxOffset, hi: max - limits.minOffset };
  };
  const known = rows.filter((r) => r.primaryCpichPower !== null && r.maximumTransmissionPower !== null);
  // Each cell first within its own window (its middle when outside), then a site's sectors on one carrier brought together.
  const target = new Map<string, number>();
  for (const r of known) {
    const w = window(r);
    const cpich = r.primaryCpichPower!;
    target.set(r.cell, cpich < w.lo || cpich > w.hi ? w.max - (limits.maxOffset + limits.minOffset) / 2 : cpich);
  }
  const groups = new Map<string, CpichRow[]>();
  for (const r of known) {
    const key = `${r.siteId}\u0000${r.uarfcn ?? ''}`;
    groups.set(key, [...(groups.get(key) ?? []), r]);
  }
  for (const group of groups.values()) {
    const values = group.map((r) => target.get(r.cell)!);
    if (Math.max(...values) - Math.min(...values) <= limits.siteSpread) continue;
    const sorted = [...values].sort((a, b) => a - b);
    const median = sorted[Math.floor((sorted.length - 1) / 2)]!;
    for (const r of group) {
      const w = window(r);
      target.set(r.cell, clamp(median, w.lo, w.hi));
    }
  }
  return rows
    .filter((r) => r.verdict !== 'OK')
    .map((r) => {
      if (r.primaryCpichPower === null || r.maximumTransmissionPower === null) {
        return { cell: r.cell, primaryCpichPower: null, maximumTransmissionPower: null, unknown: r.reason };
      }
      const to = target.get(r.cell)!;
      const max = r.maximumTransmissionPower;
      return {
        cell: r.cell,
        primaryCpichPower: to === r.primaryCpichPower ? null : { from: r.primaryCpichPower, to },
        maximumTransmissionPower: max > r.capability ? { from: max, to: r.capability } : null,
        unknown: null,
      };
    });
}

/** The scripts' changes for a CPICH run: one change per flagged cell, on the node (RNC) holding the UtranCell. */
export function cpichScripts(rows: readonly CpichRow[], cells: readonly Cell[], limits: CpichLimits = CPICH_LIMITS): ScriptPlan {
  const plan = emptyPlan();
  const byName = new Map(cells.map((c) => [c.name, c]));
  const verdicts = new Map(rows.map((r) => [r.cell, r]));
  for (const rec of recommendCpich(rows, limits)) {
    const row = verdicts.get(rec.cell)!;
    const cell = byName.get(rec.cell);
    const finding = `${row.verdict} ${rec.cell}`;
    if (!cell) {
      plan.byHand.push(`CPICH ${finding}: the cell is not in the dump read`);
      continue;
    }
    const ldn = ldnOf(cell.dn);
    if (classOf(ldn) !== 'UtranCell') {
      plan.notes.push({ node: cell.nodeName, label: 'CPICH', text: `${finding}: ${classOf(ldn)} is not a UtranCell: not scripted` });
      continue;
    }
    if (rec.unknown !== null) {
      plan.notes.push({ node: cell.nodeName, label: 'CPICH', text: `${finding}: ${rec.unknown}; no value to recommend` });
      continue;
    }
    const commands: MosCommand[] = [];
    const undo: MosCommand[] = [];
    // Max power first: the CPICH is recommended against the power the cell will have.
    if (rec.maximumTransmissionPower) {
      const { from, to } = rec.maximumTransmissionPower;
      commands.push({
        verb: 'set',
        ldn,
        attribute: 'maximumTransmissionPower',
        value: int(to),
        why: `${dbm(from)} exceeds the radio capability; set to ${dbm(to)}`,
      });
      undo.push({ verb: 'set', ldn, attribute: 'maximumTransmissionPower', value: int(from), why: `back to ${dbm(from)}` });
    }
    if (rec.primaryCpichPower) {
      const { from, to } = rec.primaryCpichPower;
      commands.push({ verb: 'set', ldn, attribute: 'primaryCpichPower', value: int(to), why: `${dbm(from)} -> ${dbm(to)} (${row.reason})` });
      undo.push({ verb: 'set', ldn, attribute: 'primaryCpichPower', value: int(from), why: `back to ${dbm(from)}` });
    }
    if (commands.length === 0) {
      plan.notes.push({ node: cell.nodeName, label: 'CPICH', text: `${finding}: already within the rules once its site's other sectors move (${row.reason})` });
      continue;
    }
    plan.changes.push({ node: cell.nodeName, label: 'CPICH', finding, commands, undo: [...undo].reverse() });
  }
  return plan;
}
