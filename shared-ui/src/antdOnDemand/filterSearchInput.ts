// What antd's Table gets for its built-in filter menus' search box (its own Input import), at build
// time (tools/webpack, AntdImportsPlugin).
import { onDemand } from './onDemand';

export default onDemand(() => import('antd/es/input/Input'));
