import { PlayCircleOutlined, TableOutlined } from '@ant-design/icons';
import { Button, Card, Checkbox, Flex, Form, Select } from 'antd';
import { lazy, Suspense, useState } from 'react';
import type { RunResponse, SiteOption } from 'api/contracts';
import { api, can, errorMessage, principalOf, useSession } from 'shared-auth';
import {
  Callout,
  InfoBanner,
  LazyJobProgressBar,
  Note,
  PageContainer,
  RunHistoryTable,
  RunResultCard,
  SiteSelect,
  SITE_OPTION_LIMIT,
  useShownRun,
  useApiGet,
  useFollowedJob,
  useShownOnce,
} from 'shared-ui';
import { RUN_ROUTES } from '../../validation/validationRun';
import { DiscardPlanButton } from '../../planning/discardPlan';
import { LTE_BANDS } from '../../planning/lteBands';

// The plans drawer (its table, form and number inputs) loads when first opened (or pointed at), not with the page.
const loadFrequencyPlans = () => import('../../planning/frequencyPlans');
const FrequencyPlansDrawer = lazy(() => loadFrequencyPlans().then((m) => ({ default: m.FrequencyPlansDrawer })));

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

type Outcome = { result: RunResponse } | { refused: string };

export default function ParameterPlanningPage() {
  const userId = useSession((s) => s.user.id);
  const isAdministrator = useSession((s) => can(principalOf(s), 'canAdminister'));
  const [form] = Form.useForm<PlanningForm>();
  const siteIds = Form.useWatch('siteIds', form);
  const lteBands = Form.useWatch('lteBands', form);
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

  const tooMany = Array.isArray(siteIds) && siteIds.length > SITE_OPTION_LIMIT;
  const ready = Array.isArray(siteIds) && siteIds.length > 0 && !tooMany && Array.isArray(lteBands) && lteBands.length > 0 && userId !== null;

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
          <Form<PlanningForm>
            form={form}
            layout="inline"
            // Inline items keep no space below them: a wrapped row (the run button on a desktop, every field on a phone) touched the one above.
            style={{ rowGap: 8 }}
            initialValues={{ antenna: DEFAULT_ANTENNA, lteBands: DEFAULT_LTE_BANDS, replanExisting: false }}
            onFinish={(values) => void run(values)}
            disabled={running}
          >
            {/* One site or a cluster: neighbouring sites planned together get PCIs chosen against each other. */}
            <Form.Item label="Sites" name="siteIds" style={{ maxWidth: '100%' }}>
              {/* A width of its own, as on every other page: an inline form item shrinks to its content, and the site names were cut to 'LX0001 – …'. */}
              <SiteSelect multiple source={findSites} style={{ width: 320, maxWidth: '100%' }} />
            </Form.Item>
            <Form.Item label="Antenna" name="antenna">
              <Select aria-label="Antenna" style={{ width: 160 }} options={ANTENNAS.map((a) => ({ value: a, label: a }))} />
            </Form.Item>
            {/* Never wider than the card: an inline form item keeps its content's width, so on a phone the item and the select are held to the row. */}
            <Form.Item label="LTE Bands" name="lteBands" style={{ maxWidth: '100%' }}>
              <Select
                aria-label="LTE Bands"
                mode="multiple"
                style={{ width: 260, maxWidth: '100%' }}
                options={LTE_BANDS.map((b) => ({ value: b, label: b }))}
              />
            </Form.Item>
            <Form.Item name="replanExisting" valuePropName="checked">
              <Checkbox>Replan existing NR cells</Checkbox>
            </Form.Item>
            <Form.Item>
              <Button type="primary" htmlType="submit" icon={<PlayCircleOutlined />} disabled={!ready} loading={running}>
                Run Parameter Planning
              </Button>
            </Form.Item>
          </Form>
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
            <DiscardPlanButton
              runId={shownRun}
              onDiscarded={() => {
                setDiscards((n) => n + 1);
                setVersion((v) => v + 1);
              }}
            />
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
