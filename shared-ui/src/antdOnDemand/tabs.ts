// What antd's Card gets for its own Tabs import, at build time (tools/webpack, AntdImportsPlugin).
import { onDemand } from './onDemand';

export default onDemand(() => import('antd/es/tabs'));
