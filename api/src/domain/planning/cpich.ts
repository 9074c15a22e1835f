import type { Cell } from '../network/model';
import { DEFAULT_MAX_POWER_CAPABILITY } from './constants';

/**
 * CPICH validation of UTRAN cells (docs/engines/planning.md#cpich-validation). Powers are in 0.1 dBm as Ericsson stores them
 * (primaryCpichPower, maximumTransmissionPower).
 * - ERROR: a power is missing, primaryCpichPower ≥ maximumTransmissionPower, or maximumTransmissionPower
 *   exceeds the radio's capability;
 * - WARNING: CPICH outside [max − 12 dB, max − 8 dB] (bounds included), or the CPICH of the sectors of one
 *   site (cells of one site on one UARFCN) spread over more than 2 dB;
 * - OK otherwise.
 */

export type Verdict = 'OK' | 'WARNING' | 'ERROR';

export interface CpichOptions {
  /** Radio capability, 0.1 dBm (default 460 = 46 dBm); a number or a per-cell lookup. */
  capability?: number | ((cell: Cell) => number);
  /** Lowest CPICH below max, 0.1 dB (default 120 = 12 dB). */
  maxOffset?: number;
  /** Highest CPICH below max, 0.1 dB (default 80 = 8 dB). */
  minOffset?: number;
  /** Largest CPICH spread between the sectors of a site, 0.1 dB (default 20 = 2 dB). */
  siteSpread?: number;
}

export interface CpichRow {
  siteId: string;
  cell: string;
  uarfcn: number | null;
  /** 0.1 dBm. */
  primaryCpichPower: number | null;
  maximumTransmissionPower: number | null;
  capability: number;
  /** maximumTransmissionPower − primaryCpichPower in dB. */
  offsetDb: number | null;
  verdict: Verdict;
  /** Every reason, most severe first; empty for OK. */
  reasons: string[];
  /** The reasons joined by `; ` (or 'OK'). */
  reason: string;
}

const db = (tenths: number): string => `${(tenths / 10).toFixed(1)} dB`;
const dbm = (tenths: number): string => `${(tenths / 10).toFixed(1)} dBm`;

export function validateCpich(cells: readonly Cell[], options: CpichOptions = {}): CpichRow[] {
  const maxOffset = options.maxOffset ?? 120;
  const minOffset = options.minOffset ?? 80;
  const spread = options.siteSpread ?? 20;
  const capOf = (c: Cell): number => (typeof options.capability === 'function' ? options.capability(c) : (options.capability ?? DEFAULT_MAX_POWER_CAPABILITY));

  const utran = cells
    .filter((c) => c.tech === '3G')
    .sort((a, b) => (a.siteId < b.siteId ? -1 : a.siteId > b.siteId ? 1 : a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const rows = utran.map((c) => {
    const cpich = c.cpichPower;
    const max = c.maxTxPower;
    const cap = capOf(c);
    const errors: string[] = [];
    const warnings: string[] = [];
    if (cpich === null) errors.push('primaryCpichPower missing');
    if (max === null) errors.push('maximumTransmissionPower missing');
    if (max !== null && max > cap) errors.push(`maximumTransmissionPower ${dbm(max)} exceeds the radio capability ${dbm(cap)}`);
    if (cpich !== null && max !== null) {
      if (cpich >= max) errors.push(`primaryCpichPower ${dbm(cpich)} ≥ maximumTransmissionPower ${dbm(max)}`);
      else if (cpich < max - maxOffset || cpich > max - minOffset) {
        warnings.push(
          `primaryCpichPower ${dbm(cpich)} is ${db(max - cpich)} below max; expected ${db(minOffset)}–${db(maxOffset)} (${dbm(max - maxOffset)}–${dbm(max - minOffset)})`,
        );
      }
    }
    return { cell: c, cap, errors, warnings };
  });

  // Sectors of one site on one carrier.
  const groups = new Map<string, typeof rows>();
  for (const r of rows) {
    if (r.cell.cpichPower === null) continue;
    const key = `${r.cell.siteId}\u0000${r.cell.channel ?? ''}`;
    groups.set(key, [...(groups.get(key) ?? []), r]);
  }
  for (const g of groups.values()) {
    if (g.length < 2) continue;
    const values = g.map((r) => r.cell.cpichPower as number);
    const lo = Math.min(...values);
    const hi = Math.max(...values);
    if (hi - lo > spread) {
      for (const r of g) {
        r.warnings.push(`CPICH differs by ${db(hi - lo)} between the site's sectors (${dbm(lo)}–${dbm(hi)}; at most ${db(spread)})`);
      }
    }
  }

  return rows.map(({ cell, cap, errors, warnings }) => {
    const reasons = [...errors, ...warnings];
    const verdict: Verdict = errors.length > 0 ? 'ERROR' : warnings.length > 0 ? 'WARNING' : 'OK';
    return {
      siteId: cell.siteId,
      cell: cell.name,
      uarfcn: cell.channel,
      primaryCpichPower: cell.cpichPower,
      maximumTransmissionPower: cell.maxTxPower,
      capability: cap,
      offsetDb: cell.cpichPower !== null && cell.maxTxPower !== null ? (cell.maxTxPower - cell.cpichPower) / 10 : null,
      verdict,
      reasons,
      reason: reasons.length > 0 ? reasons.join('; ') : 'OK',
    };
  });
}
