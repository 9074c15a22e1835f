import { PlanningError } from './errors';
import {
  bandOfEarfcn,
  chooseN78Ssb,
  dlMHzToEarfcn,
  earfcnFits,
  earfcnToDlMHz,
  earfcnToUlMHz,
  gscnToMHz,
  gscnToNrArfcn,
  isOnN78ChannelRaster,
  mhzToGscn,
  mhzToNrArfcn,
  n78CarrierArfcn,
  n78ChannelRaster,
  nrArfcnToMHz,
  ulEarfcnOf,
} from './raster';

// All expected values below are computed by hand from the 3GPP formulas:
//   TS 38.104 §5.4.2.1  F_REF = F_REF-Offs + ΔF_Global·(N_REF − N_REF-Offs)
//                       0–3 GHz: ΔF 5 kHz, F_REF-Offs 0, N_REF-Offs 0; 3–24.25 GHz: ΔF 15 kHz, 3000 MHz, 600000;
//                       24.25–100 GHz: ΔF 60 kHz, 24250.08 MHz, 2016667
//   TS 38.104 §5.4.3.1  3–24.25 GHz: SS_REF = 3000 MHz + N·1.44 MHz, GSCN = 7499 + N;
//                       0–3 GHz: SS_REF = N·1.2 MHz + M·0.05 MHz, GSCN = 3N + (M − 3)/2
//   TS 36.101 §5.7.3    F_DL = F_DL_low + 0.1·(N_DL − N_Offs-DL)

describe('NR-ARFCN ↔ frequency', () => {
  it.each([
    // 3–24.25 GHz row
    [620000, 3300], //       3000 + 0.015·(620000 − 600000) = 3000 + 0.015·20000 = 3300
    [653333, 3799.995], //   3000 + 0.015·53333 = 3000 + 799.995
    [636666, 3549.99], //    3000 + 0.015·36666 = 3000 + 549.99
    [643334, 3650.01], //    3000 + 0.015·43334 = 3000 + 650.01
    [640000, 3600], //       3000 + 0.015·40000 = 3000 + 600
    [600000, 3000], //       first N of the row
    // 0–3 GHz row
    [422000, 2110], //       0.005·422000
    [151600, 758], //        0.005·151600
    [599999, 2999.995], //   0.005·599999
    // 24.25–100 GHz row
    [2016667, 24250.08], //  first N of the row
    [2016668, 24250.14], //  24250.08 + 0.06·1
  ])('NR-ARFCN %d → %d MHz', (n, mhz) => {
    expect(nrArfcnToMHz(n)).toBe(mhz);
    expect(mhzToNrArfcn(mhz)).toBe(n);
  });

  it('rejects frequencies off the raster unless asked for the nearest point', () => {
    // 3500 MHz → 600000 + 500/0.015 = 633333.33…: not a raster point; nearest 633333 (3499.995 MHz)
    expect(() => mhzToNrArfcn(3500)).toThrow(PlanningError);
    expect(mhzToNrArfcn(3500, 'nearest')).toBe(633333);
    expect(() => nrArfcnToMHz(3279166)).toThrow(PlanningError);
  });

  it('n78 channel raster: every NR-ARFCN for 15 kHz, every second one for 30 kHz', () => {
    expect(n78ChannelRaster(15)).toEqual({ first: 620000, step: 1, last: 653333 });
    expect(n78ChannelRaster(30)).toEqual({ first: 620000, step: 2, last: 653332 });
    expect(isOnN78ChannelRaster(636667, 15)).toBe(true);
    expect(isOnN78ChannelRaster(636667, 30)).toBe(false); // 636667 − 620000 = 16667, odd
    expect(isOnN78ChannelRaster(636666, 30)).toBe(true); //   16666, even
    expect(isOnN78ChannelRaster(653333, 30)).toBe(false);
    expect(isOnN78ChannelRaster(619999, 15)).toBe(false);
  });

  it('n78 carrier NR-ARFCN: the raster point nearest the centre', () => {
    // 3650 MHz: 600000 + 650000/15 = 643333.33; 30 kHz raster (even offsets) → 643334 (3650.01 MHz)
    expect(n78CarrierArfcn(3650, 100, 30)).toBe(643334);
    // 15 kHz raster (at most 50 MHz with 15 kHz SCS): nearest integer 643333 (3649.995 MHz)
    expect(n78CarrierArfcn(3650, 50, 15)).toBe(643333);
    expect(() => n78CarrierArfcn(3650, 100, 15)).toThrow(/15 kHz SCS/);
    // 3550 MHz: 600000 + 550000/15 = 636666.67 → 30 kHz raster: offset 16666.67/2 = 8333.3 → 8333·2 = 16666 → 636666
    expect(n78CarrierArfcn(3550, 100, 30)).toBe(636666);
    // 3760 MHz with 100 MHz: upper edge 3810 MHz > 3800 → outside n78
    expect(() => n78CarrierArfcn(3760, 100)).toThrow(/does not fit in n78/);
    expect(() => n78CarrierArfcn(3650, 35)).toThrow(/bandwidth/);
  });
});

