import type { LteBandNumber } from './constants';
import { PlanningError } from './errors';

/**
 * Frequency rasters. All arithmetic is done on integers (kHz for NR, 100 kHz for LTE) so that a channel
 * number and its frequency round-trip exactly; MHz values are returned as `kHz / 1000`.
 */

// ---------------------------------------------------------------------------------------------------
// NR-ARFCN, TS 38.104 §5.4.2.1: F_REF = F_REF-Offs + ΔF_Global · (N_REF − N_REF-Offs)

interface NrRasterRange {
  /** Frequencies [fromKHz, toKHz) use this row. */
  fromKHz: number;
  toKHz: number;
  deltaKHz: number;
  fOffsKHz: number;
  nOffs: number;
  nMin: number;
  nMax: number;
}

/** TS 38.104 Table 5.4.2.1-1. */
export const NR_GLOBAL_RASTER: readonly NrRasterRange[] = [
  { fromKHz: 0, toKHz: 3_000_000, deltaKHz: 5, fOffsKHz: 0, nOffs: 0, nMin: 0, nMax: 599_999 },
  { fromKHz: 3_000_000, toKHz: 24_250_000, deltaKHz: 15, fOffsKHz: 3_000_000, nOffs: 600_000, nMin: 600_000, nMax: 2_016_666 },
  { fromKHz: 24_250_000, toKHz: 100_000_001, deltaKHz: 60, fOffsKHz: 24_250_080, nOffs: 2_016_667, nMin: 2_016_667, nMax: 3_279_165 },
];

function assertInteger(value: number, what: string): void {
  if (!Number.isInteger(value)) throw new PlanningError(`${what} must be an integer, got ${value}`);
}

/** F_REF of an NR-ARFCN in kHz. */
export function nrArfcnToKHz(nrArfcn: number): number {
  assertInteger(nrArfcn, 'NR-ARFCN');
  const r = NR_GLOBAL_RASTER.find((x) => nrArfcn >= x.nMin && nrArfcn <= x.nMax);
  if (!r) throw new PlanningError(`NR-ARFCN ${nrArfcn} is outside 0–3279165`);
  return r.fOffsKHz + r.deltaKHz * (nrArfcn - r.nOffs);
}

/** F_REF of an NR-ARFCN in MHz. */
export function nrArfcnToMHz(nrArfcn: number): number {
  return nrArfcnToKHz(nrArfcn) / 1000;
}

/**
 * The NR-ARFCN of a frequency. `exact` (default) throws when the frequency is not on the global raster;
 * `nearest` rounds to the nearest raster point (ties: the lower one).
 */
export function mhzToNrArfcn(mhz: number, mode: 'exact' | 'nearest' = 'exact'): number {
  const kHz = Math.round(mhz * 1000);
  const r = NR_GLOBAL_RASTER.find((x) => kHz >= x.fromKHz && kHz < x.toKHz);
  if (!r || kHz < 0) throw new PlanningError(`frequency ${mhz} MHz is outside the NR global raster (0–100 GHz)`);
  const steps = (kHz - r.fOffsKHz) / r.deltaKHz;
  if (mode === 'exact' && !Number.isInteger(steps)) {
    throw new PlanningError(`frequency ${mhz} MHz is not on the NR global raster (ΔF_Global ${r.deltaKHz} kHz)`);
  }
  const n = r.nOffs + (Number.isInteger(steps) ? steps : Math.ceil(steps - 0.5));
  return Math.min(Math.max(n, r.nMin), r.nMax);
}

// ---------------------------------------------------------------------------------------------------
// n78 (TS 38.104 Tables 5.2-1, 5.4.2.3-1, 5.4.3.3-1)

export const N78 = {
  band: 'n78',
  fromMHz: 3300,
  toMHz: 3800,
  nrArfcnFirst: 620_000,
  nrArfcnLast: 653_333,
  gscnFirst: 7711,
  gscnLast: 8051,
  gscnStep: 1,
  /** SSB subcarrier spacing of n78 (Table 5.4.3.3-1: 30 kHz, pattern C). */
  ssbScsKHz: 30,
} as const;

export type NrScsKHz = 15 | 30;

