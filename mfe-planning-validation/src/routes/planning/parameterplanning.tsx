import { PlayCircleOutlined, TableOutlined } from '@ant-design/icons';
import { Button, Card, Checkbox, Flex, Select } from 'antd';
import { lazy, Suspense, useState, type ReactNode } from 'react';
import type { RunResponse, SiteOption } from 'contracts';
import { api, can, errorMessage, principalOf, useSession } from 'shared-auth';
import {
  Callout,
  InfoBanner,
  LazyJobProgressBar,
  Note,
  PageContainer,
  RunHistoryTable,
  RunResultCard,
  SiteParamNotice,
  SiteSelect,
  SITE_OPTION_LIMIT,
  useShownRun,
  useApiGet,
  useFollowedJob,
  useShownOnce,
  useSiteParam,
} from 'shared-ui';
import { RUN_ROUTES } from '../../validation/validationRun';
import { LTE_BANDS } from '../../planning/lteBands';

// The plans drawer (its table, form and number inputs) loads when first opened (or pointed at), not with the page.
const loadFrequencyPlans = () => import('../../planning/frequencyPlans');
const FrequencyPlansDrawer = lazy(() => loadFrequencyPlans().then((m) => ({ default: m.FrequencyPlansDrawer })));
// The Discard button and its confirmation come only with a run shown, so they load with it, not with the page (issue 48's 350 KB page budget).
const DiscardPlanButton = lazy(() => import('../../planning/discardPlan').then((m) => ({ default: m.DiscardPlanButton })));

/** Form choices and defaults (specification §3, §9). */
export const ANTENNAS = ['AIR3227/78', 'AIR6488'] as const;
export { LTE_BANDS };
export const DEFAULT_ANTENNA = 'AIR3227/78';
export const DEFAULT_LTE_BANDS = ['L800', 'L1800', 'L2100'];

/** Job kind of the run (the API's `planning.parameters`): its `JobProgress` events feed the bar. */
export const PLANNING_JOB_KIND = 'planning.parameters';

const PLANNING = 'Planning…';

/** The server's typed search: at most 20 options (specification §5). */
async function findSites(query: string): Promise<SiteOption[]> {
  const { data } = await api.get<SiteOption[]>('Parameters/GetSiteList', { params: { query }, skipLoading: true });
  return data;
}

interface PlanningForm {
  /** One site, or a cluster planned together (issue 46). */
  siteIds?: string[];
  antenna: string;
  lteBands: string[];
  /** Plan a site's existing NR cells anew instead of keeping their NR-ARFCN, PCIs and TAC. */
  replanExisting: boolean;
}

/** A control with its name before it, as an inline form lays it out; it wraps whole onto the next row. */
function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Flex align="center" gap={8} style={{ maxWidth: '100%' }}>
      <span style={{ whiteSpace: 'nowrap' }}>{label}:</span>
      {/* Shrinks on a phone, so a select of its own width stays inside the card. */}
      <div style={{ minWidth: 0, flex: '0 1 auto' }}>{children}</div>
    </Flex>
  );
}

type Outcome = { result: RunResponse } | { refused: string };

