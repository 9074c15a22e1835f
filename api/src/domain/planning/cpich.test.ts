import { cell } from './__tests__/fixtures';
import { validateCpich } from './cpich';

const u = (siteId: string, name: string, cpichPower: number | null, maxTxPower: number | null, channel = 10612) =>
  cell({ name, siteId, tech: '3G', channel, cpichPower, maxTxPower });

describe('CPICH validation', () => {
  it('gives the known verdicts (powers in 0.1 dBm)', () => {
    const cells = [
      u('U1', 'U1_1', 330, 430), // 10 dB below max
      u('U1', 'U1_2', 340, 430), // 9 dB; site spread 330–345 = 1.5 dB
      u('U1', 'U1_3', 345, 430), // 8.5 dB
      u('U2', 'U2_1', 300, 430), // 13 dB below max: under max − 12 dB; site spread 300–360 = 6 dB
      u('U2', 'U2_2', 360, 430), // 7 dB below max: over max − 8 dB
      u('U3', 'U3_1', 430, 430), // CPICH ≥ max
      u('U3', 'U3_2', 370, 470), // max 47 dBm > 46 dBm capability
      u('U3', 'U3_3', null, 430), // missing
      u('U4', 'U4_1', 310, 430), // exactly 12 dB: OK
      u('U4', 'U4_2', 350, 430, 10637), // exactly 8 dB on another carrier: OK, no spread across carriers
      cell({ name: 'L_1', siteId: 'U1', tech: '4G', cpichPower: 0, maxTxPower: 0 }), // not UTRAN: ignored
    ];
    const rows = validateCpich(cells);
    const verdicts = Object.fromEntries(rows.map((r) => [r.cell, r.verdict]));
    expect(verdicts).toEqual({
      U1_1: 'OK',
      U1_2: 'OK',
      U1_3: 'OK',
      U2_1: 'WARNING',
      U2_2: 'WARNING',
      U3_1: 'ERROR',
      U3_2: 'ERROR',
      U3_3: 'ERROR',
      U4_1: 'OK',
      U4_2: 'OK',
    });
    const by = Object.fromEntries(rows.map((r) => [r.cell, r]));
    expect(by['U1_1']).toMatchObject({
      siteId: 'U1',
      primaryCpichPower: 330,
      maximumTransmissionPower: 430,
      capability: 460,
      offsetDb: 10,
      reason: 'OK',
      reasons: [],
    });
    expect(by['U2_1']?.reasons).toEqual([
      'primaryCpichPower 30.0 dBm is 13.0 dB below max; expected 8.0 dB–12.0 dB (31.0 dBm–35.0 dBm)',
      "CPICH differs by 6.0 dB between the site's sectors (30.0 dBm–36.0 dBm; at most 2.0 dB)",
    ]);
    expect(by['U2_2']?.reasons[0]).toMatch(/7\.0 dB below max/);
    expect(by['U3_1']?.reasons[0]).toBe('primaryCpichPower 43.0 dBm ≥ maximumTransmissionPower 43.0 dBm');
    expect(by['U3_2']?.reasons[0]).toBe('maximumTransmissionPower 47.0 dBm exceeds the radio capability 46.0 dBm');
    expect(by['U3_3']?.reason).toBe('primaryCpichPower missing');
    // Errors come first; the site spread (43.0 vs 37.0 dBm) is reported after.
    expect(by['U3_1']?.reasons[1]).toMatch(/differs by 6\.0 dB/);
  });

  it('takes a per-cell capability', () => {
    const rows = validateCpich([u('U5', 'U5_1', 330, 430), u('U6', 'U6_1', 330, 430)], { capability: (c) => (c.siteId === 'U5' ? 400 : 460) });
    expect(rows.map((r) => [r.cell, r.verdict, r.capability])).toEqual([
      ['U5_1', 'ERROR', 400],
      ['U6_1', 'OK', 460],
    ]);
  });
});
