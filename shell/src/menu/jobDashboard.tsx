import { DashboardOutlined } from '@ant-design/icons';
import type { MenuProps } from 'antd';
import { can, sessionStore, type Principal } from 'shared-auth';

/** The job dashboard: a page of mfe-management (docs/architecture.md#how-a-job-flows). */
export const JOB_DASHBOARD_PATH = '/management/jobs';

/** The dashboard's address with the session token (specification §2: passed as access_token). */
export function jobDashboardUrl(token: string): string {
  return `${JOB_DASHBOARD_PATH}?access_token=${encodeURIComponent(token)}`;
}

/**
 * Opens the job dashboard in a new tab with the token of this session as it is at the click; the new
 * tab's console takes it out of the address on start (shell/src/session/tokenHandoff.ts).
 */
export function openJobDashboard(): void {
  const { token } = sessionStore.getState();
  if (!token) return;
  window.open(jobDashboardUrl(token), '_blank', 'noopener');
}

/**
 * The shell's own side-menu entry for the job dashboard, a link out of this tab rather than one of a
 * remote's menu entries (those navigate in place): shown only to whom the access policy lets see it
 * (specification §6: Administrator), like the page's route.
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