/** n78 channel raster (Table 5.4.2.3-1): ΔF_Raster 15 kHz → every NR-ARFCN 620000–653333; 30 kHz → step 2, 620000–653332. */
export function n78ChannelRaster(scsKHz: NrScsKHz): { first: number; step: number; last: number } {
  return scsKHz === 15 ? { first: 620_000, step: 1, last: 653_333 } : { first: 620_000, step: 2, last: 653_332 };
}

export function isOnN78ChannelRaster(nrArfcn: number, scsKHz: NrScsKHz): boolean {
  const r = n78ChannelRaster(scsKHz);
  return Number.isInteger(nrArfcn) && nrArfcn >= r.first && nrArfcn <= r.last && (nrArfcn - r.first) % r.step === 0;
}

/** Maximum transmission bandwidth N_RB, FR1 (TS 38.104 Table 5.3.2-1), by SCS then channel bandwidth in MHz. */
export const NR_MAX_RB: Readonly<Record<NrScsKHz, Readonly<Record<number, number>>>> = {
  15: { 5: 25, 10: 52, 15: 79, 20: 106, 25: 133, 30: 160, 40: 216, 50: 270 },
  30: { 10: 24, 15: 38, 20: 51, 25: 65, 30: 78, 40: 106, 50: 133, 60: 162, 70: 189, 80: 217, 90: 245, 100: 273 },
};

export function nrMaxRb(bandwidthMHz: number, scsKHz: NrScsKHz): number {
  const nrb = NR_MAX_RB[scsKHz][bandwidthMHz];
  if (nrb === undefined) {
    throw new PlanningError(
      `no NR channel bandwidth ${bandwidthMHz} MHz with ${scsKHz} kHz SCS; expected one of ${Object.keys(NR_MAX_RB[scsKHz]).join(', ')} MHz`,
    );
  }
  return nrb;
}

/**
 * The n78 NR-ARFCN of a carrier: the channel-raster point nearest to its centre (ties: the lower one),
 * checked so that the whole channel bandwidth lies inside 3300–3800 MHz.
 */
export function n78CarrierArfcn(centreMHz: number, bandwidthMHz: number, scsKHz: NrScsKHz = 30): number {
  nrMaxRb(bandwidthMHz, scsKHz);
  const r = n78ChannelRaster(scsKHz);
  const exact = (Math.round(centreMHz * 1000) - 3_000_000) / 15 + 600_000;
  const k = Math.ceil((exact - r.first) / r.step - 0.5);
  const n = r.first + k * r.step;
  const fKHz = nrArfcnToKHz(n);
  const halfKHz = (bandwidthMHz * 1000) / 2;
  if (n < r.first || n > r.last || fKHz - halfKHz < N78.fromMHz * 1000 || fKHz + halfKHz > N78.toMHz * 1000) {
    throw new PlanningError(`a ${bandwidthMHz} MHz carrier centred on ${centreMHz} MHz does not fit in n78 (3300–3800 MHz)`);
  }
  return n;
}

// ---------------------------------------------------------------------------------------------------
// GSCN, TS 38.104 §5.4.3.1 (Table 5.4.3.1-1)
//   0–3000 MHz:       SS_REF = N·1200 kHz + M·50 kHz, N = 1…2499, M ∈ {1,3,5}; GSCN = 3N + (M−3)/2
//   3000–24250 MHz:   SS_REF = 3000 MHz + N·1.44 MHz, N = 0…14756;             GSCN = 7499 + N
//   24250–100000 MHz: SS_REF = 24250.08 MHz + N·17.28 MHz, N = 0…4383;          GSCN = 22256 + N

/** SS_REF of a GSCN in kHz. */
export function gscnToKHz(gscn: number): number {
  assertInteger(gscn, 'GSCN');
  if (gscn >= 2 && gscn <= 7498) {
    const n = Math.round(gscn / 3);
    const m = 2 * (gscn - 3 * n) + 3;
    return n * 1200 + m * 50;
  }
  if (gscn >= 7499 && gscn <= 7499 + 14756) return 3_000_000 + (gscn - 7499) * 1440;
  if (gscn >= 22256 && gscn <= 22256 + 4383) return 24_250_080 + (gscn - 22256) * 17_280;
  throw new PlanningError(`GSCN ${gscn} is outside 2–26639`);
}

