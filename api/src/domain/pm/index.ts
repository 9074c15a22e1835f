export { nodeOfDn, PmParseError, readMeasCollec, type MeasValue } from './meas-collec';
export { PM_COUNTERS, PmVerdicts, SUCCESS_THRESHOLD, type NodeVerdict } from './verdict';
