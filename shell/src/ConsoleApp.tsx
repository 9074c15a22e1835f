import { lazy, memo, startTransition, Suspense, useEffect, useState, type ComponentType, type ReactNode } from 'react';
import { BrowserRouter, Navigate, Route, Routes, useLocation } from 'react-router-dom';
import { isTokenLive, loadUserInfo, useSession } from 'shared-auth';
import { AreaLoading, PageContainerLoading, type RemoteLocation } from 'shared-ui';
import { RemoteBoundary } from './federation/RemoteBoundary';
import { HOME_TITLE } from './home/title';
import { loadPage, manifestGeneration } from './federation/remotes';
import { useRemotes } from './federation/useRemotes';
import { BareLayout } from './layouts/BareLayout';
import { MainLayout } from './layouts/MainLayout';
import { NotificationHub } from './notifications/NotificationHub';
import { RequireCapability } from './session/RequireCapability';
import { ApiClientBridge } from './widgets/ApiClientBridge';
import { BootFrameDone, StartPending } from './widgets/BootFrame';
import { CookieConsent } from './widgets/CookieConsent';
import { IdleWarning } from './widgets/IdleWarning';
import { LoadingOverlay } from './widgets/LoadingOverlay';
import { PageScope } from './widgets/PageScope';

// The shell's own pages load when visited, so /home carries none of their forms, tabs and lists, and a
// remote's page none of home's. Home's code is asked for at once when the console opens on it.
const loadHomePage = () => import('./routes/home');
if (window.location.pathname === '/' || window.location.pathname.toLowerCase().startsWith('/home')) void loadHomePage();
const HomePage = lazy(loadHomePage);
const SettingsPage = lazy(() => import('./routes/management/settings'));
const NotificationsPage = lazy(() => import('./routes/notifications'));
const ErrorPage = lazy(() => import('./errors/ErrorPage').then((m) => ({ default: m.ErrorPage })));
const StartFailure = lazy(() => import('./errors/StartFailure'));

/** A lazily loaded page of the shell, with the same loading state as a remote's. */
function ShellPage({ children }: { children: ReactNode }) {
  return (
    <PageScope>
      <Suspense fallback={<AreaLoading />}>{children}</Suspense>
    </PageScope>
  );
}

function errorPage(status: 401 | 404 | 500) {
  return (
    <ShellPage key={status}>
      <ErrorPage status={status} />
    </ShellPage>
  );
}

const lazyPages = new Map<string, ComponentType>();

/**
 * One lazy component per remote page, load of its remote and attempt: React caches a failed import, so
 * Retry needs a fresh one. The page's remote is loaded by the first of its pages opened (loadPage).
 */
function lazyPage(location: RemoteLocation, path: string, attempt: number): ComponentType {
  // A page whose remote failed is made anew once the remote is retried, wherever the Retry was clicked.
  const key = `${location.name} ${path} ${manifestGeneration(location.name)} ${attempt}`;
  let page = lazyPages.get(key);
  if (!page) {
    // Memoised: a page takes no props, so the shell's own updates (a remote's health, a navigation
    // arriving, the menu) never draw the page again.
    page = memo(lazy(() => loadPage(location, path)));
    lazyPages.set(key, page);
  }
  return page;
}

function RemotePage({ location, path, attempt }: { location: RemoteLocation; path: string; attempt: number }) {
  const Page = lazyPage(location, path, attempt);
  // Pages come from remotes at run time; lazyPage caches them, so identity is stable across renders.
  // eslint-disable-next-line react-hooks/static-components
  return <Page />;
}

function RemoteArea({
  location,
  status,
  path,
  title,
  retry,
}: {
  location: RemoteLocation;
  status: 'loading' | 'ready' | 'unavailable';
  path?: string;
  title?: string;
  retry: () => void;
}) {
  const [attempt, setAttempt] = useState(0);
  return (
    <RemoteBoundary
      remote={location.name}
      status={status}
      title={title}
      onRetry={() => {
        setAttempt((a) => a + 1);
        retry();
      }}
    >
      {path ? (
        <PageScope key={path}>
          <RemotePage key={attempt} location={location} path={path} attempt={attempt} />
        </PageScope>
      ) : null}
    </RemoteBoundary>
  );
}

