import type { MeasValue } from './meas-collec';

/**
 * Per-node performance verdicts from PM counters (DESIGN §7.2 performanceStatus). Counters of every
 * granularity period read are summed per cell, then judged:
 * - NOK when a cell was down (`pmCellDowntimeAuto` or `pmCellDowntimeMan` > 0 seconds);
 * - NOK when RRC setup success `pmRrcConnEstabSucc / pmRrcConnEstabAtt` < 98 %;
 * - NOK when E-RAB setup success `pmErabEstabSuccInit / pmErabEstabAttInit` < 98 %;
 * - OK when some of these counters were there and every cell passed.
 * Nodes with none of these counters get no verdict (their status stays 'N/A').
 */

export const SUCCESS_THRESHOLD = 0.98;

export const PM_COUNTERS = {
  downtimeAuto: 'pmCellDowntimeAuto',
  downtimeMan: 'pmCellDowntimeMan',
  rrcSucc: 'pmRrcConnEstabSucc',
  rrcAtt: 'pmRrcConnEstabAtt',
  erabSucc: 'pmErabEstabSuccInit',
  erabAtt: 'pmErabEstabAttInit',
} as const;
type CounterKey = keyof typeof PM_COUNTERS;
const KEY_OF = new Map<string, CounterKey>(Object.entries(PM_COUNTERS).map(([k, v]) => [v, k as CounterKey]));

export interface NodeVerdict {
  node: string;
  status: 'OK' | 'NOK';
  /** Which cell failed which rule and by how much; for OK, how many cells were judged. */
  comments: string;
  /** The newest granularity period end read for the node, ISO-8601 UTC, or null. */
  measuredAt: string | null;
}

/** At most this many findings are spelled out per node; the rest are counted. */
const MAX_FINDINGS = 20;

type Sums = Partial<Record<CounterKey, number>>;

const percent = (ratio: number) => `${(Math.floor(ratio * 1000) / 10).toFixed(1)} %`;

function isoOf(text: string | null): string | null {
  if (!text) return null;
  const t = new Date(text);
  return Number.isNaN(t.getTime()) ? null : t.toISOString();
}

export class PmVerdicts {
  /** node → cell → sums of the counters that matter. */
  private readonly nodes = new Map<string, { cells: Map<string, Sums>; measuredAt: string | null }>();

  add(value: MeasValue): void {
    let sums: Sums | undefined;
    for (const [name, v] of value.counters) {
      const key = KEY_OF.get(name);
      if (!key || v === null) continue;
      if (!sums) {
        let node = this.nodes.get(value.node);
        if (!node) {
          node = { cells: new Map(), measuredAt: null };
          this.nodes.set(value.node, node);
        }
        const end = isoOf(value.endTime);
        if (end && (!node.measuredAt || end > node.measuredAt)) node.measuredAt = end;
        sums = node.cells.get(value.cell);
        if (!sums) {
          sums = {};
          node.cells.set(value.cell, sums);
        }
      }
      sums[key] = (sums[key] ?? 0) + v;
    }
  }

  /** Verdicts by node name. */
  verdicts(): NodeVerdict[] {
    const out: NodeVerdict[] = [];
    for (const [node, { cells, measuredAt }] of [...this.nodes].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
      const findings: string[] = [];
      for (const [cell, s] of [...cells].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
        for (const key of ['downtimeAuto', 'downtimeMan'] as const) {
          const down = s[key];
          if (down !== undefined && down > 0) findings.push(`${cell}: cell down ${down} s (${PM_COUNTERS[key]})`);
        }
        const rate = (succ: CounterKey, att: CounterKey, label: string) => {
          const a = s[att];
          const ok = s[succ];
          if (a === undefined || ok === undefined || a <= 0) return;
          const ratio = ok / a;
          if (ratio < SUCCESS_THRESHOLD) findings.push(`${cell}: ${label} ${percent(ratio)} (${PM_COUNTERS[succ]} ${ok} / ${PM_COUNTERS[att]} ${a})`);
        };
        rate('rrcSucc', 'rrcAtt', 'RRC setup success');
        rate('erabSucc', 'erabAtt', 'E-RAB setup success');
      }
      if (findings.length === 0) {
        out.push({ node, status: 'OK', comments: `${cells.size} ${cells.size === 1 ? 'cell' : 'cells'} within thresholds`, measuredAt });
      } else {
        const shown = findings.slice(0, MAX_FINDINGS);
        if (findings.length > MAX_FINDINGS) shown.push(`… and ${findings.length - MAX_FINDINGS} more`);
        out.push({ node, status: 'NOK', comments: shown.join('; '), measuredAt });
      }
    }
    return out;
  }
}
