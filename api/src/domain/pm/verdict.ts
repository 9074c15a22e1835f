import { ALL_FORMULAS, DOWNTIME_COUNTERS, judgedObjectOf, type KpiFormula, kpiCounterOf, type PmTechnology, technologyOfObject } from './kpi';
import type { MeasValue } from './meas-collec';

/**
 * Per-node performance verdicts from PM counters (docs/engines/performance.md#rules-applied performanceStatus). Counters of every
 * granularity period read are summed per cell (a relation's counters count for its cell), then judged
 * by the KPI formulas of `kpi.ts` whose counters are there:
 * - NOK when a cell was down (`pmCellDowntimeAuto` or `pmCellDowntimeMan` > 0 seconds);
 * - NOK when an accessibility or retainability ratio is below 98 %, or a handover success below 95 %;
 * - OK when some of these counters were there and every cell passed.
 * A node whose files hold none of them is not judged: it gets 'N/A', with why (its technology and the
 * counters that were there instead).
 */

export interface NodeVerdict {
  node: string;
  status: 'OK' | 'NOK' | 'N/A';
  /** Which cell failed which rule and by how much; for OK, how many cells were judged; for N/A, why. */
  comments: string;
  /** The newest granularity period end read for the node, ISO-8601 UTC, or null. */
  measuredAt: string | null;
}

/** What a set of files held: the import's answer says it. */
export interface PmReadCounts {
  /** Nodes named by some measValue. */
  nodesRead: number;
  /** measValue elements (one object, one granularity period). */
  measValues: number;
  /** Counter values in them (NIL included: it was read, it is just not a number). */
  counterValues: number;
  /** Nodes with KPI counters, which got OK or NOK. */
  nodesJudged: number;
}

/** At most this many findings are spelled out per node; the rest are counted. */
const MAX_FINDINGS = 20;
/** Counter names an N/A verdict shows as examples of what the files held instead. */
const MAX_EXAMPLES = 3;

/** A measurement's total as read: the counter, else its `.sum`, else its subcounters added up. */
interface Measured {
  total?: number;
  sum?: number;
  subs?: number;
}
type Sums = Map<string, Measured>;

interface NodeState {
  /** Judged objects (cells, or network functions of core nodes) → their sums. */
  cells: Map<string, Sums>;
  /** Some judged object is not a cell: the OK comment counts "measured objects". */
  nonCell: boolean;
  measuredAt: string | null;
  technologies: Set<PmTechnology>;
  /** A few counter names seen, for the N/A reason. */
  examples: string[];
  /** Some KPI counter was there but NIL (not a number). */
  nilKpi: boolean;
}

const percent = (ratio: number) => `${(Math.floor(ratio * 1000) / 10).toFixed(1)} %`;
const byKey = <T>([a]: [string, T], [b]: [string, T]) => (a < b ? -1 : a > b ? 1 : 0);

function isoOf(text: string | null): string | null {
  if (!text) return null;
  const t = new Date(text);
  return Number.isNaN(t.getTime()) ? null : t.toISOString();
}

function valueOf(m: Measured | undefined): number | undefined {
  return m === undefined ? undefined : (m.total ?? m.sum ?? m.subs);
}

/** The sum of the counters present among `names`; undefined when none is. */
function sideOf(sums: Sums, names: readonly string[]): number | undefined {
  let total: number | undefined;
  for (const n of names) {
    const v = valueOf(sums.get(n));
    if (v !== undefined) total = (total ?? 0) + v;
  }
  return total;
}

function finding(cell: string, f: KpiFormula, sums: Sums): string | null {
  const den = sideOf(sums, f.denominator);
  const num = sideOf(sums, f.numerator);
  if (den === undefined || num === undefined || den <= 0) return null;
  const ratio = f.kind === 'success' ? num / den : 1 - num / den;
  if (ratio >= f.threshold) return null;
  const numNames = f.numerator.join('+');
  const denNames = f.denominator.join('+');
  return f.kind === 'success'
    ? `${cell}: ${f.label} ${percent(ratio)} (${numNames} ${num} / ${denNames} ${den})`
    : `${cell}: ${f.label} ${percent(ratio)} (${numNames} ${num} dropped of ${denNames} ${den})`;
}

