import { DisconnectOutlined, HomeOutlined, LogoutOutlined, MenuOutlined, SettingOutlined } from '@ant-design/icons';
import { Avatar, Button, Drawer, Flex, Grid, Layout, Menu, Tag, Typography, type MenuProps } from 'antd';
import { useMemo, useState } from 'react';
import { Link, Outlet, useLocation, useNavigate } from 'react-router-dom';
import { can, logout, principalOf, useSession } from 'shared-auth';
import { initials } from 'shared-ui';
import type { RemotesView } from '../federation/useRemotes';
import { buildMenu } from '../menu/buildMenu';
import { jobDashboardMenuItems } from '../menu/jobDashboard';
import { NotificationBell } from '../notifications/NotificationBell';

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

function SideNavigation({ remotes, onNavigate }: { remotes: RemotesView; onNavigate?: () => void }) {
  const location = useLocation();
  const user = useSession((s) => s.user);
  const token = useSession((s) => s.token);
  // A menu item shows only if the access policy lets this user open it (specification §6).
  const principal = useMemo(() => principalOf({ token, user, instanceId: '', loadingCount: 0 }), [token, user]);
  const groups = useMemo(
    () => buildMenu(remotes.locations, remotes.manifests, remotes.status, (entry) => can(principal, entry.capability)),
    [remotes.locations, remotes.manifests, remotes.status, principal],
  );
  const items: MenuProps['items'] = [
    { key: '/home', icon: <HomeOutlined />, label: <Link to="/home">Home</Link> },
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
        <span data-menu-group={group.id}>{group.label}</span>
      ),
      children: group.entries.map((entry) => ({ key: entry.path, icon: entry.icon, label: <Link to={entry.path}>{entry.label}</Link> })),
      ...(group.entries.length === 0 ? { children: undefined, disabled: true } : {}),
    })),
    ...jobDashboardMenuItems(principal),
    { key: '/management/settings/general', icon: <SettingOutlined />, label: <Link to="/management/settings/general">Settings</Link> },
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
  const navigate = useNavigate();
  const signOut = () => {
    logout();
    navigate('/auth/login');
  };
  return (
    <Layout style={{ minHeight: '100vh' }} data-shell-store-instance={storeInstance}>
      {!small && (
        <Layout.Sider width={264} style={{ overflow: 'auto', height: '100vh', position: 'sticky', top: 0 }}>
          <SideNavigation remotes={remotes} />
        </Layout.Sider>
      )}
      <Drawer
        open={small && drawerOpen}
        placement="left"
        size={280}
        onClose={() => setDrawerOpen(false)}
        styles={{ body: { padding: 0, background: '#0f2a33' } }}
      >
        <SideNavigation remotes={remotes} onNavigate={() => setDrawerOpen(false)} />
      </Drawer>
      <Layout>
        <Layout.Header style={{ display: 'flex', alignItems: 'center', gap: 12, borderBottom: '1px solid #e5eaec', position: 'sticky', top: 0, zIndex: 10 }}>
          {small && <Button type="text" icon={<MenuOutlined />} aria-label="Open menu" onClick={() => setDrawerOpen(true)} />}
          <Logo />
          <Flex flex={1} justify="flex-end" align="center" gap={8}>
            <NotificationBell />
            <Button icon={<LogoutOutlined />} onClick={signOut}>
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
