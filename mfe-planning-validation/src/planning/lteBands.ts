/** The LTE bands a planner picks from and an operator's frequency plan holds carriers in. */
export const LTE_BANDS = ['L700', 'L800', 'L1800', 'L2100'] as const;
export type LteBand = (typeof LTE_BANDS)[number];
