import { CalendarOutlined, FileDoneOutlined, ScheduleOutlined } from '@ant-design/icons';
import type { RemoteManifest } from 'shared-ui';

/** Tracking area. Each route's page lives at src/routes/<route path>.tsx. */
const manifest: RemoteManifest = {
  id: 'tracking',
  routes: [
    { path: '/tracking/commissioningplan', title: 'Commissioning Plan', capability: 'canTrack', load: () => import('./routes/tracking/commissioningplan') },
    { path: '/tracking/tracker', title: 'Tracker', capability: 'canTrack', load: () => import('./routes/tracking/tracker') },
    { path: '/tracking/workorderstatus', title: 'Work Order Status', capability: 'canTrack', load: () => import('./routes/tracking/workorderstatus') },
  ],
  menu: [
    { group: 'tracking', label: 'Commissioning Plan', path: '/tracking/commissioningplan', icon: <CalendarOutlined />, order: 1, capability: 'canTrack' },
    { group: 'tracking', label: 'Tracker', path: '/tracking/tracker', icon: <ScheduleOutlined />, order: 2, capability: 'canTrack' },
    { group: 'tracking', label: 'Work Order Status', path: '/tracking/workorderstatus', icon: <FileDoneOutlined />, order: 3, capability: 'canTrack' },
  ],
};

export default manifest;
