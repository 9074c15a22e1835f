import { CheckCircleOutlined, ClusterOutlined, ControlOutlined, MedicineBoxOutlined, NodeIndexOutlined, ShareAltOutlined } from '@ant-design/icons';
import type { RemoteManifest } from 'shared-ui';

/** Planning, validation and optimisation. Each route's page lives at src/routes/<route path>.tsx. */
const manifest: RemoteManifest = {
  id: 'planning-validation',
  routes: [
    { path: '/planning/parameterplanning', title: 'Parameter Planning', capability: 'canPlan', load: () => import('./routes/planning/parameterplanning') },
    { path: '/validation/cpichvalidation', title: 'Cpich Validation', capability: 'canValidate', load: () => import('./routes/validation/cpichvalidation') },
    {
      path: '/validation/nbrRelationsValidation',
      title: 'Nbr Relations Validation',
      capability: 'canValidate',
      load: () => import('./routes/validation/nbrRelationsValidation'),
    },
    {
      path: '/validation/ranshareNbrRelationsValidation',
      title: 'RanShare Nbr Relations Validation',
      capability: 'canValidate',
      load: () => import('./routes/validation/ranshareNbrRelationsValidation'),
    },
    { path: '/validation/healthChecks', title: 'Health Checks', capability: 'canValidate', load: () => import('./routes/validation/healthChecks') },
    {
      path: '/optimization/nbrRelationsOptimization',
      title: 'Nbr Relations Optimization',
      capability: 'canOptimize',
      load: () => import('./routes/optimization/nbrRelationsOptimization'),
    },
  ],
  menu: [
    { group: 'planning', label: 'Parameter Planning', path: '/planning/parameterplanning', icon: <ControlOutlined />, order: 1, capability: 'canPlan' },
    { group: 'validation', label: 'Cpich Validation', path: '/validation/cpichvalidation', icon: <CheckCircleOutlined />, order: 1, capability: 'canValidate' },
    {
      group: 'validation',
      label: 'Nbr Relations Validation',
      path: '/validation/nbrRelationsValidation',
      icon: <NodeIndexOutlined />,
      order: 2,
      capability: 'canValidate',
    },
    {
      group: 'validation',
      label: 'RanShare Nbr Relations Validation',
      path: '/validation/ranshareNbrRelationsValidation',
      icon: <ShareAltOutlined />,
      order: 3,
      capability: 'canValidate',
    },
    { group: 'validation', label: 'Health Checks', path: '/validation/healthChecks', icon: <MedicineBoxOutlined />, order: 4, capability: 'canValidate' },
    {
      group: 'optimization',
      label: 'Nbr Relations Optimization',
      path: '/optimization/nbrRelationsOptimization',
      icon: <ClusterOutlined />,
      order: 1,
      capability: 'canOptimize',
    },
  ],
};

export default manifest;
