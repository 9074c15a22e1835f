import { HomeOutlined, LoadingOutlined, SettingOutlined } from '@ant-design/icons';
import { Flex, Menu, Spin, type MenuProps } from 'antd';
import { lazy, Suspense, useMemo, useState } from 'react';
import { Link, useLocation } from 'react-router-dom';
import { can, principalOf, useSession } from 'shared-auth';
import { MenuIcon, Portrait, initials } from 'shared-ui';
import type { RemotesView } from '../federation/useRemotes';
import { buildMenu } from '../menu/buildMenu';
import { jobDashboardMenuItems } from '../menu/jobDashboard';

// antd's Tag brings the colour picker's presets and Collapse with it (≈ 14 KB gz): loaded only when a remote is down.
const UnavailableTag = lazy(() => import('./UnavailableTag'));

/** A label the menu may cut short with an ellipsis says itself in full on hover (title). */
function MenuLabel({ to, label }: { to: string; label: string }) {
  return (
    <Link to={to} title={label}>
      {label}
    </Link>
  );
}

export function SideNavigation({ remotes, ready, onNavigate }: { remotes: RemotesView; ready: boolean; onNavigate?: () => void }) {
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
          <Suspense fallback="unavailable">
            <UnavailableTag />
          </Suspense>
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
        <Portrait src={user.avatar} initials={initials(user.firstname, user.lastname)} size={56} />
        <span style={{ color: '#fff', fontWeight: 600 }}>{fullName || 'Guest'}</span>
        <span style={{ color: '#9fb8bf' }}>{user.operator?.name ?? ''}</span>
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
      <AreaVersions remotes={remotes} />
    </Flex>
  );
}

/**
 * Which release of each area this console runs: areas are released alone (README, "Releasing one
 * area"), so after a deployment this is where an engineer, or support on a call, reads what changed.
 */
function AreaVersions({ remotes }: { remotes: RemotesView }) {
  const released = remotes.locations.flatMap((location) => {
    const navigation = remotes.navigations[location.name];
    return navigation?.version ? [{ name: navigation.id, version: navigation.version }] : [];
  });
  if (released.length === 0) return null;
  return (
    <ul aria-label="Area versions" style={{ listStyle: 'none', margin: 'auto 0 0', padding: '16px 24px', color: '#9fb8bf', fontSize: 12, lineHeight: '18px' }}>
      {released.map(({ name, version }) => (
        <li key={name} data-area-version={name}>
          {name} {version}
        </li>
      ))}
    </ul>
  );
}
