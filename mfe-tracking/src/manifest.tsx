import { CalendarOutlined, FileDoneOutlined, ScheduleOutlined } from '@ant-design/icons';
import type { RemoteManifest } from 'shared-ui';

/** Tracking area. Each route's page lives at src/routes/<route path>.tsx; its menu entry is derived from it. */
const manifest: RemoteManifest = {
  id: 'tracking',
  routes: [
    {
      path: '/tracking/commissioningplan',
      title: 'Commissioning Plan',
      capability: 'canTrack',
      menu: { group: 'tracking', icon: <CalendarOutlined />, order: 1 },
      load: () => import('./routes/tracking/commissioningplan'),
    },
    {
      path: '/tracking/tracker',
      title: 'Tracker',
      capability: 'canTrack',
      menu: { group: 'tracking', icon: <ScheduleOutlined />, order: 2 },
      load: () => import('./routes/tracking/tracker'),
    },
    {
      path: '/tracking/workorderstatus',
      title: 'Work Order Status',
      capability: 'canTrack',
      menu: { group: 'tracking', icon: <FileDoneOutlined />, order: 3 },
      load: () => import('./routes/tracking/workorderstatus'),
    },
  ],
};

export default manifest;
