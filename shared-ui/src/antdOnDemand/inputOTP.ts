// What antd's Input gets for its own Input.OTP, at build time (tools/webpack/antd-rewrites.js): no console page draws it.
import { onDemand } from './onDemand';

export default onDemand(() => import('antd/es/input/OTP'));