export default function ParameterPlanningPage() {
  const userId = useSession((s) => s.user.id);
  const isAdministrator = useSession((s) => can(principalOf(s), 'canAdminister'));
  // The sites are the address's `?site=A,B` (issue 47): a link or a move from the site report selects them, a choice is written back.
  const { sites: siteIds, unknown, setSites } = useSiteParam(findSites);
  // Plain state, not antd's Form: four controls with no rules needed none of its 14 KB gz (issue 48's page budget).
  const [antenna, setAntenna] = useState<string>(DEFAULT_ANTENNA);
  const [lteBands, setLteBands] = useState<string[]>(DEFAULT_LTE_BANDS);
  const [replanExisting, setReplanExisting] = useState(false);
  // Bumped after each run: the history fetches again.
  const [version, setVersion] = useState(0);
  const [running, setRunning] = useState(false);
  const [discards, setDiscards] = useState(0);
  const { job, follow } = useFollowedJob(PLANNING_JOB_KIND);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const [shownRun, showRun] = useShownRun();
  const [plansOpen, setPlansOpen] = useState(false);
  const plansMounted = useShownOnce(plansOpen);
  const dumpDate = useApiGet<string | null>('Parameters/GetLastDumpDate', null);

  const run = async (values: PlanningForm) => {
    const sites = values.siteIds ?? [];
    if (sites.length === 0 || userId === null) return;
    setRunning(true);
    setOutcome(null);
    try {
      // The refusal is said once, inline under the form, so the API client's toast stays off.
      const { data } = await follow(() =>
        api.get<RunResponse>('Parameters/RunParameterPlanning', {
          params: {
            siteId: sites.join(','),
            antenna: values.antenna,
            lteBands: values.lteBands.join(','),
            userId,
            ...(values.replanExisting ? { replanExisting: true } : {}),
          },
          skipLoading: true,
          skipErrorHandling: true,
        }),
      );
      setOutcome({ result: data });
      showRun(data.runId);
    } catch (error) {
      setOutcome({ refused: errorMessage(error) });
    } finally {
      setRunning(false);
      setVersion((v) => v + 1);
    }
  };

  const tooMany = siteIds.length > SITE_OPTION_LIMIT;
  const ready = siteIds.length > 0 && !tooMany && lteBands.length > 0 && userId !== null;

  return (
    <PageContainer
      title="Parameter Planning"
      actions={
        <Button
          icon={<TableOutlined />}
          onPointerEnter={() => void loadFrequencyPlans()}
          onFocus={() => void loadFrequencyPlans()}
          onClick={() => setPlansOpen(true)}
        >
          Frequency plans
        </Button>
      }
    >
      <InfoBanner label="Last dump" date={dumpDate.data || null} loading={dumpDate.loading} fallback="Dump date unavailable!" />
      <Card title="Parameter Planning" size="small">
        <Flex vertical gap={12}>
          {/* Every control is held while a run is in flight (each says so itself: the console has one ConfigProvider). */}
          <Flex wrap gap={8} style={{ columnGap: 16 }} align="center">
            {/* One site or a cluster: neighbouring sites planned together get PCIs chosen against each other. */}
            <Field label="Sites">
              {/* A width of its own, as on every other page: the site names were cut to 'LX0001 – …'. */}
              <SiteSelect
                multiple
                value={siteIds}
                onChange={(value) => setSites(Array.isArray(value) ? value : [value])}
                source={findSites}
                style={{ width: 320, maxWidth: '100%' }}
                disabled={running}
              />
            </Field>
            <Field label="Antenna">
              <Select
                aria-label="Antenna"
                disabled={running}
                value={antenna}
                onChange={setAntenna}
                style={{ width: 160 }}
                options={ANTENNAS.map((a) => ({ value: a, label: a }))}
              />
            </Field>
            {/* Never wider than the card: on a phone the field and its select are held to the row. */}
            <Field label="LTE Bands">
              <Select
                aria-label="LTE Bands"
                disabled={running}
                mode="multiple"
                value={lteBands}
                onChange={setLteBands}
                style={{ width: 260, maxWidth: '100%' }}
                options={LTE_BANDS.map((b) => ({ value: b, label: b }))}
              />
            </Field>
            <Checkbox disabled={running} checked={replanExisting} onChange={(e) => setReplanExisting(e.target.checked)}>
              Replan existing NR cells
            </Checkbox>
            <Button
              type="primary"
              icon={<PlayCircleOutlined />}
              disabled={!ready}
              loading={running}
              onClick={() => void run({ siteIds, antenna, lteBands, replanExisting })}
            >
              Run Parameter Planning
            </Button>
          </Flex>
          <SiteParamNotice unknown={unknown} />
          {tooMany && <Note>At most {SITE_OPTION_LIMIT} sites in one run.</Note>}
          {running && <LazyJobProgressBar job={job} label="Planning progress" pendingText={PLANNING} testId="run-progress" style={{ maxWidth: 480 }} />}
          {outcome && 'refused' in outcome && <Callout type="error" title={outcome.refused} data-testid="planning-refusal" />}
        </Flex>
      </Card>
      {shownRun !== null && (
        <Flex vertical gap={8}>
          {/* Remounted after a discard: the result reads the run again, now 'Discarded'. */}
          <RunResultCard key={`${shownRun}:${discards}`} runId={shownRun} routes={RUN_ROUTES.parameterPlanning} title="Parameter Planning Result" />
          <Flex justify="flex-end">
            <Suspense fallback={null}>
              <DiscardPlanButton
                runId={shownRun}
                onDiscarded={() => {
                  setDiscards((n) => n + 1);
                  setVersion((v) => v + 1);
                }}
              />
            </Suspense>
          </Flex>
        </Flex>
      )}
      <RunHistoryTable
        caption="Parameter Planning History"
        historyPath="Parameters/GetPlanningHistory"
        routes={RUN_ROUTES.parameterPlanning}
        onOpen={showRun}
        fields={['user', 'site', 'antenna', 'lteBands']}
        reloadKey={version}
      />
      {plansMounted && (
        <Suspense fallback={null}>
          <FrequencyPlansDrawer open={plansOpen} onClose={() => setPlansOpen(false)} canEdit={isAdministrator} />
        </Suspense>
      )}
    </PageContainer>
  );
}
