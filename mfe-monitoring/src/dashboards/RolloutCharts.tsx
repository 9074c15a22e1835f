import { Alert, Button, Card, Col, Flex, Row, Segmented, Skeleton, theme } from 'antd';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import type { DEFAULT_ROLLOUT_WEEKS, RolloutStats } from 'contracts';
import { api, capabilitiesOf, errorMessage, principalOf, useSession } from 'shared-auth';
import { Note } from 'shared-ui';
import { BarChart } from './charts/BarChart';
import { ChartTable } from './charts/ChartTable';
import { SEVERITY_PALETTE, isEmpty, rolloutCharts, type ChartData } from './charts/rollout';

/** The API's default window (typed by its constant, so the two cannot drift apart). */
const DEFAULT_WEEKS: typeof DEFAULT_ROLLOUT_WEEKS = 12;
const WEEK_CHOICES = [8, DEFAULT_WEEKS, 26, 52];

type Loaded = { weeks: number; stats: RolloutStats | null; error: string | null };

function useRollout(weeks: number, attempt: number) {
  const [loaded, setLoaded] = useState<Loaded & { attempt: number }>({ weeks: 0, stats: null, error: null, attempt: -1 });
  useEffect(() => {
    let live = true;
    api
      .get<RolloutStats>('Dashboard/GetRollout', { params: { weeks }, skipLoading: true, skipErrorHandling: true })
      .then(({ data }) => live && setLoaded({ weeks, stats: data, error: null, attempt }))
      .catch((error: unknown) => live && setLoaded({ weeks, stats: null, error: errorMessage(error), attempt }));
    return () => {
      live = false;
    };
  }, [weeks, attempt]);
  const current = loaded.weeks === weeks && loaded.attempt === attempt;
  return { stats: current ? loaded.stats : null, error: current ? loaded.error : null, loading: !current };
}

/** Each chart's series colours from the console's theme tokens. */
function useColours(): Record<ChartData['id'], string[]> & { other: string } {
  const { token } = theme.useToken();
  return useMemo(
    () => ({
      commissioned: [token.colorPrimaryBorder, token.colorPrimary],
      trackerStatus: [token.colorPrimary],
      // Not gold or blue: those are alarm severities on the chart beside it.
      workOrders: [token.purple],
      alarms: [token[SEVERITY_PALETTE.Critical], token[SEVERITY_PALETTE.Major], token[SEVERITY_PALETTE.Minor], token[SEVERITY_PALETTE.Warning]],
      other: token.colorTextQuaternary,
    }),
    [token],
  );
}

function ChartCard({ chart, colours, onOpen }: { chart: ChartData; colours: string[]; onOpen: (url: string) => void }) {
  const [view, setView] = useState<'Chart' | 'Table'>('Chart');
  const empty = isEmpty(chart);
  return (
    <Card
      title={chart.title}
      size="small"
      style={{ height: '100%' }}
      extra={
        empty ? null : (
          <Segmented<'Chart' | 'Table'> size="small" aria-label={`How ${chart.title} is shown`} options={['Chart', 'Table']} value={view} onChange={setView} />
        )
      }
    >
      {empty ? (
        <Flex align="center" justify="center" style={{ height: 280 }}>
          {/* Said in words, not antd's Empty picture: the first view loads no more than the charts need (issue 48). */}
          <Note>{chart.empty}</Note>
        </Flex>
      ) : view === 'Chart' ? (
        <BarChart chart={chart} colours={colours} onOpen={onOpen} />
      ) : (
        <ChartTable chart={chart} />
      )}
    </Card>
  );
}

function LoadingCards() {
  return (
    <Row gutter={[16, 16]}>
      {[0, 1, 2, 3].map((i) => (
        <Col key={i} xs={24} xl={12}>
          <Card size="small" style={{ height: '100%' }}>
            <Skeleton active title paragraph={{ rows: 7 }} aria-label="Loading the rollout charts" />
          </Card>
        </Col>
      ))}
    </Row>
  );
}

/**
 * The console's own rollout charts (issue 15), drawn from `Dashboard/GetRollout` when no BI server
 * is configured: commissioned sites per week, tracker status, open work orders, alarms per week.
 * A click on a bar (or on its number in the table view) opens the table it counts, filtered.
 */
export default function RolloutCharts() {
  const navigate = useNavigate();
  const [weeks, setWeeks] = useState<number>(DEFAULT_WEEKS);
  const [attempt, setAttempt] = useState(0);
  const { stats, error, loading } = useRollout(weeks, attempt);
  const colours = useColours();
  // Charts and their colours change only with the data or the theme: each chart is drawn once per change.
  // The capabilities as one string: a selector answering a new object would redraw on every store change.
  const granted = useSession((s) => capabilitiesOf(principalOf(s)).join(' '));
  const charts = useMemo(() => {
    const may = new Set(granted.split(' '));
    return (stats ? rolloutCharts(stats, (c) => may.has(c)) : []).map((chart) => ({
      chart,
      colours: chart.series.map((_, i) => colours[chart.id][i] ?? colours.other),
    }));
  }, [stats, colours, granted]);
  const open = useCallback((url: string) => void navigate(url), [navigate]);

  return (
    <Flex vertical gap={16} data-testid="rollout-charts">
      <Flex justify="flex-end">
        {/* Four choices side by side, as each card's Chart | Table: a Select here loaded antd's Select (13 KB gz) for them (issue 48). */}
        <Segmented<number>
          aria-label="Weeks shown"
          size="small"
          value={weeks}
          onChange={setWeeks}
          options={WEEK_CHOICES.map((w) => ({ value: w, label: `${w} weeks`, title: `Last ${w} weeks` }))}
        />
      </Flex>
      {error ? (
        <Alert
          type="error"
          showIcon
          title="The rollout charts could not be loaded."
          description={error}
          action={
            <Button size="small" onClick={() => setAttempt((a) => a + 1)}>
              Retry
            </Button>
          }
        />
      ) : loading ? (
        <LoadingCards />
      ) : (
        <Row gutter={[16, 16]}>
          {charts.map(({ chart, colours: chartColours }) => (
            <Col key={chart.id} xs={24} xl={12}>
              <ChartCard chart={chart} colours={chartColours} onOpen={open} />
            </Col>
          ))}
        </Row>
      )}
    </Flex>
  );
}
