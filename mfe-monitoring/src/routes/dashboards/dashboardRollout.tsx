import { SettingOutlined } from '@ant-design/icons';
import { Button, Tabs } from 'antd';
import { Suspense, lazy, useCallback, useEffect, useState, type ReactNode } from 'react';
import { useNavigate } from 'react-router-dom';
import type { DashboardRecord, DashboardView, ROLLOUT_DASHBOARD_ID as CONTRACT_ROLLOUT_ID } from 'contracts';
import { api, ApiError, can, errorMessage, principalOf, useSession } from 'shared-auth';
import { PageContainer } from 'shared-ui';
import { Failure, Loading } from '../../dashboards/DashboardStates';

export { EMBED_LOAD_TIMEOUT_MS } from '../../dashboards/DashboardStates';
import type { EmbedToken } from '../../dashboards/embeds/adapter';

// The charts' and the map's libraries (chart.js, leaflet) load only when they are shown; the BI frame
// (its adapters, which load powerbi-client or tableau-api-js) only when a BI dashboard is configured (issue 48).
const RolloutCharts = lazy(() => import('../../dashboards/RolloutCharts'));
const BiDashboard = lazy(() => import('../../dashboards/BiDashboard'));
const SiteMap = lazy(() => import('../../map/SiteMap'));
// The settings drawer (its form, validation schema and selects) loads when first opened or pointed at, not with the page.
const loadSettings = () => import('../../dashboards/DashboardSettings');
const DashboardSettingsDrawer = lazy(() => loadSettings().then((m) => ({ default: m.DashboardSettingsDrawer })));

/** The rollout dashboard is record id 2 (specification §9); typed by the API's constant so the two cannot drift apart. */
export const ROLLOUT_DASHBOARD_ID: typeof CONTRACT_ROLLOUT_ID = 2;

async function inspect(userId: number): Promise<DashboardView> {
  // The page says a refusal itself (a BI server that would not mint a token answers 502), so the
  // client's error page and toast stay off and the rest of the console keeps working.
  const { data } = await api.get<{ data: DashboardView }>('Dashboard/Inspect', {
    params: { dashboardId: ROLLOUT_DASHBOARD_ID, userId },
    skipLoading: true,
    skipErrorHandling: true,
  });
  return data.data;
}

const statusOf = (error: unknown) => (error instanceof ApiError ? error.response?.status : undefined);

type Inspection = { key: string; view: DashboardView } | { key: string; failure: string };

/**
 * Dashboard Rollout (specification: id 2, Tableau-type with Export PDF and Fullscreen, PowerBI-type
 * with Fullscreen only): the BI dashboard of record 2 with a token minted by `Dashboard/Inspect`, or
 * the console's own rollout charts when no BI server is configured for it; the site map beside it.
 * Administrators edit the record in Settings.
 */
export default function DashboardRolloutPage() {
  const userId = useSession((s) => s.user.id);
  const isAdministrator = useSession((s) => can(principalOf(s), 'canAdminister'));
  const navigate = useNavigate();
  const [attempt, setAttempt] = useState(0);
  const [inspection, setInspection] = useState<Inspection | null>(null);
  // The last record seen, so Settings can still correct a record whose dashboard now fails to load.
  const [record, setRecord] = useState<DashboardRecord | null>(null);
  const [settingsOpen, setSettingsOpen] = useState(false);
  const [tab, setTab] = useState('dashboard');
  const key = `${userId ?? ''}:${attempt}`;

  useEffect(() => {
    if (userId === null) return;
    let live = true;
    inspect(userId).then(
      (view) => {
        if (!live) return;
        setInspection({ key, view });
        setRecord({ id: view.id, type: view.type, name: view.name, url: view.url, serverId: view.serverId });
      },
      (error: unknown) => {
        if (!live) return;
        // An expired session goes where every 401 goes (specification §8); anything else is said here.
        if (statusOf(error) === 401) navigate('/errors/error-401');
        else setInspection({ key, failure: errorMessage(error) });
      },
    );
    return () => {
      live = false;
    };
  }, [userId, key, navigate]);

  const retry = useCallback(() => setAttempt((a) => a + 1), []);
  const refreshToken = useCallback(async (): Promise<EmbedToken> => {
    if (userId === null) throw new Error('Signed out.');
    try {
      const view = await inspect(userId);
      if (view.accessToken === null) throw new Error('The server minted no token for this dashboard.');
      return { accessToken: view.accessToken, expiresAt: view.expiresAt };
    } catch (error) {
      throw new Error(errorMessage(error), { cause: error });
    }
  }, [userId]);

  const current = inspection?.key === key ? inspection : null;
  let dashboard: ReactNode;
  if (current === null) dashboard = <Loading text="Loading dashboard…" />;
  else if ('failure' in current) dashboard = <Failure message={current.failure} onRetry={retry} />;
  else if (current.view.native)
    dashboard = (
      <Suspense fallback={<Loading text="Loading charts…" />}>
        <RolloutCharts />
      </Suspense>
    );
  else if (current.view.accessToken === null) dashboard = <Failure message="The server minted no token for this dashboard." onRetry={retry} />;
  else
    dashboard = (
      <Suspense fallback={<Loading text="Loading dashboard…" />}>
        <BiDashboard key={key} view={current.view} accessToken={current.view.accessToken} refreshToken={refreshToken} onRetry={retry} />
      </Suspense>
    );

  return (
    <PageContainer
      title="Dashboard Rollout"
      actions={
        isAdministrator ? (
          <Button
            icon={<SettingOutlined />}
            onPointerEnter={() => void loadSettings()}
            onFocus={() => void loadSettings()}
            onClick={() => setSettingsOpen(true)}
          >
            Settings
          </Button>
        ) : undefined
      }
    >
      <Tabs
        activeKey={tab}
        onChange={setTab}
        items={[
          { key: 'dashboard', label: 'Dashboard', children: dashboard },
          {
            key: 'map',
            label: 'Site map',
            children: (
              <Suspense fallback={<Loading text="Loading map…" />}>
                <SiteMap height={560} />
              </Suspense>
            ),
          },
        ]}
      />
      {settingsOpen && (
        <Suspense fallback={null}>
          <DashboardSettingsDrawer
            record={record ?? { id: ROLLOUT_DASHBOARD_ID, type: 'PowerBI', name: 'Dashboard Rollout', url: '', serverId: null }}
            onClose={() => setSettingsOpen(false)}
            onSaved={() => {
              setSettingsOpen(false);
              retry();
            }}
          />
        </Suspense>
      )}
    </PageContainer>
  );
}