export function gscnToMHz(gscn: number): number {
  return gscnToKHz(gscn) / 1000;
}

/** The GSCN of an SS_REF frequency; throws when the frequency is not on the synchronisation raster. */
export function mhzToGscn(mhz: number): number {
  const kHz = Math.round(mhz * 1000);
  if (kHz >= 3_000_000 && kHz < 24_250_000) {
    const n = (kHz - 3_000_000) / 1440;
    if (Number.isInteger(n)) return 7499 + n;
  } else if (kHz >= 24_250_000) {
    const n = (kHz - 24_250_080) / 17_280;
    if (Number.isInteger(n) && n >= 0 && n <= 4383) return 22256 + n;
  } else {
    for (const m of [1, 3, 5]) {
      const n = (kHz - m * 50) / 1200;
      if (Number.isInteger(n) && n >= 1 && n <= 2499) return 3 * n + (m - 3) / 2;
    }
  }
  throw new PlanningError(`frequency ${mhz} MHz is not on the NR synchronisation raster`);
}

/** absoluteFrequencySSB: the NR-ARFCN of a GSCN's SS_REF (every SS_REF is on the global raster). */
export function gscnToNrArfcn(gscn: number): number {
  return mhzToNrArfcn(gscnToKHz(gscn) / 1000);
}

export interface SsbChoice {
  gscn: number;
  /** SS_REF in MHz. */
  ssRefMHz: number;
  /** absoluteFrequencySSB (NR-ARFCN of SS_REF). */
  ssbNrArfcn: number;
}

/**
 * The n78 SSB position inside a carrier: the GSCN (7711–8051) whose SS_REF is nearest to the carrier centre
 * (ties: the lower GSCN) such that the whole SSB (240 subcarriers of 30 kHz, SS_REF on subcarrier 120)
 * lies inside the carrier's transmission bandwidth N_RB·12·SCS.
 */
export function chooseN78Ssb(centreMHz: number, bandwidthMHz: number, carrierScsKHz: NrScsKHz = 30): SsbChoice {
  const centreKHz = Math.round(centreMHz * 1000);
  const txHalfKHz = (nrMaxRb(bandwidthMHz, carrierScsKHz) * 12 * carrierScsKHz) / 2;
  const ssbHalfKHz = 120 * N78.ssbScsKHz + N78.ssbScsKHz / 2;
  let best: number | null = null;
  let bestDist = Infinity;
  for (let g = N78.gscnFirst; g <= N78.gscnLast; g += N78.gscnStep) {
    const dist = Math.abs(gscnToKHz(g) - centreKHz);
    if (dist + ssbHalfKHz > txHalfKHz) continue;
    if (dist < bestDist) {
      best = g;
      bestDist = dist;
    }
  }
  if (best === null) throw new PlanningError(`no n78 GSCN fits an SSB inside a ${bandwidthMHz} MHz carrier centred on ${centreMHz} MHz`);
  return { gscn: best, ssRefMHz: gscnToKHz(best) / 1000, ssbNrArfcn: gscnToNrArfcn(best) };
}

// ---------------------------------------------------------------------------------------------------
// EARFCN, TS 36.101 §5.7.3: F_DL = F_DL_low + 0.1·(N_DL − N_Offs-DL); F_UL = F_UL_low + 0.1·(N_UL − N_Offs-UL)

export interface EutraBand {
  band: LteBandNumber;
  dlLowMHz: number;
  dlHighMHz: number;
  nOffsDl: number;
  nDlMin: number;
  nDlMax: number;
  ulLowMHz: number;
  nOffsUl: number;
  nUlMin: number;
  nUlMax: number;
}

