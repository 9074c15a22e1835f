import { BankOutlined, TeamOutlined } from '@ant-design/icons';
import type { RemoteManifest } from 'shared-ui';

/** Management of operators, projects and users, and the job dashboard. Each route's page lives at src/routes/<route path>.tsx; its menu entry is derived from it. */
const manifest: RemoteManifest = {
  id: 'management',
  routes: [
    {
      path: '/management/operators',
      title: 'Operators',
      capability: 'canManage',
      menu: { group: 'management', icon: <BankOutlined />, order: 1 },
      load: () => import('./routes/management/operators'),
    },
    // Reached from an operator's row, so not in the menu.
    {
      path: '/management/operators/details/:tab?',
      title: 'Operator details',
      capability: 'canManage',
      load: () => import('./routes/management/operators/details'),
    },
    {
      path: '/management/users',
      title: 'Users',
      capability: 'canManage',
      menu: { group: 'management', icon: <TeamOutlined />, order: 2 },
      load: () => import('./routes/management/users'),
    },
    // No menu entry of this area: the shell's menu opens it in a new tab (shell/src/menu/jobDashboard.tsx).
    { path: '/management/jobs', title: 'Job Dashboard', capability: 'canSeeJobDashboard', load: () => import('./routes/management/jobs') },
  ],
};

export default manifest;
