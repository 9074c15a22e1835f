import { Result, Spin } from 'antd';
import { lazy, useState, type LazyExoticComponent, type ComponentType } from 'react';
import { BrowserRouter, Navigate, Route, Routes } from 'react-router-dom';
import type { RemoteLocation, RemoteRoute } from 'shared-ui';
import { RemoteBoundary } from './federation/RemoteBoundary';
import { useRemotes } from './federation/useRemotes';
import { BareLayout } from './layouts/BareLayout';
import { MainLayout } from './layouts/MainLayout';
import { ErrorPage } from './routes/errors/ErrorPage';
import HomePage from './routes/home/home';

const lazyPages = new WeakMap<RemoteRoute, Map<number, LazyExoticComponent<ComponentType>>>();

/** One lazy component per route and attempt: React caches a failed import, so Retry needs a fresh one. */
function lazyPage(route: RemoteRoute, attempt: number): LazyExoticComponent<ComponentType> {
  const byAttempt = lazyPages.get(route) ?? new Map<number, LazyExoticComponent<ComponentType>>();
  lazyPages.set(route, byAttempt);
  let page = byAttempt.get(attempt);
  if (!page) {
    page = lazy(route.load);
    byAttempt.set(attempt, page);
  }
  return page;
}

function RemotePage({ route, attempt }: { route: RemoteRoute; attempt: number }) {
  const Page = lazyPage(route, attempt);
  // Pages come from remote manifests at run time; lazyPage caches them, so identity is stable across renders.
  // eslint-disable-next-line react-hooks/static-components
  return <Page />;
}

function RemoteArea({
  location,
  status,
  route,
  retry,
}: {
  location: RemoteLocation;
  status: 'loading' | 'ready' | 'unavailable';
  route?: RemoteRoute;
  retry: () => void;
}) {
  const [attempt, setAttempt] = useState(0);
  return (
    <RemoteBoundary
      remote={location.name}
      status={status}
      onRetry={() => {
        setAttempt((a) => a + 1);
        retry();
      }}
    >
      {route ? <RemotePage key={attempt} route={route} attempt={attempt} /> : null}
    </RemoteBoundary>
  );
}

export function ConsoleApp() {
  const remotes = useRemotes();
  if (remotes.configError) {
    return <Result status="500" title="The console could not start" subTitle={`Runtime configuration unavailable: ${remotes.configError}`} />;
  }
  if (!remotes.configLoaded) return <Spin size="large" fullscreen />;
  return (
    <BrowserRouter>
      <Routes>
        <Route path="/" element={<Navigate to="/home" replace />} />
        <Route element={<MainLayout remotes={remotes} />}>
          <Route path="/home" element={<HomePage />} />
          {remotes.locations.flatMap((location) => {
            const manifest = remotes.manifests[location.name];
            const status = remotes.status[location.name] ?? 'loading';
            const retry = () => remotes.retry(location.name);
            if (manifest && status === 'ready') {
              return manifest.routes.map((route) => (
                <Route key={route.path} path={route.path} element={<RemoteArea location={location} status="ready" route={route} retry={retry} />} />
              ));
            }
            // Until the manifest arrives (or while its remote is down) every path it owns shows the area's status.
            return location.prefixes.map((prefix) => (
              <Route key={prefix} path={`${prefix}/*`} element={<RemoteArea location={location} status={status} retry={retry} />} />
            ));
          })}
        </Route>
        <Route element={<BareLayout />}>
          <Route path="/errors/error-401" element={<ErrorPage status={401} />} />
          <Route path="/errors/error-404" element={<ErrorPage status={404} />} />
          <Route path="/errors/error-500" element={<ErrorPage status={500} />} />
        </Route>
        <Route path="*" element={<Navigate to="/errors/error-404" replace />} />
      </Routes>
    </BrowserRouter>
  );
}
