// What antd's Progress gets for its own Steps import, at build time (tools/webpack, AntdImportsPlugin).
import { onDemand } from './onDemand';

export default onDemand(() => import('antd/es/progress/Steps'));
