import { type DemoPlmn, type DemoSite, type GsmBand, type LteBand, type UmtsCarrier } from './model';

/**
 * Frequencies, identities and names of the demo network's cells and controllers, derived from the site
 * plan alone: the node that owns a cell and the nodes that hold proxies of it compute the same values.
 */

export const EARFCN: Record<LteBand, number> = { L800: 6300, L1800: 1850, L2100: 100, L700: 9360 };
export const LTE_CELL_ID_BASE: Record<LteBand, number> = { L800: 10, L1800: 20, L2100: 30, L700: 40 };
export const UARFCN: Record<UmtsCarrier, number> = { U2100F1: 10612, U2100F2: 10637, U2100F3: 10662, U900: 3011 };
export const NB_IOT_EARFCN = 6290;
export const NR_ARFCNS = [636666, 643334] as const;
export const SECTORS = [0, 1, 2] as const;
export const FORMAT_VERSION = 'EricssonSpecificAttributes.17.28';
export const ROOT_DN = 'SubNetwork=ONRM_ROOT_MO';
export const SITES_PER_RNC = 150;
export const SITES_PER_BSC = 200;
export const NEAREST = 2;
export const SALT = { plan: 1, lte: 2, nr: 3, umts: 4, gsm: 5 } as const;
// Per-cell plans shared by the node that owns a cell and the nodes that hold proxies of it.

export const lteName = (s: DemoSite, b: LteBand, sec: number): string => `${s.node}_${b}_${sec + 1}`;
export const nrName = (s: DemoSite, sec: number): string => `${s.node}_N78_${sec + 1}`;
export const umtsName = (s: DemoSite, c: UmtsCarrier, sec: number): string => `${s.node}_${c}_${sec + 1}`;
export const gsmName = (s: DemoSite, b: GsmBand, sec: number): string => `${s.node}_${b}_${sec + 1}`;

export const ltePciGroup = (s: DemoSite): number => (s.index * 37 + 11) % 168;
export const nrPci = (s: DemoSite, sec: number): number => 3 * ((s.index * 53 + 7) % 336) + sec;
export const psc = (s: DemoSite, sec: number): number => ((s.index * 29) % 64) * 8 + sec;
export const tac = (s: DemoSite): number => 3000 + s.cluster;
export const nrTac = (s: DemoSite): number => 5000 + s.cluster;
export const lac = (s: DemoSite): number => 1000 + s.cluster * 10;
export const gsmLac = (s: DemoSite): number => 2000 + s.cluster * 10;
export const nrArfcn = (s: DemoSite): number => NR_ARFCNS[s.cluster % 2] as number;
export const ncc = (s: DemoSite): number => s.cluster % 8;
export const bcc = (s: DemoSite, sec: number): number => (s.index * 3 + sec) % 8;
export const bcch = (s: DemoSite, b: GsmBand, sec: number): number =>
  b === 'G900' ? 1 + ((s.index * 7 + sec * 3) % 124) : 512 + ((s.index * 11 + sec * 5) % 374);
export const umtsCid = (s: DemoSite, c: UmtsCarrier, sec: number): number =>
  ((s.index + 1) * 16 + ['U2100F1', 'U2100F2', 'U2100F3', 'U900'].indexOf(c) * 4 + sec) % 65536;
export const gsmCi = (s: DemoSite, b: GsmBand, sec: number): number => ((s.index + 1) * 8 + (b === 'G900' ? 0 : 4) + sec) % 65536;
export const rncName = (k: number): string => `RNC${String(k + 1).padStart(2, '0')}`;
export const bscName = (k: number): string => `BSC${String(k + 1).padStart(2, '0')}`;
export const rncId = (k: number): number => 101 + k;
/** `26801`: how Ericsson names the functions of another node after its PLMN. */
export const plmnCode = (p: DemoPlmn): string => `${p.mcc}${p.mnc}`;
