import { DashboardOutlined } from '@ant-design/icons';
import type { MenuProps } from 'antd';
import { can, sessionStore, type Principal } from 'shared-auth';

/** Served by the API, outside the console's router (docs/architecture.md#how-a-job-flows). */
export const JOB_DASHBOARD_PATH = '/jobs';

/** The dashboard's address with the session token (specification §2: passed as access_token). */
export function jobDashboardUrl(token: string): string {
  return `${JOB_DASHBOARD_PATH}?access_token=${encodeURIComponent(token)}`;
}

/** Opens the job dashboard in a new tab with the token of this session as it is at the click. */
export function openJobDashboard(): void {
  const { token } = sessionStore.getState();
  if (!token) return;
  window.open(jobDashboardUrl(token), '_blank', 'noopener');
}

/**
 * The shell's own side-menu entry for the job dashboard (no remote owns it): shown only to whom the
 * access policy lets see it (specification §6: Administrator).
 */
export function jobDashboardMenuItems(principal: Principal): NonNullable<MenuProps['items']> {
  if (!can(principal, 'canSeeJobDashboard')) return [];
  return [
    {
      key: 'external:job-dashboard',
      icon: <DashboardOutlined />,
      label: (
        <span data-menu-external="job-dashboard" title="Opens in a new tab">
          Job Dashboard
        </span>
      ),
      onClick: openJobDashboard,
    },
  ];
}
