import { BankOutlined, TeamOutlined } from '@ant-design/icons';
import type { RemoteManifest } from 'shared-ui';

/** Management of operators, projects and users. Each route's page lives at src/routes/<route path>.tsx. */
const manifest: RemoteManifest = {
  id: 'management',
  routes: [
    { path: '/management/operators', title: 'Operators', capability: 'canManage', load: () => import('./routes/management/operators') },
    {
      path: '/management/operators/details/:tab?',
      title: 'Operator details',
      capability: 'canManage',
      load: () => import('./routes/management/operators/details'),
    },
    { path: '/management/users', title: 'Users', capability: 'canManage', load: () => import('./routes/management/users') },
  ],
  menu: [
    { group: 'management', label: 'Operators', path: '/management/operators', icon: <BankOutlined />, order: 1, capability: 'canManage' },
    { group: 'management', label: 'Users', path: '/management/users', icon: <TeamOutlined />, order: 2, capability: 'canManage' },
  ],
};

export default manifest;
