import type { RolloutStats } from 'contracts';
import type { Capability } from 'shared-auth';
import { filtersSearch } from 'shared-ui';

/**
 * The rollout charts as data, free of any chart library: what each bar means, how many, and which
 * filtered table a click on it opens. The canvas charts and their keyboard tables both read this, so
 * a bar and its table cell always lead to the same place.
 */

/** Alarm severities in the order the stacks are drawn (bottom first) and the legend lists them. */
export const SEVERITIES = ['Critical', 'Major', 'Minor', 'Warning'] as const;

/** The colours each severity takes, named as antd's preset palettes (Fault Management's tags use the same names). */
export const SEVERITY_PALETTE: Record<(typeof SEVERITIES)[number], 'red' | 'orange' | 'gold' | 'blue'> = {
  Critical: 'red',
  Major: 'orange',
  Minor: 'gold',
  Warning: 'blue',
};

export const PAGES = {
  commissioningPlan: '/tracking/commissioningplan',
  tracker: '/tracking/tracker',
  workOrders: '/tracking/workorderstatus',
  alarms: '/monitoring/faultManagement',
} as const;

/** What each page a bar opens asks of its user (the areas' manifests declare the same). */
const PAGE_CAPABILITIES: ReadonlyMap<string, Capability> = new Map([
  [PAGES.commissioningPlan, 'canTrack'],
  [PAGES.tracker, 'canTrack'],
  [PAGES.workOrders, 'canTrack'],
  [PAGES.alarms, 'canMonitor'],
]);

/** One series of a chart: a label per category (same order as the chart's `categories`). */
export interface Series {
  key: string;
  label: string;
  values: number[];
  /** The filtered table of each category of this series (null: nothing to open, e.g. an empty bar). */
  links: Array<string | null>;
}

export interface ChartData {
  id: 'commissioned' | 'trackerStatus' | 'workOrders' | 'alarms';
  title: string;
  /** What the bars count, for screen readers and the table's header. */
  unit: string;
  categories: string[];
  series: Series[];
  stacked: boolean;
  /** Bars along the x axis (weeks) or along the y axis (named statuses and types, whose labels are long). */
  horizontal: boolean;
  empty: string;
}

const linkTo = (page: string, filters: Record<string, string>) => `${page}${filtersSearch(filters)}`;

/**
 * The API's names for rows without a status or a type (api/src/dashboards/rollout.ts): no table cell
 * holds these words, so their bars open nothing rather than a table filtered to no rows.
 */
export const NO_STATUS = 'No status';
export const NO_TYPE = 'No type';

/** `2026-W07` → `7`: the commissioning plan's `week` column holds the ISO week number alone. */
export function weekNumber(isoWeek: string): string {
  const match = /^\d{4}-W(\d{2})$/.exec(isoWeek);
  return match ? String(Number(match[1])) : isoWeek;
}

/** `2026-W07` → `W07`: short axis labels; the year is in the tooltip and the table. */
export const shortWeek = (isoWeek: string) => isoWeek.slice(5);

export function commissionedChart(stats: RolloutStats): ChartData {
  const byWeek = new Map(stats.commissionedPerWeek.map((w) => [w.week, w]));
  const weeks = stats.weeks;
  const planned = weeks.map((w) => byWeek.get(w)?.planned ?? 0);
  const done = weeks.map((w) => byWeek.get(w)?.done ?? 0);
  return {
    id: 'commissioned',
    title: 'Sites commissioned per week',
    unit: 'sites',
    categories: weeks,
    series: [
      {
        key: 'planned',
        label: 'Planned',
        values: planned,
        // Planned sites are the commissioning plan's rows of that ISO week.
        links: weeks.map((w, i) => (planned[i]! > 0 ? linkTo(PAGES.commissioningPlan, { week: weekNumber(w) }) : null)),
      },
      {
        key: 'done',
        label: 'Done',
        values: done,
        // The list filters match text, so a delivery week cannot be asked for: the delivered sites are.
        links: weeks.map((_, i) => (done[i]! > 0 ? linkTo(PAGES.tracker, { scheduleStatus: 'Done' }) : null)),
      },
    ],
    stacked: false,
    horizontal: false,
    empty: 'No site is planned or commissioned in these weeks.',
  };
}