describe('GSCN ↔ SSB frequency', () => {
  it.each([
    [7711, 3305.28, 620352], // N = 212: 3000 + 212·1.44 = 3305.28; NR-ARFCN 600000 + 305280/15 = 620352
    [8051, 3794.88, 652992], // N = 552: 3000 + 552·1.44 = 3794.88; 600000 + 794880/15 = 652992
    [7881, 3550.08, 636672], // N = 382: 3000 + 550.08;             600000 + 550080/15 = 636672
    [7499, 3000, 600000], //    N = 0
    [5279, 2112.05, 422410], // N = 1760, M = 1 (5279 = 3·1760 − 1): 1760·1.2 + 0.05 = 2112.05; 2112050/5 = 422410
    [5280, 2112.15, 422430], // N = 1760, M = 3: 2112 + 0.15
    [5281, 2112.25, 422450], // N = 1760, M = 5: 2112 + 0.25
  ])('GSCN %d → SS_REF %d MHz, absoluteFrequencySSB %d', (gscn, mhz, arfcn) => {
    expect(gscnToMHz(gscn)).toBe(mhz);
    expect(mhzToGscn(mhz)).toBe(gscn);
    expect(gscnToNrArfcn(gscn)).toBe(arfcn);
  });

  it('rejects frequencies off the synchronisation raster', () => {
    expect(() => mhzToGscn(3305)).toThrow(PlanningError); // (305000/1440 = 211.8…)
  });

  it('chooses the n78 GSCN nearest the carrier centre with the SSB inside the carrier', () => {
    // 3550 MHz: 550000/1440 = 381.94 → N = 382 (3550.08, 80 kHz off) beats N = 381 (3548.64) → GSCN 7881
    expect(chooseN78Ssb(3550, 100)).toEqual({ gscn: 7881, ssRefMHz: 3550.08, ssbNrArfcn: 636672 });
    // 3450 MHz: 450000/1440 = 312.5 → N = 312 (3449.28) and N = 313 (3450.72) are both 720 kHz off → the lower, 7811
    expect(chooseN78Ssb(3450, 100).gscn).toBe(7811);
    // 10 MHz carrier centred on 3305.01 MHz: 24 RB·12·30 kHz/2 = 4320 kHz half width; SSB half width 120.5·30 = 3615 kHz
    // → SS_REF within 705 kHz of the centre; GSCN 7711 (3305.28) is 270 kHz off → 7711
    expect(chooseN78Ssb(3305.01, 10).gscn).toBe(7711);
    // 3301 MHz / 10 MHz does not fit: lowest GSCN 7711 is 4280 kHz off
    expect(() => chooseN78Ssb(3301, 10)).toThrow(/no n78 GSCN/);
  });
});

describe('EARFCN per band', () => {
  it.each([
    [1, 0, 2110], //     2110 + 0.1·(0 − 0)
    [1, 300, 2140], //   2110 + 0.1·300
    [1, 599, 2169.9], // 2110 + 0.1·599
    [3, 1200, 1805], //  1805 + 0.1·(1200 − 1200)
    [3, 1575, 1842.5], // 1805 + 0.1·375
    [3, 1949, 1879.9], // 1805 + 0.1·749
    [20, 6150, 791], //  791 + 0
    [20, 6300, 806], //  791 + 0.1·150
    [20, 6400, 816], //  791 + 0.1·250
    [28, 9210, 758], //  758 + 0
    [28, 9360, 773], //  758 + 0.1·150
    [28, 9460, 783], //  758 + 0.1·250
  ])('band %d EARFCN %d → %d MHz', (band, n, mhz) => {
    expect(earfcnToDlMHz(band, n)).toBe(mhz);
    expect(dlMHzToEarfcn(band, mhz)).toBe(n);
    expect(bandOfEarfcn(n)).toBe(band);
  });

  it('pairs UL EARFCNs and rejects EARFCNs outside the band', () => {
    expect(ulEarfcnOf(20, 6300)).toBe(24300); // 6300 − 6150 + 24150
    expect(earfcnToUlMHz(20, 24300)).toBe(847); // 832 + 0.1·150
    expect(ulEarfcnOf(3, 1575)).toBe(19575); //  1575 − 1200 + 19200
    expect(earfcnToUlMHz(3, 19575)).toBe(1747.5); // 1710 + 37.5
    expect(ulEarfcnOf(28, 9360)).toBe(27360);
    expect(earfcnToUlMHz(28, 27360)).toBe(718); // 703 + 15
    expect(() => earfcnToDlMHz(20, 6500)).toThrow(PlanningError);
    expect(() => earfcnToDlMHz(7, 3000)).toThrow(/not planned/);
    expect(() => dlMHzToEarfcn(20, 806.05)).toThrow(/100 kHz/);
    expect(bandOfEarfcn(3000)).toBeNull();
  });

  it('checks that a carrier fits inside the band', () => {
    expect(earfcnFits(20, 6200, 10)).toBe(true); //  796 MHz: 791–801
    expect(earfcnFits(20, 6190, 10)).toBe(false); // 795 MHz: 790 < 791
    expect(earfcnFits(20, 6400, 10)).toBe(true); //  816 MHz: 811–821
    expect(earfcnFits(20, 6410, 10)).toBe(false); // 817 MHz: 822 > 821
  });
});