export class PmVerdicts {
  private readonly nodes = new Map<string, NodeState>();
  private measValues = 0;
  private counterValues = 0;

  add(value: MeasValue): void {
    this.measValues += 1;
    this.counterValues += value.counters.size;
    let node = this.nodes.get(value.node);
    if (!node) {
      node = { cells: new Map(), nonCell: false, measuredAt: null, technologies: new Set(), examples: [], nilKpi: false };
      this.nodes.set(value.node, node);
    }
    const end = isoOf(value.endTime);
    if (end && (!node.measuredAt || end > node.measuredAt)) node.measuredAt = end;
    const tech = technologyOfObject(value.object);
    if (tech) node.technologies.add(tech);
    let sums: Sums | undefined;
    for (const [name, v] of value.counters) {
      const counter = kpiCounterOf(name);
      if (!counter) {
        if (node.examples.length < MAX_EXAMPLES && !node.examples.includes(name)) node.examples.push(name);
        continue;
      }
      if (v === null) {
        node.nilKpi = true;
        continue;
      }
      if (!sums) {
        const judged = judgedObjectOf(value.object);
        if (!judged.cell) node.nonCell = true;
        sums = node.cells.get(judged.name);
        if (!sums) {
          sums = new Map();
          node.cells.set(judged.name, sums);
        }
      }
      let m = sums.get(counter.base);
      if (!m) {
        m = {};
        sums.set(counter.base, m);
      }
      if (counter.part === 'total') m.total = (m.total ?? 0) + v;
      else if (counter.part === 'sum') m.sum = (m.sum ?? 0) + v;
      else m.subs = (m.subs ?? 0) + v;
    }
  }

  /** Verdicts of the nodes with KPI counters, by node name. */
  verdicts(): NodeVerdict[] {
    const out: NodeVerdict[] = [];
    for (const [node, { cells, nonCell, measuredAt }] of [...this.nodes].sort(byKey)) {
      if (cells.size === 0) continue;
      const findings: string[] = [];
      for (const [cell, sums] of [...cells].sort(byKey)) {
        for (const counter of DOWNTIME_COUNTERS) {
          const down = valueOf(sums.get(counter));
          if (down !== undefined && down > 0) findings.push(`${cell}: cell down ${down} s (${counter})`);
        }
        for (const f of ALL_FORMULAS) {
          const found = finding(cell, f, sums);
          if (found) findings.push(found);
        }
      }
      if (findings.length === 0) {
        const what = nonCell ? ['measured object', 'measured objects'] : ['cell', 'cells'];
        out.push({ node, status: 'OK', comments: `${cells.size} ${cells.size === 1 ? what[0] : what[1]} within thresholds`, measuredAt });
      } else {
        const shown = findings.slice(0, MAX_FINDINGS);
        if (findings.length > MAX_FINDINGS) shown.push(`… and ${findings.length - MAX_FINDINGS} more`);
        out.push({ node, status: 'NOK', comments: shown.join('; '), measuredAt });
      }
    }
    return out;
  }

  /** The nodes read without any KPI counter: 'N/A', saying which technology and what the files held instead. */
  notJudged(): NodeVerdict[] {
    const out: NodeVerdict[] = [];
    for (const [node, { cells, measuredAt, technologies, examples, nilKpi }] of [...this.nodes].sort(byKey)) {
      if (cells.size > 0) continue;
      const techs = [...technologies].sort();
      const which = techs.length > 0 ? ` of ${techs.join('/')}` : '';
      const shown = examples.length > 0 ? `${examples.join(', ')}${examples.length === MAX_EXAMPLES ? ', …' : ''}` : null;
      const held = nilKpi
        ? `; its KPI counters are NIL${shown ? ` (other counters: ${shown})` : ''}`
        : shown
          ? `; the files hold ${shown}`
          : '; the files hold no counter values';
      out.push({
        node,
        status: 'N/A',
        comments: `No KPI counters${which} (accessibility, retainability, handover success, cell downtime)${held}`,
        measuredAt,
      });
    }
    return out;
  }

  counts(): PmReadCounts {
    let judged = 0;
    for (const n of this.nodes.values()) if (n.cells.size > 0) judged += 1;
    return { nodesRead: this.nodes.size, measValues: this.measValues, counterValues: this.counterValues, nodesJudged: judged };
  }
}
