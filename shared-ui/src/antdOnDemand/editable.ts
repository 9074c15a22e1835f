// What antd's Typography gets for its own in-place editor (Editable, with a TextArea), at build time
// (tools/webpack, AntdImportsPlugin).
import { onDemand } from './onDemand';

export default onDemand(() => import('antd/es/typography/Editable'));
