import { LogoutOutlined, MenuOutlined } from '@ant-design/icons';
import { Button, Flex, Grid, Layout } from 'antd';
import { lazy, Suspense, useEffect, useState } from 'react';
import { Link, Outlet } from 'react-router-dom';
import { logout, useSession } from 'shared-auth';
import { useToastRoom } from 'shared-ui';
import type { RemotesView } from '../federation/useRemotes';
import { NotificationBell } from '../notifications/NotificationBell';
import { SCREEN_HEIGHT, UNCOVERED_HEIGHT } from '../widgets/CookieConsent';
import { OperatorSwitcher } from './OperatorSwitcher';
import { SiteSearch } from './SiteSearch';
import { SideNavigation } from './SideNavigation';

const NavigationDrawer = lazy(() => import('./NavigationDrawer'));

function Logo({ withName }: { withName: boolean }) {
  return (
    <Link to="/home" aria-label="Cellwise home" style={{ display: 'flex', alignItems: 'center', gap: 8 }}>
      <img src="/favicon.svg" alt="" width={28} height={28} />
      {withName && <span style={{ fontSize: 18, fontWeight: 600, color: '#0b6e79' }}>Cellwise</span>}
    </Link>
  );
}

/** How long the side menu waits for a remote that neither loads nor fails before showing what it has. */
export const MENU_WAIT_MS = 4000;

/**
 * True once every remote's navigation has loaded or failed (or MENU_WAIT_MS has passed), and from then
 * on: the menu is drawn once, complete, instead of Home and Settings first and the groups popping in
 * as remotes answer. A cached copy of the last menu would show sooner, but it goes stale with every
 * deployment or change of role, and the first visit would still pop; the navigations (a small JSON
 * file per remote) are asked for as soon as the session starts. A Retry later (status back to loading)
 * keeps the menu.
 */
function useMenuReady(remotes: RemotesView): boolean {
  // 'ready' is reported a moment before the navigation itself reaches the view: wait for it.
  const settled = remotes.locations.every(
    (l) => remotes.status[l.name] === 'unavailable' || (remotes.status[l.name] === 'ready' && remotes.navigations[l.name] !== undefined),
  );
  const [waited, setWaited] = useState(false);
  const [ready, setReady] = useState(settled);
  if (settled && !ready) setReady(true);
  useEffect(() => {
    if (ready) return;
    const timer = setTimeout(() => setWaited(true), MENU_WAIT_MS);
    return () => clearTimeout(timer);
  }, [ready]);
  return ready || waited;
}

/**
 * Room kept below every page for a toast (specification §9: bottom right, 4 s): one toast of a title
 * (64 px) and its 24 px from the screen's bottom. Scrolled to its end, a page's last row and pager lie
 * above the toast instead of under it: on Users it covered the last row's actions (issue 47). While
 * more toasts stack up, useToastRoom grows the room to the stack.
 */
const TOAST_ROOM = 88;

/** The main layout: top bar and side navigation around every signed-in page. */
export function MainLayout({ remotes }: { remotes: RemotesView }) {
  const screens = Grid.useBreakpoint();
  // Breakpoints are unknown on the first render; assume a wide screen rather than flash the drawer.
  const small = screens.lg === false;
  // A phone's top bar holds the menu, the logo, the operator, the bell and sign-out: the name and the
  // sign-out label give way (the start frame hides the name there too).
  const phone = screens.sm === false;
  const [drawerOpen, setDrawerOpen] = useState(false);
  // The drawer (antd Drawer) loads the first time a small screen opens it, and then stays for its closing animation.
  const [drawerUsed, setDrawerUsed] = useState(false);
  if (drawerOpen && !drawerUsed) setDrawerUsed(true);
  const storeInstance = useSession((s) => s.instanceId);
  const menuReady = useMenuReady(remotes);
  const toastRoom = useToastRoom(TOAST_ROOM);
  // Every page below is drawn anew for another operator: its reads, banners, charts and map are then
  // that operator's, without a sign-out (the server reads the operator from the user at each request).
  const operatorId = useSession((s) => s.user.operator?.id ?? null);
  return (
    <Layout style={{ minHeight: SCREEN_HEIGHT }} data-shell-store-instance={storeInstance}>
      {!small && (
        // As tall as the screen once it sticks to the top, less the cookie banner lying over its bottom while it shows.
        <Layout.Sider width={264} style={{ overflow: 'auto', height: UNCOVERED_HEIGHT, position: 'sticky', top: 0 }}>
          <SideNavigation remotes={remotes} ready={menuReady} />
        </Layout.Sider>
      )}
      {small && drawerUsed && (
        <Suspense fallback={null}>
          <NavigationDrawer open={drawerOpen} onClose={() => setDrawerOpen(false)} remotes={remotes} ready={menuReady} />
        </Suspense>
      )}
      <Layout>
        <Layout.Header style={{ display: 'flex', alignItems: 'center', gap: 12, borderBottom: '1px solid #e5eaec', position: 'sticky', top: 0, zIndex: 10 }}>
          {small && <Button type="text" icon={<MenuOutlined />} aria-label="Open menu" onClick={() => setDrawerOpen(true)} />}
          <Logo withName={!phone} />
          <Flex flex={1} justify="flex-end" align="center" gap={8} style={{ minWidth: 0 }}>
            <SiteSearch compact={phone} />
            <OperatorSwitcher compact={small} />
            <NotificationBell />
            {phone ? (
              <Button icon={<LogoutOutlined />} onClick={logout} aria-label="Sign out" title="Sign out" />
            ) : (
              <Button icon={<LogoutOutlined />} onClick={logout}>
                Sign out
              </Button>
            )}
          </Flex>
        </Layout.Header>
        <Layout.Content style={{ padding: 24, paddingBottom: 24 + toastRoom }}>
          <Outlet key={operatorId ?? 'none'} />
        </Layout.Content>
      </Layout>
    </Layout>
  );
}