/** TS 36.101 Tables 5.5-1 and 5.7.3-1 for the planned bands. */
export const EUTRA_BANDS: Readonly<Record<LteBandNumber, EutraBand>> = {
  1: { band: 1, dlLowMHz: 2110, dlHighMHz: 2170, nOffsDl: 0, nDlMin: 0, nDlMax: 599, ulLowMHz: 1920, nOffsUl: 18000, nUlMin: 18000, nUlMax: 18599 },
  3: { band: 3, dlLowMHz: 1805, dlHighMHz: 1880, nOffsDl: 1200, nDlMin: 1200, nDlMax: 1949, ulLowMHz: 1710, nOffsUl: 19200, nUlMin: 19200, nUlMax: 19949 },
  20: { band: 20, dlLowMHz: 791, dlHighMHz: 821, nOffsDl: 6150, nDlMin: 6150, nDlMax: 6449, ulLowMHz: 832, nOffsUl: 24150, nUlMin: 24150, nUlMax: 24449 },
  28: { band: 28, dlLowMHz: 758, dlHighMHz: 803, nOffsDl: 9210, nDlMin: 9210, nDlMax: 9659, ulLowMHz: 703, nOffsUl: 27210, nUlMin: 27210, nUlMax: 27659 },
};

function eutraBand(band: number): EutraBand {
  const b = (EUTRA_BANDS as Record<number, EutraBand>)[band];
  if (!b) throw new PlanningError(`E-UTRA band ${band} is not planned; expected one of ${Object.keys(EUTRA_BANDS).join(', ')}`);
  return b;
}

/** The planned band (1, 3, 20, 28) a DL EARFCN belongs to, or null. */
export function bandOfEarfcn(earfcn: number): LteBandNumber | null {
  for (const b of Object.values(EUTRA_BANDS)) if (earfcn >= b.nDlMin && earfcn <= b.nDlMax) return b.band;
  return null;
}

/** F_DL of a DL EARFCN in MHz. */
export function earfcnToDlMHz(band: number, earfcn: number): number {
  assertInteger(earfcn, 'EARFCN');
  const b = eutraBand(band);
  if (earfcn < b.nDlMin || earfcn > b.nDlMax) throw new PlanningError(`EARFCN ${earfcn} is not a band ${band} downlink EARFCN (${b.nDlMin}–${b.nDlMax})`);
  return (b.dlLowMHz * 10 + (earfcn - b.nOffsDl)) / 10;
}

/** The DL EARFCN of a DL frequency (on the 100 kHz raster) in a band. */
export function dlMHzToEarfcn(band: number, mhz: number): number {
  const b = eutraBand(band);
  const hundredKHz = Math.round(mhz * 10 * 1000) / 1000;
  if (!Number.isInteger(hundredKHz)) throw new PlanningError(`${mhz} MHz is not on the 100 kHz E-UTRA channel raster`);
  const n = b.nOffsDl + (hundredKHz - b.dlLowMHz * 10);
  if (n < b.nDlMin || n > b.nDlMax) throw new PlanningError(`${mhz} MHz is outside band ${band} downlink (${b.dlLowMHz}–${b.dlHighMHz} MHz)`);
  return n;
}

/** The UL EARFCN paired with a DL EARFCN (FDD: same offset from each band start). */
export function ulEarfcnOf(band: number, dlEarfcn: number): number {
  const b = eutraBand(band);
  earfcnToDlMHz(band, dlEarfcn);
  return dlEarfcn - b.nOffsDl + b.nOffsUl;
}

/** F_UL of a UL EARFCN in MHz. */
export function earfcnToUlMHz(band: number, ulEarfcn: number): number {
  assertInteger(ulEarfcn, 'EARFCN');
  const b = eutraBand(band);
  if (ulEarfcn < b.nUlMin || ulEarfcn > b.nUlMax) throw new PlanningError(`EARFCN ${ulEarfcn} is not a band ${band} uplink EARFCN (${b.nUlMin}–${b.nUlMax})`);
  return (b.ulLowMHz * 10 + (ulEarfcn - b.nOffsUl)) / 10;
}

/** Whether a carrier of the given bandwidth on this DL EARFCN lies inside the band's downlink. */
export function earfcnFits(band: number, earfcn: number, bandwidthMHz: number): boolean {
  const b = eutraBand(band);
  if (!Number.isInteger(earfcn) || earfcn < b.nDlMin || earfcn > b.nDlMax) return false;
  const f = b.dlLowMHz * 10 + (earfcn - b.nOffsDl);
  const half = bandwidthMHz * 5;
  return f - half >= b.dlLowMHz * 10 && f + half <= b.dlHighMHz * 10;
}