export function trackerStatusChart(stats: RolloutStats): ChartData {
  const rows = [...stats.trackerStatus].filter((s) => s.count > 0).sort((a, b) => b.count - a.count || a.status.localeCompare(b.status));
  return {
    id: 'trackerStatus',
    title: 'Tracker status',
    unit: 'sites',
    categories: rows.map((r) => r.status),
    series: [
      {
        key: 'sites',
        label: 'Sites',
        values: rows.map((r) => r.count),
        links: rows.map((r) => (r.status === NO_STATUS ? null : linkTo(PAGES.tracker, { currentStatus: r.status }))),
      },
    ],
    stacked: false,
    horizontal: true,
    empty: 'The tracker is empty.',
  };
}

export function workOrdersChart(stats: RolloutStats): ChartData {
  const rows = [...stats.openWorkOrdersByType].filter((s) => s.count > 0).sort((a, b) => b.count - a.count || a.type.localeCompare(b.type));
  return {
    id: 'workOrders',
    title: 'Open work orders by type',
    unit: 'work orders',
    categories: rows.map((r) => r.type),
    series: [
      {
        key: 'open',
        label: 'Open',
        values: rows.map((r) => r.count),
        links: rows.map((r) => (r.type === NO_TYPE ? null : linkTo(PAGES.workOrders, { woType: r.type }))),
      },
    ],
    stacked: false,
    horizontal: true,
    empty: 'No work order is open.',
  };
}

export function alarmsChart(stats: RolloutStats): ChartData {
  const weeks = stats.weeks;
  const count = new Map<string, number>();
  const seen = new Set<string>();
  for (const a of stats.alarmsBySeverityPerWeek) {
    count.set(`${a.week}|${a.severity}`, (count.get(`${a.week}|${a.severity}`) ?? 0) + a.count);
    if (a.count > 0) seen.add(a.severity);
  }
  // The four known severities always (their colours are the legend people know), then any other the nodes reported.
  const known: readonly string[] = SEVERITIES;
  const severities = [...SEVERITIES, ...[...seen].filter((s) => !known.includes(s)).sort()];
  return {
    id: 'alarms',
    title: 'Alarms by severity per week',
    unit: 'alarms',
    categories: weeks,
    series: severities.map((severity) => {
      const values = weeks.map((w) => count.get(`${w}|${severity}`) ?? 0);
      return {
        key: severity,
        label: severity,
        values,
        // The alarm list filters by severity; the raise week is not a filter the list can take.
        links: values.map((v) => (v > 0 ? linkTo(PAGES.alarms, { severity }) : null)),
      };
    }),
    stacked: true,
    horizontal: false,
    empty: 'No active alarm was raised in these weeks.',
  };
}

/**
 * The four charts. `may` says which capabilities the user has: a bar whose table the user may not open
 * (a Client's dashboard shows the figures, not the engineering tables, which would answer the 401 page)
 * opens nothing. Omitted: every link.
 */
export function rolloutCharts(stats: RolloutStats, may?: (capability: Capability) => boolean): ChartData[] {
  const charts = [commissionedChart(stats), trackerStatusChart(stats), workOrdersChart(stats), alarmsChart(stats)];
  if (!may) return charts;
  const opens = (link: string | null) => {
    const capability = link === null ? undefined : PAGE_CAPABILITIES.get(link.split('?')[0]!);
    return capability !== undefined && may(capability);
  };
  return charts.map((chart) => ({ ...chart, series: chart.series.map((s) => ({ ...s, links: s.links.map((l) => (opens(l) ? l : null)) })) }));
}

/** True when a chart has nothing to draw (every bar zero or no category at all). */
export const isEmpty = (chart: ChartData) => chart.categories.length === 0 || chart.series.every((s) => s.values.every((v) => v === 0));
