// What antd's Table gets for its own Radio import, at build time (tools/webpack, AntdImportsPlugin).
import { onDemand } from './onDemand';

export default onDemand(() => import('antd/es/radio'));
