import { ExpandOutlined, FilePdfOutlined, ReloadOutlined } from '@ant-design/icons';
import { Alert, Button, Card, Flex, Typography } from 'antd';
import { useEffect, useRef, useState } from 'react';
import type { DashboardType, DashboardView } from 'contracts';
import { EMBED_LOAD_TIMEOUT_MS, Failure, Loading } from './DashboardStates';
import type { CreateEmbed, EmbedAdapter, EmbedToken } from './embeds/adapter';
import { createPowerBiEmbed } from './embeds/powerbi';
import { createTableauEmbed } from './embeds/tableau';

// Loaded by the rollout dashboard page only when its record names a BI server (issue 48): the console's
// own charts, the usual first view, do not load the adapters or the frame.

/** Each adapter loads its own library (powerbi-client, tableau-api-js) when it is created. */
const EMBEDS: Record<DashboardType, CreateEmbed> = { PowerBI: createPowerBiEmbed, Tableau: createTableauEmbed };

type EmbedStatus = { phase: 'loading' } | { phase: 'loaded'; warning: string | null } | { phase: 'failed'; message: string };

/**
 * A BI dashboard in its frame: the adapter of the record's type embeds it, the page shows loading,
 * loaded or failed (error event, or nothing within the timeout), and offers the type's buttons.
 */
export default function BiDashboard({
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
