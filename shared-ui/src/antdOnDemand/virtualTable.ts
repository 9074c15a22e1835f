// What antd's Table gets for its own virtual table import, at build time (tools/webpack, AntdImportsPlugin).
import { onDemand } from './onDemand';

export default onDemand(() => import('antd/es/table/RcTable/VirtualTable'));
