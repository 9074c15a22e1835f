import { PlanningError } from './errors';

/** Radio and band constants of the parameter planning (spec §3 and §9, docs/engines/planning.md#parameter-planning-5g-nr-en-dc). */

export const ANTENNA_NAMES = ['AIR3227/78', 'AIR6488'] as const;
export type AntennaName = (typeof ANTENNA_NAMES)[number];
export const DEFAULT_ANTENNA: AntennaName = 'AIR3227/78';

export interface AntennaSpec {
  /** Product name as the operator picks it. */
  name: AntennaName;
  /** NR band the radio serves. */
  band: 'n78';
  /** Transmit / receive branches. */
  tx: number;
  rx: number;
  /** `32T32R`, `64T64R`: the value written to the NR cells. */
  txRx: string;
}

export const ANTENNAS: Readonly<Record<AntennaName, AntennaSpec>> = {
  'AIR3227/78': { name: 'AIR3227/78', band: 'n78', tx: 32, rx: 32, txRx: '32T32R' },
  AIR6488: { name: 'AIR6488', band: 'n78', tx: 64, rx: 64, txRx: '64T64R' },
};

export function antennaSpec(name: string): AntennaSpec {
  const spec = (ANTENNAS as Record<string, AntennaSpec>)[name];
  if (!spec) throw new PlanningError(`unknown antenna ${JSON.stringify(name)}; expected one of ${ANTENNA_NAMES.join(', ')}`);
  return spec;
}

/** Operator LTE band labels and their E-UTRA operating band numbers (TS 36.101 Table 5.5-1). */
export const LTE_BAND_NUMBERS = { L700: 28, L800: 20, L1800: 3, L2100: 1 } as const;
export type LteBandLabel = keyof typeof LTE_BAND_NUMBERS;
export type LteBandNumber = (typeof LTE_BAND_NUMBERS)[LteBandLabel];
export const LTE_BAND_LABELS = Object.keys(LTE_BAND_NUMBERS) as LteBandLabel[];
export const DEFAULT_LTE_BANDS: readonly LteBandLabel[] = ['L800', 'L1800', 'L2100'];

export function isLteBandLabel(value: string): value is LteBandLabel {
  return Object.prototype.hasOwnProperty.call(LTE_BAND_NUMBERS, value);
}

/** Parses `L800,L1800` (the route's comma-joined form) or a list; empty → the defaults; unknown label → PlanningError. */
export function parseLteBands(value: string | readonly string[] | null | undefined): LteBandLabel[] {
  const items = (typeof value === 'string' ? value.split(',') : (value ?? [])).map((s) => s.trim().toUpperCase()).filter((s) => s.length > 0);
  if (items.length === 0) return [...DEFAULT_LTE_BANDS];
  const out: LteBandLabel[] = [];
  for (const item of items) {
    if (!isLteBandLabel(item)) throw new PlanningError(`unknown LTE band ${JSON.stringify(item)}; expected one of ${LTE_BAND_LABELS.join(', ')}`);
    if (!out.includes(item)) out.push(item);
  }
  // Stable order: the order of LTE_BAND_LABELS (L700, L800, L1800, L2100).
  return LTE_BAND_LABELS.filter((b) => out.includes(b));
}

/** PCI spaces: NR 3·N_ID1 + N_ID2 with N_ID1 0–335 (TS 38.211 §7.4.2.1); LTE 3·group + id with group 0–167 (TS 36.211 §6.11). */
export const NR_PCI_COUNT = 1008;
export const LTE_PCI_COUNT = 504;

/** PRACH logical root sequence indices: long formats (L_RA = 839) 0–837, short formats (L_RA = 139) 0–137. */
export const PRACH_ROOTS = { long: 838, short: 138 } as const;
export type PrachFormat = keyof typeof PRACH_ROOTS;
/** docs/engines/planning.md#parameter-planning-5g-nr-en-dc: root sequences of neighbouring cells at least 10 apart. */
export const DEFAULT_PRACH_SPACING = 10;

/** UMTS radio capability default for the CPICH validation, 0.1 dBm (46 dBm). */
export const DEFAULT_MAX_POWER_CAPABILITY = 460;
