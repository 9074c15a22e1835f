import { Layout, Menu, Result, Spin, Typography } from 'antd';
import { lazy, Suspense, useMemo } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter, Link, Navigate, Route, Routes, useLocation } from 'react-router-dom';
import { ConsoleProviders } from '../widgets/ConsoleProviders';
import { menuOf, type RemoteManifest } from './manifest';

/**
 * A small local frame so a team can run its remote alone (`npm run dev -w mfe-…`): the same
 * providers as the shell, a menu of the remote's own pages, no guard. API calls are proxied to a
 * running API by the dev server.
 */
function StandaloneFrame({ manifest }: { manifest: RemoteManifest }) {
  const location = useLocation();
  const pages = useMemo(() => manifest.routes.map((r) => ({ ...r, Page: lazy(r.load) })), [manifest]);
  const menu = useMemo(() => menuOf(manifest.routes), [manifest]);
  return (
    <Layout style={{ minHeight: '100vh' }}>
      <Layout.Sider width={260} theme="light">
        <Typography.Title level={5} style={{ padding: 16, margin: 0 }}>
          {manifest.id} (standalone)
        </Typography.Title>
        <Menu selectedKeys={[location.pathname]} items={menu.map((m) => ({ key: m.path, icon: m.icon, label: <Link to={m.path}>{m.label}</Link> }))} />
      </Layout.Sider>
      <Layout.Content style={{ padding: 24 }}>
        <Suspense fallback={<Spin />}>
          <Routes>
            {pages.map(({ path, Page }) => (
              <Route key={path} path={path} element={<Page />} />
            ))}
            <Route path="/" element={<Navigate to={menu[0]?.path ?? '/'} replace />} />
            <Route path="*" element={<Result status="404" title="Not a page of this remote" />} />
          </Routes>
        </Suspense>
      </Layout.Content>
    </Layout>
  );
}

export function mountStandalone(manifest: RemoteManifest): void {
  const container = document.getElementById('root');
  if (!container) throw new Error('standalone.html has no #root element');
  createRoot(container).render(
    <ConsoleProviders>
      <BrowserRouter>
        <StandaloneFrame manifest={manifest} />
      </BrowserRouter>
    </ConsoleProviders>,
  );
}
