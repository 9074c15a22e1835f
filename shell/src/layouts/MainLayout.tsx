import { CloseOutlined, DisconnectOutlined, HomeOutlined, LoadingOutlined, LogoutOutlined, MenuOutlined, SettingOutlined } from '@ant-design/icons';
import { Avatar, Button, Drawer, Flex, Grid, Layout, Menu, Spin, Tag, Typography, type MenuProps } from 'antd';
import { useEffect, useMemo, useState } from 'react';
import { Link, Outlet, useLocation } from 'react-router-dom';
import { can, logout, principalOf, useSession } from 'shared-auth';
import { MenuIcon, SIDER_BACKGROUND, initials } from 'shared-ui';
import type { RemotesView } from '../federation/useRemotes';
import { buildMenu } from '../menu/buildMenu';
import { jobDashboardMenuItems } from '../menu/jobDashboard';
import { NotificationBell } from '../notifications/NotificationBell';
import { SCREEN_HEIGHT } from '../widgets/CookieConsent';

function Logo() {
  return (
    <Link to="/home" aria-label="Cellwise home" style={{ display: 'flex', alignItems: 'center', gap: 8 }}>
      <img src="/favicon.svg" alt="" width={28} height={28} />
      <Typography.Text strong style={{ fontSize: 18, color: '#0b6e79' }}>
        Cellwise
      </Typography.Text>
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

/** A label the menu may cut short with an ellipsis says itself in full on hover (title). */
function MenuLabel({ to, label }: { to: string; label: string }) {
  return (
    <Link to={to} title={label}>
      {label}
    </Link>
  );
}

function SideNavigation({ remotes, ready, onNavigate }: { remotes: RemotesView; ready: boolean; onNavigate?: () => void }) {
  const location = useLocation();
  const user = useSession((s) => s.user);
  const token = useSession((s) => s.token);
  // A menu item shows only if the access policy lets this user open it (specification §6).
  const principal = useMemo(() => principalOf({ token, user, instanceId: '', loadingCount: 0 }), [token, user]);
  const groups = useMemo(
    () => buildMenu(remotes.locations, remotes.navigations, remotes.status, (entry) => can(principal, entry.capability)),
    [remotes.locations, remotes.navigations, remotes.status, principal],
  );
  const items: MenuProps['items'] = [
    { key: '/home', icon: <HomeOutlined />, label: <MenuLabel to="/home" label="Home" /> },
    ...groups.map((group) => ({
      key: `group:${group.id}`,
      label: group.unavailable ? (
        <span data-menu-group={group.id} data-unavailable="true">
          {group.label}{' '}
          <Tag icon={<DisconnectOutlined />} color="warning">
            unavailable
          </Tag>
        </span>
      ) : (
        <span data-menu-group={group.id} title={group.label}>
          {group.label}
        </span>
      ),
      children: group.entries.map((entry) => ({
        key: entry.path,
        icon: entry.icon ? <MenuIcon icon={entry.icon} /> : null,
        label: <MenuLabel to={entry.path} label={entry.label} />,
      })),
      ...(group.entries.length === 0 ? { children: undefined, disabled: true } : {}),
    })),
    ...jobDashboardMenuItems(principal),
    { key: '/management/settings/general', icon: <SettingOutlined />, label: <MenuLabel to="/management/settings/general" label="Settings" /> },
  ];
  // The group of the current page is open until the user folds groups themselves.
  const activeGroup = groups.find((g) => g.entries.some((e) => location.pathname.startsWith(e.path)));
  const [userOpenKeys, setUserOpenKeys] = useState<string[] | null>(null);
  const openKeys = userOpenKeys ?? (activeGroup ? [`group:${activeGroup.id}`] : []);
  const fullName = `${user.firstname} ${user.lastname}`.trim();
  return (
    <Flex vertical style={{ height: '100%' }}>
      <Flex vertical align="center" gap={4} style={{ padding: '20px 12px', color: '#fff' }}>
        <Avatar size={56} src={user.avatar ?? undefined} style={{ background: '#0b6e79' }}>
          {initials(user.firstname, user.lastname)}
        </Avatar>
        <Typography.Text strong style={{ color: '#fff' }}>
          {fullName || 'Guest'}
        </Typography.Text>
        <Typography.Text style={{ color: '#9fb8bf' }}>{user.operator?.name ?? ''}</Typography.Text>
      </Flex>
      {ready ? (
        <Menu
          theme="dark"
          mode="inline"
          selectedKeys={[location.pathname]}
          openKeys={openKeys}
          onOpenChange={setUserOpenKeys}
          items={items}
          onClick={onNavigate}
          style={{ borderInlineEnd: 0 }}
        />
      ) : (
        <Flex justify="center" style={{ padding: 24 }}>
          {/* Light on the dark menu: the brand teal hardly shows on it. */}
          <Spin aria-label="Loading the menu" indicator={<LoadingOutlined style={{ color: '#9fb8bf', fontSize: 24 }} spin />} />
        </Flex>
      )}
    </Flex>
  );
}

/** The main layout: top bar and side navigation around every signed-in page. */
export function MainLayout({ remotes }: { remotes: RemotesView }) {
  const screens = Grid.useBreakpoint();
  // Breakpoints are unknown on the first render; assume a wide screen rather than flash the drawer.
  const small = screens.lg === false;
  const [drawerOpen, setDrawerOpen] = useState(false);
  const storeInstance = useSession((s) => s.instanceId);
  const menuReady = useMenuReady(remotes);
  return (
    <Layout style={{ minHeight: SCREEN_HEIGHT }} data-shell-store-instance={storeInstance}>
      {!small && (
        // As tall as the screen once it sticks to the top (below a cookie banner it starts lower and scrolls into place).
        <Layout.Sider width={264} style={{ overflow: 'auto', height: '100vh', position: 'sticky', top: 0 }}>
          <SideNavigation remotes={remotes} ready={menuReady} />
        </Layout.Sider>
      )}
      <Drawer
        open={small && drawerOpen}
        placement="left"
        size={280}
        onClose={() => setDrawerOpen(false)}
        // The whole panel is the menu's colour: a white header strip sat above the dark menu.
        styles={{ section: { background: SIDER_BACKGROUND }, header: { borderBottom: 0, paddingBlockEnd: 0 }, body: { padding: 0 } }}
        closeIcon={<CloseOutlined style={{ color: '#fff' }} />}
      >
        <SideNavigation remotes={remotes} ready={menuReady} onNavigate={() => setDrawerOpen(false)} />
      </Drawer>
      <Layout>
        <Layout.Header style={{ display: 'flex', alignItems: 'center', gap: 12, borderBottom: '1px solid #e5eaec', position: 'sticky', top: 0, zIndex: 10 }}>
          {small && <Button type="text" icon={<MenuOutlined />} aria-label="Open menu" onClick={() => setDrawerOpen(true)} />}
          <Logo />
          <Flex flex={1} justify="flex-end" align="center" gap={8}>
            <NotificationBell />
            <Button icon={<LogoutOutlined />} onClick={logout}>
              Sign out
            </Button>
          </Flex>
        </Layout.Header>
        <Layout.Content style={{ padding: 24 }}>
          <Outlet />
        </Layout.Content>
      </Layout>
    </Layout>
  );
}
