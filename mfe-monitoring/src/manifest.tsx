import { AlertOutlined, BarChartOutlined, CloudUploadOutlined, FileSearchOutlined, SettingOutlined, TableOutlined } from '@ant-design/icons';
import type { RemoteManifest } from 'shared-ui';

/** Monitoring and dashboards. Each route's page lives at src/routes/<route path>.tsx. */
const manifest: RemoteManifest = {
  id: 'monitoring',
  routes: [
    { path: '/monitoring/uploadLogs', title: 'Upload Logs', capability: 'canMonitor', load: () => import('./routes/monitoring/uploadLogs') },
    { path: '/monitoring/faultManagement', title: 'Fault Management', capability: 'canMonitor', load: () => import('./routes/monitoring/faultManagement') },
    {
      path: '/monitoring/configurationManagement',
      title: 'Configuration Management',
      capability: 'canMonitor',
      load: () => import('./routes/monitoring/configurationManagement'),
    },
    {
      path: '/monitoring/overallSiteSummary',
      title: 'Overall Site Summary',
      capability: 'canMonitor',
      load: () => import('./routes/monitoring/overallSiteSummary'),
    },
    { path: '/monitoring/siteReport', title: 'Site Report', capability: 'canMonitor', load: () => import('./routes/monitoring/siteReport') },
    {
      path: '/dashboards/dashboardRollout',
      title: 'Dashboard Rollout',
      capability: 'canOpenDashboard',
      load: () => import('./routes/dashboards/dashboardRollout'),
    },
  ],
  menu: [
    { group: 'monitoring', label: 'Upload Logs', path: '/monitoring/uploadLogs', icon: <CloudUploadOutlined />, order: 1, capability: 'canMonitor' },
    { group: 'monitoring', label: 'Fault Management', path: '/monitoring/faultManagement', icon: <AlertOutlined />, order: 2, capability: 'canMonitor' },
    {
      group: 'monitoring',
      label: 'Configuration Management',
      path: '/monitoring/configurationManagement',
      icon: <SettingOutlined />,
      order: 3,
      capability: 'canMonitor',
    },
    { group: 'monitoring', label: 'Overall Site Summary', path: '/monitoring/overallSiteSummary', icon: <TableOutlined />, order: 4, capability: 'canMonitor' },
    { group: 'monitoring', label: 'Site Report', path: '/monitoring/siteReport', icon: <FileSearchOutlined />, order: 5, capability: 'canMonitor' },
    {
      group: 'dashboards',
      label: 'Dashboard Rollout',
      path: '/dashboards/dashboardRollout',
      icon: <BarChartOutlined />,
      order: 1,
      capability: 'canSeeDashboardMenu',
    },
  ],
};

export default manifest;
