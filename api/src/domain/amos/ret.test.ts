import { type MoAttribute } from './types';
import { enumWord, retRows } from './ret';
import { moFacts } from './mo';

function attr(mo: string, attribute: string, value: string, line: number, node = 'LX0001'): MoAttribute {
  return { node, command: 'hget', source: { file: 'LX0001.log', line }, ...moFacts(mo), attribute, value, declaredItems: null, items: [] };
}

describe('retRows', () => {
  it('gathers RetSubUnit attributes per MO, tilts in 0.1° and degrees', () => {
    const mo = 'Equipment=1,AntennaUnitGroup=3,AntennaNearUnit=2,RetSubUnit=1';
    const rows = retRows([
      attr(mo, 'electricalAntennaTilt', '45', 10),
      attr('ENodeBFunction=1', 'eNBId', '1', 11),
      attr(mo, 'operationalState', '1 (ENABLED)', 10),
      attr(mo, 'userLabel', 'S3_L1800', 10),
      attr(mo, 'maxTilt', '120', 10),
      attr(mo, 'minTilt', '-15', 10),
      attr(mo, 'iuantAntennaSerialNumber', 'SN123', 10),
      attr(mo, 'electricalAntennaTilt', '40', 20),
    ]);
    expect(rows).toEqual([
      {
        node: 'LX0001',
        mo,
        antennaUnitGroup: '3',
        antennaNearUnit: '2',
        retSubUnit: '1',
        electricalAntennaTilt: 40,
        tiltDegrees: 4,
        maxTilt: 120,
        maxTiltDegrees: 12,
        minTilt: -15,
        minTiltDegrees: -1.5,
        operationalState: 'ENABLED',
        userLabel: 'S3_L1800',
        serialNumber: 'SN123',
        source: { file: 'LX0001.log', line: 10 },
      },
    ]);
  });

  it('keeps unreadable tilts as null', () => {
    const [row] = retRows([attr('RetSubUnit=1', 'electricalAntennaTilt', '', 1), attr('RetSubUnit=1', 'userLabel', '', 1)]);
    expect(row).toMatchObject({ electricalAntennaTilt: null, tiltDegrees: null, userLabel: null, antennaUnitGroup: null, retSubUnit: '1' });
  });

  it('reads enum words', () => {
    expect(enumWord('0 (DISABLED)')).toBe('DISABLED');
    expect(enumWord('ENABLED')).toBe('ENABLED');
  });
});