/**
 * A path of the signed-out pages met inside the console (a link, history Back): the server answers it
 * with the signed-out entry, so the browser loads it afresh.
 */
function FullPageLoad() {
  const { pathname, search } = useLocation();
  useEffect(() => window.location.replace(pathname + search), [pathname, search]);
  return null;
}

/** On start, an unexpired stored token gets its user loaded before any guard decides (specification §4). */
function useSessionStart(): boolean {
  const [ready, setReady] = useState(false);
  useEffect(() => {
    // A transition: the whole console is drawn in slices, not in one long task.
    void loadUserInfo().finally(() => startTransition(() => setReady(true)));
  }, []);
  return ready;
}

export function ConsoleApp() {
  const sessionReady = useSessionStart();
  const signedIn = useSession((s) => isTokenLive(s.token));
  // A live token is enough to start on the remotes (static files): the navigations and the opened page's
  // code load while the user's details are asked for, not after. A session the server has ended sends
  // the user to the login page all the same; what was fetched meanwhile is only unused.
  const remotes = useRemotes(signedIn);
  if (remotes.configError) {
    return (
      <Suspense fallback={<StartPending />}>
        <BootFrameDone />
        <StartFailure reason={remotes.configError} />
      </Suspense>
    );
  }
  if (!remotes.configLoaded || !sessionReady) return <StartPending />;
  return (
    <BrowserRouter>
      <BootFrameDone />
      <ApiClientBridge />
      <LoadingOverlay />
      <IdleWarning />
      <NotificationHub />
      <CookieConsent />
      <Routes>
        <Route path="/" element={<Navigate to="/home" replace />} />
        <Route
          element={
            <RequireCapability capability="authenticated">
              <MainLayout remotes={remotes} />
            </RequireCapability>
          }
        >
          <Route
            path="/home"
            element={
              <PageScope>
                <Suspense fallback={<PageContainerLoading title={HOME_TITLE} />}>
                  <HomePage />
                </Suspense>
              </PageScope>
            }
          />
          <Route
            path="/management/settings/:tab?"
            element={
              // Keyed: React would otherwise keep one page scope across the shell's pages.
              <ShellPage key="settings">
                <SettingsPage />
              </ShellPage>
            }
          />
          <Route
            path="/notifications"
            element={
              <ShellPage key="notifications">
                <NotificationsPage />
              </ShellPage>
            }
          />
          {remotes.locations.flatMap((location) => {
            const navigation = remotes.navigations[location.name];
            const status = remotes.status[location.name] ?? 'loading';
            const retry = () => remotes.retry(location.name);
            if (navigation && status === 'ready') {
              return navigation.routes.map((route) => (
                <Route
                  key={route.path}
                  path={route.path}
                  element={
                    <RequireCapability capability={route.capability}>
                      <RemoteArea location={location} status="ready" path={route.path} title={route.title} retry={retry} />
                    </RequireCapability>
                  }
                />
              ));
            }
            // Until the navigation arrives (or while its remote is down) every path it owns shows the area's status.
            return location.prefixes.map((prefix) => (
              <Route key={prefix} path={`${prefix}/*`} element={<RemoteArea location={location} status={status} retry={retry} />} />
            ));
          })}
        </Route>
        {/* The signed-out pages are their own entry (src/signin, auth.html): reaching one from here takes a full load. */}
        <Route path="/auth/*" element={<FullPageLoad />} />
        {/* A signed-in user meets a refused or unknown page inside the console, with its menu to go on from. */}
        <Route element={signedIn ? <MainLayout remotes={remotes} /> : <BareLayout />}>
          <Route path="/errors/error-401" element={errorPage(401)} />
          <Route path="/errors/error-404" element={errorPage(404)} />
        </Route>
        {/* The server failed: nothing around it that could fail too. */}
        <Route element={<BareLayout />}>
          <Route path="/errors/error-500" element={errorPage(500)} />
        </Route>
        <Route path="*" element={<Navigate to="/errors/error-404" replace />} />
      </Routes>
    </BrowserRouter>
  );
}
