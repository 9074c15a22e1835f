import { CheckCircleOutlined, ClusterOutlined, ControlOutlined, MedicineBoxOutlined, NodeIndexOutlined, ShareAltOutlined } from '@ant-design/icons';
import type { RemoteManifest } from 'shared-ui';

/** Planning, validation and optimisation. Each route's page lives at src/routes/<route path>.tsx; its menu entry is derived from it. */
const manifest: RemoteManifest = {
  id: 'planning-validation',
  routes: [
    {
      path: '/planning/parameterplanning',
      title: 'Parameter Planning',
      capability: 'canPlan',
      menu: { group: 'planning', icon: <ControlOutlined />, order: 1 },
      load: () => import('./routes/planning/parameterplanning'),
    },
    {
      path: '/validation/cpichvalidation',
      title: 'Cpich Validation',
      capability: 'canValidate',
      menu: { group: 'validation', icon: <CheckCircleOutlined />, order: 1 },
      load: () => import('./routes/validation/cpichvalidation'),
    },
    {
      path: '/validation/nbrRelationsValidation',
      title: 'Nbr Relations Validation',
      capability: 'canValidate',
      menu: { group: 'validation', icon: <NodeIndexOutlined />, order: 2 },
      load: () => import('./routes/validation/nbrRelationsValidation'),
    },
    {
      path: '/validation/ranshareNbrRelationsValidation',
      title: 'RanShare Nbr Relations Validation',
      capability: 'canValidate',
      menu: { group: 'validation', icon: <ShareAltOutlined />, order: 3 },
      load: () => import('./routes/validation/ranshareNbrRelationsValidation'),
    },
    {
      path: '/validation/healthChecks',
      title: 'Health Checks',
      capability: 'canValidate',
      menu: { group: 'validation', icon: <MedicineBoxOutlined />, order: 4 },
      load: () => import('./routes/validation/healthChecks'),
    },
    {
      path: '/optimization/nbrRelationsOptimization',
      title: 'Nbr Relations Optimization',
      capability: 'canOptimize',
      menu: { group: 'optimization', icon: <ClusterOutlined />, order: 1 },
      load: () => import('./routes/optimization/nbrRelationsOptimization'),
    },
  ],
};

export default manifest;
