import { ExpandOutlined, FilePdfOutlined, ReloadOutlined, SettingOutlined } from '@ant-design/icons';
import { Alert, Button, Card, Flex, Spin, Tabs, Typography } from 'antd';
import { Suspense, lazy, useCallback, useEffect, useRef, useState, type ReactNode } from 'react';
import { useNavigate } from 'react-router-dom';
import type { DashboardRecord, DashboardType, DashboardView, ROLLOUT_DASHBOARD_ID as CONTRACT_ROLLOUT_ID } from 'api/contracts';
import { api, ApiError, can, errorMessage, principalOf, useSession } from 'shared-auth';
import { Note, PageContainer } from 'shared-ui';
import type { CreateEmbed, EmbedAdapter, EmbedToken } from '../../dashboards/embeds/adapter';
import { createPowerBiEmbed } from '../../dashboards/embeds/powerbi';
import { createTableauEmbed } from '../../dashboards/embeds/tableau';

// The charts' and the map's libraries (chart.js, leaflet) load only when they are shown.
const RolloutCharts = lazy(() => import('../../dashboards/RolloutCharts'));
const SiteMap = lazy(() => import('../../map/SiteMap'));
// The settings drawer (its form, validation schema and selects) loads when first opened or pointed at, not with the page.
const loadSettings = () => import('../../dashboards/DashboardSettings');
const DashboardSettingsDrawer = lazy(() => loadSettings().then((m) => ({ default: m.DashboardSettingsDrawer })));

/** The rollout dashboard is record id 2 (specification §9); typed by the API's constant so the two cannot drift apart. */
export const ROLLOUT_DASHBOARD_ID: typeof CONTRACT_ROLLOUT_ID = 2;

/** A dashboard that neither loads nor fails within this time is said to have failed. */
export const EMBED_LOAD_TIMEOUT_MS = 30_000;

/** Each adapter loads its own library (powerbi-client, tableau-api-js) when it is created. */
const EMBEDS: Record<DashboardType, CreateEmbed> = { PowerBI: createPowerBiEmbed, Tableau: createTableauEmbed };

const LOAD_FAILED = 'The dashboard could not be loaded';

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

function Loading({ text }: { text: string }) {
  return (
    <Flex vertical align="center" justify="center" gap={12} style={{ minHeight: 240 }} role="status">
      <Spin />
      <Note>{text}</Note>
    </Flex>
  );
}

function Failure({ message, onRetry }: { message: string; onRetry: () => void }) {
  return (
    <Alert
      type="error"
      showIcon
      role="alert"
      title={LOAD_FAILED}
      description={message}
      data-testid="dashboard-failure"
      action={
        <Button icon={<ReloadOutlined />} onClick={onRetry}>
          Retry
        </Button>
      }
    />
  );
}

type EmbedStatus = { phase: 'loading' } | { phase: 'loaded'; warning: string | null } | { phase: 'failed'; message: string };

/**
 * A BI dashboard in its frame: the adapter of the record's type embeds it, the page shows loading,
 * loaded or failed (error event, or nothing within the timeout), and offers the type's buttons.
 */
function BiDashboard({
  view,
  accessToken,
  refreshToken,
  onRetry,
}: {
  view: DashboardView;
  accessToken: string;
  refreshToken: () => Promise<EmbedToken>;
  onRetry: () => void;
}) {
  const containerRef = useRef<HTMLDivElement>(null);
  const adapterRef = useRef<EmbedAdapter | null>(null);
  const [status, setStatus] = useState<EmbedStatus>({ phase: 'loading' });

  useEffect(() => {
    const container = containerRef.current;
    if (!container) return;
    let live = true;
    let adapter: EmbedAdapter | null = null;
    // Before it has loaded, a failure replaces the dashboard; afterwards the user keeps what they see and is told.
    const fail = (message: string) => {
      if (live) setStatus((s) => (s.phase === 'loaded' ? { phase: 'loaded', warning: message } : { phase: 'failed', message }));
    };
    const timeout = setTimeout(() => fail(`The dashboard did not load within ${EMBED_LOAD_TIMEOUT_MS / 1000} seconds.`), EMBED_LOAD_TIMEOUT_MS);
    EMBEDS[view.type]({
      container,
      url: view.url,
      title: view.name,
      token: { accessToken, expiresAt: view.expiresAt },
      onLoaded: () => {
        clearTimeout(timeout);
        if (live) setStatus({ phase: 'loaded', warning: null });
      },
      onError: fail,
      refreshToken,
    }).then(
      (created) => {
        if (!live) created.dispose();
        else adapter = adapterRef.current = created;
      },
      (error: unknown) => {
        clearTimeout(timeout);
        fail(error instanceof Error ? error.message : String(error));
      },
    );
    return () => {
      live = false;
      clearTimeout(timeout);
      adapter?.dispose();
      adapterRef.current = null;
    };
  }, [view, accessToken, refreshToken]);

  const loaded = status.phase === 'loaded';
  return (
    <Card size="small">
      {/* A toolbar row rather than the card's header: on a phone the buttons wrap under the name instead of cutting it. */}
      <Flex justify="space-between" align="center" wrap gap={8} style={{ marginBottom: 12 }}>
        <Typography.Text strong>{view.name}</Typography.Text>
        <Flex gap={8} wrap>
          {view.type === 'Tableau' && (
            <Button icon={<FilePdfOutlined />} disabled={!loaded} onClick={() => adapterRef.current?.exportPdf?.()}>
              Export PDF
            </Button>
          )}
          <Button icon={<ExpandOutlined />} disabled={!loaded} onClick={() => adapterRef.current?.fullscreen()}>
            Fullscreen
          </Button>
        </Flex>
      </Flex>
      <Flex vertical gap={12}>
        {status.phase === 'failed' && <Failure message={status.message} onRetry={onRetry} />}
        {status.phase === 'loaded' && status.warning !== null && (
          <Alert
            type="warning"
            showIcon
            role="alert"
            title={status.warning}
            action={
              <Button size="small" icon={<ReloadOutlined />} onClick={onRetry}>
                Retry
              </Button>
            }
          />
        )}
        <div style={{ position: 'relative', display: status.phase === 'failed' ? 'none' : 'block' }}>
          <div
            ref={containerRef}
            data-testid="dashboard-frame"
            aria-busy={status.phase === 'loading'}
            style={{ height: 'max(480px, calc(100vh - 300px))', width: '100%', background: '#fff' }}
          />
          {status.phase === 'loading' && (
            <div style={{ position: 'absolute', inset: 0, background: 'rgba(255, 255, 255, 0.85)' }}>
              <Loading text="Loading dashboard…" />
            </div>
          )}
        </div>
      </Flex>
    </Card>
  );
}

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
  else dashboard = <BiDashboard key={key} view={current.view} accessToken={current.view.accessToken} refreshToken={refreshToken} onRetry={retry} />;

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
