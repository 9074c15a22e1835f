import { theme } from 'antd';
import { BarController, BarElement, CategoryScale, Chart, Legend, LinearScale, Tooltip, type ChartConfiguration, type Plugin } from 'chart.js';
import { useEffect, useRef } from 'react';
import { formatCount } from 'shared-ui';
import { shortWeek, type ChartData } from './rollout';

// Tree-shaken chart.js: every rollout chart is a (grouped, stacked or horizontal) bar chart, so only the
// bar controller and element, the category and linear scales, and the tooltip and legend plugins are
// registered; doughnut, line, time scales, filler, title and the rest never reach the bundle.
Chart.register(BarController, BarElement, CategoryScale, LinearScale, Tooltip, Legend);

type BarConfig = ChartConfiguration<'bar', number[], string>;

/** One drawn bar, for the `data-bars` attribute (the e2e tests click bars by it; a canvas has no DOM to query). */
export interface DrawnBar {
  series: string;
  category: string;
  x: number;
  y: number;
}

/** After each draw, the centre of every non-empty bar in CSS pixels of the canvas. */
const exposeBars: Plugin<'bar'> = {
  id: 'cellwiseExposeBars',
  afterRender(chart) {
    const bars: DrawnBar[] = [];
    chart.data.datasets.forEach((dataset, datasetIndex) => {
      if (!chart.isDatasetVisible(datasetIndex)) return;
      chart.getDatasetMeta(datasetIndex).data.forEach((element, index) => {
        if (!dataset.data[index]) return;
        const { x, y } = (element as BarElement).getCenterPoint(true);
        bars.push({ series: String(dataset.label), category: String(chart.data.labels?.[index] ?? ''), x: Math.round(x ?? 0), y: Math.round(y ?? 0) });
      });
    });
    chart.canvas.dataset.bars = JSON.stringify(bars);
  },
};

export interface BarChartProps {
  chart: ChartData;
  /** One colour per series. */
  colours: string[];
  onOpen: (url: string) => void;
  height?: number;
}

/** Builds the chart.js configuration of a rollout chart; exported so the mapping is tested without a canvas. */
export function barConfig(chart: ChartData, colours: string[], token: ReturnType<typeof theme.useToken>['token'], onOpen: (url: string) => void): BarConfig {
  const weekly = !chart.horizontal;
  const valueAxis = chart.horizontal ? 'x' : 'y';
  const categoryAxis = chart.horizontal ? 'y' : 'x';
  const linkAt = (datasetIndex: number, index: number) => chart.series[datasetIndex]?.links[index] ?? null;
  const axis = (values: boolean) => ({
    stacked: chart.stacked,
    grid: { color: token.colorBorderSecondary, display: values },
    border: { color: token.colorBorder },
    ticks: {
      color: token.colorTextSecondary,
      font: { family: token.fontFamily, size: token.fontSizeSM },
      ...(values ? { precision: 0 } : {}),
    },
    ...(values ? { beginAtZero: true } : {}),
  });
  return {
    type: 'bar',
    data: {
      labels: chart.categories.map((c) => (weekly ? shortWeek(c) : c)),
      datasets: chart.series.map((s, i) => ({
        label: s.label,
        data: s.values,
        backgroundColor: colours[i] ?? token.colorPrimary,
        borderRadius: chart.stacked ? 0 : 3,
        maxBarThickness: 32,
      })),
    },
    options: {
      indexAxis: chart.horizontal ? 'y' : 'x',
      responsive: true,
      maintainAspectRatio: false,
      // Drawn at once: the numbers matter, not the motion (and the bars are where a click lands right away).
      animation: false,
      interaction: { mode: 'nearest', intersect: true, axis: categoryAxis },
      scales: { [categoryAxis]: axis(false), [valueAxis]: axis(true) },
      plugins: {
        legend: {
          display: chart.series.length > 1,
          position: 'bottom',
          labels: { color: token.colorText, boxWidth: 12, boxHeight: 12, font: { family: token.fontFamily, size: token.fontSizeSM } },
        },
        tooltip: {
          callbacks: {
            // Weeks show with their year in the tooltip (the axis keeps W07 short).
            title: (items) => (items[0] ? (chart.categories[items[0].dataIndex] ?? '') : ''),
            footer: (items) => (items[0] && linkAt(items[0].datasetIndex, items[0].dataIndex) ? 'Click to open the filtered table' : ''),
          },
        },
      },
      onHover: (event, elements) => {
        const target = event.native?.target as HTMLElement | undefined;
        const first = elements[0];
        if (target) target.style.cursor = first && linkAt(first.datasetIndex, first.index) ? 'pointer' : 'default';
      },
      onClick: (_event, elements) => {
        const first = elements[0];
        const link = first ? linkAt(first.datasetIndex, first.index) : null;
        if (link) onOpen(link);
      },
    },
    plugins: [exposeBars],
  };
}

/** A rollout chart on a canvas; the picture is `role="img"` with a summary, the keyboard way in is the chart's table. */
export function BarChart({ chart, colours, onOpen, height = 280 }: BarChartProps) {
  const { token } = theme.useToken();
  const canvas = useRef<HTMLCanvasElement>(null);
  // The latest callback without rebuilding the chart on every render.
  const open = useRef(onOpen);
  useEffect(() => {
    open.current = onOpen;
  }, [onOpen]);

  useEffect(() => {
    const element = canvas.current;
    if (!element) return;
    const instance = new Chart(
      element,
      barConfig(chart, colours, token, (url) => open.current(url)),
    );
    return () => instance.destroy();
  }, [chart, colours, token]);

  const total = chart.series.reduce((sum, s) => sum + s.values.reduce((a, b) => a + b, 0), 0);
  return (
    <div style={{ position: 'relative', height }}>
      <canvas
        ref={canvas}
        role="img"
        aria-label={`${chart.title}: ${formatCount(total)} ${chart.unit} in ${chart.categories.length} ${chart.horizontal ? 'groups' : 'weeks'}. The table view lists every bar with a link.`}
        data-chart={chart.id}
      />
    </div>
  );
}
