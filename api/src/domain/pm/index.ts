export { nodeOfDn, PmParseError, readMeasCollec, type MeasValue } from './meas-collec';
export { HANDOVER_THRESHOLD, KPI_FORMULAS, SUCCESS_THRESHOLD, type KpiFormula, type PmTechnology } from './kpi';
export { PmVerdicts, type NodeVerdict, type PmReadCounts } from './verdict';
