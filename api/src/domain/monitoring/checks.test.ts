import { parseNodeLog } from '../amos';
import { altBlock, getBlock, LTE_CELL, lteNodeLog, nodeLog, NR_CELL, stBlock, unreachableLog, type AlarmSpec } from '../../../test/fixtures/monitoring/logs';
import { evaluateNode, type InventoryCell, type InventoryFacts } from './checks';

const NODE = 'LX0001';
const evaluate = (text: string, inventory: InventoryFacts | null = null) =>
  evaluateNode(parseNodeLog(text, { archive: 'logs.zip', file: `${NODE}.log` }), inventory);

const alarm = (severity: AlarmSpec['severity'], problem: string, extra: Partial<AlarmSpec> = {}): AlarmSpec => ({
  at: '2024-04-30 18:02:11',
  severity,
  problem,
  mo: LTE_CELL(NODE, 1),
  info: 'detail',
  ...extra,
});

const cell = (name: string, tech: string, facts: Partial<InventoryCell> = {}): InventoryCell => ({
  name,
  tech,
  pci: null,
  psc: null,
  tac: null,
  nrTac: null,
  lac: null,
  channel: null,
  ...facts,
});
/** The inventory the healthy LTE log agrees with (PCI = 3·(100+n) + n mod 3). */
const LTE_INVENTORY: InventoryFacts = {
  cells: [1, 2].map((n) => cell(`${NODE}_${n}`, '4G', { pci: 3 * (100 + n) + (n % 3), tac: 1100, channel: 6300 })),
};

describe('evaluateNode: alarms', () => {
  it('is NOK with a Major alarm, counting both tables, naming each problem once, sorted', () => {
    const r = evaluate(
      lteNodeLog(NODE, {
        alarms: [
          alarm('M', 'Service Unavailable'),
          alarm('w', 'Link Degraded', { operator: 'opsuser' }),
          alarm('m', 'Link Degraded', { mo: LTE_CELL(NODE, 2) }),
        ],
      }),
    );
    expect(r).toMatchObject({ alarmStatus: 'NOK', alarmCount: 3, alarmComments: 'Link Degraded; Service Unavailable' });
  });

  it('is NOK with a Critical alarm only in the ACKNOWLEDGED table (still active)', () => {
    expect(evaluate(lteNodeLog(NODE, { alarms: [alarm('C', 'Link Failure', { operator: 'opsuser' })] })).alarmStatus).toBe('NOK');
  });

  it('is OK with only Minor and Warning alarms, and OK with none', () => {
    expect(evaluate(lteNodeLog(NODE, { alarms: [alarm('w', 'Calendar Clock NTP Unavailable'), alarm('m', 'Link Degraded')] }))).toMatchObject({
      alarmStatus: 'OK',
      alarmCount: 2,
    });
    expect(evaluate(lteNodeLog(NODE))).toMatchObject({ alarmStatus: 'OK', alarmCount: 0, alarmComments: '' });
  });

  it('says N/A when the log has no alarm list at all', () => {
    const r = evaluate(nodeLog(NODE, [stBlock(NODE, 'st cell', [{ adm: 'UNLOCKED', op: 'ENABLED', mo: LTE_CELL(NODE, 1) }])]));
    expect(r).toMatchObject({ alarmStatus: 'N/A', alarmComments: 'No alarm list (alt) in the log', radioStatus: 'OK', radioComments: '' });
  });
});

describe('evaluateNode: radio', () => {
  it('is OK with nothing to say for a healthy node that agrees with the inventory, with one finding per check', () => {
    const r = evaluate(lteNodeLog(NODE), LTE_INVENTORY);
    expect(r).toMatchObject({ radioStatus: 'OK', radioComments: '', coreStatus: 'OK', coreComments: '' });
    const radio = r.findings.filter((f) => f.area === 'radio' && f.cell === `${NODE}_1`);
    expect(radio.map((f) => [f.checkName, f.expected, f.actual, f.status])).toEqual([
      ['administrativeState', 'UNLOCKED', 'UNLOCKED', 'OK'],
      ['operationalState', 'ENABLED', 'ENABLED', 'OK'],
      ['cellBarred', 'NOT_BARRED', 'NOT_BARRED', 'OK'],
      ['primaryPlmnReserved', 'false', 'false', 'OK'],
      ['qRxLevMin', '-140', '-140', 'OK'],
      ['PCI', '304', '304', 'OK'],
      ['tac', '1100', '1100', 'OK'],
      ['earfcndl', '6300', '6300', 'OK'],
    ]);
    expect(radio.every((f) => f.tech === '4G' && f.source.file === `${NODE}.log` && f.source.line > 0)).toBe(true);
  });

  it('names a locked cell and a disabled one', () => {
    const r = evaluate(
      lteNodeLog(NODE, {
        cells: [
          { adm: 'LOCKED', op: 'DISABLED', mo: LTE_CELL(NODE, 1) },
          { adm: 'UNLOCKED', op: 'DISABLED', mo: NR_CELL(NODE, 2) },
          { adm: 'UNLOCKED', op: 'ENABLED', mo: LTE_CELL(NODE, 2) },
        ],
      }),
    );
    expect(r.radioStatus).toBe('NOK');
    expect(r.radioComments).toBe(
      `EUtranCellFDD=${NODE}_1 locked (administrativeState LOCKED); EUtranCellFDD=${NODE}_1 disabled (operationalState DISABLED); NRCellDU=${NODE}_N78_2 disabled (operationalState DISABLED)`,
    );
    expect(r.findings.find((f) => f.cell === `${NODE}_N78_2` && f.checkName === 'operationalState')).toMatchObject({ tech: '5G', status: 'NOK' });
  });

  it('names parameters that deviate from the baseline or the inventory, whatever form the value is printed in', () => {
    const r = evaluate(
      lteNodeLog(NODE, { lteOverrides: { cellBarred: '0 (BARRED)', qRxLevMin: '-124', tac: '1200', physicalLayerSubCellId: '2' } }),
      LTE_INVENTORY,
    );
    expect(r.radioStatus).toBe('NOK');
    expect(r.radioComments.split('; ')).toEqual([
      `EUtranCellFDD=${NODE}_1 cellBarred BARRED: expected NOT_BARRED`,
      `EUtranCellFDD=${NODE}_1 qRxLevMin -124: expected -140`,
      `EUtranCellFDD=${NODE}_1 PCI 305: the inventory says 304 (physicalLayerCellIdGroup 101, physicalLayerSubCellId 2)`,
      `EUtranCellFDD=${NODE}_1 tac 1200: the inventory says 1100`,
    ]);
    // Without the inventory only the baselines are checked.
    expect(evaluate(lteNodeLog(NODE, { lteOverrides: { tac: '1200' } }), null).radioStatus).toBe('OK');
  });

  it('checks 5G, 3G and NB-IoT cells against their baselines and the inventory', () => {
    const log = nodeLog(NODE, [
      altBlock(NODE, []),
      getBlock(NODE, 'get NRCellDU=[^,]+$ ^(cellBarred|cellReservedForOperator|nRPCI|nRTAC)$', [
        [NR_CELL(NODE, 1), 'cellBarred', 'NOT_BARRED'],
        [NR_CELL(NODE, 1), 'cellReservedForOperator', '0 (RESERVED)'],
        [NR_CELL(NODE, 1), 'nRPCI', '501'],
        [NR_CELL(NODE, 1), 'nRTAC', '2100'],
      ]),
      getBlock(NODE, 'get UtranCell=[^,]+$ ^(cellReserved|primaryCpichPower|maximumTransmissionPower|primaryScramblingCode|uarfcnDl)$', [
        ['RncFunction=1,UtranCell=U1', 'cellReserved', '1 (NOT_RESERVED)'],
        ['RncFunction=1,UtranCell=U1', 'primaryCpichPower', '300'],
        ['RncFunction=1,UtranCell=U1', 'maximumTransmissionPower', '400'],
        ['RncFunction=1,UtranCell=U1', 'primaryScramblingCode', '17'],
        ['RncFunction=1,UtranCell=U1', 'uarfcnDl', '10612'],
        ['RncFunction=1,UtranCell=U2', 'primaryCpichPower', '330'],
        ['RncFunction=1,UtranCell=U2', 'maximumTransmissionPower', '400'],
      ]),
      getBlock(NODE, 'get NbIotCell=[^,]+$ ^(cellBarred)$', [['ENodeBFunction=1,NbIotCell=NB1', 'cellBarred', '0 (BARRED)']]),
    ]);
    const inventory: InventoryFacts = {
      cells: [cell(`${NODE}_N78_1`, '5G', { pci: 500, nrTac: 2100 }), cell('U1', '3G', { psc: 17, channel: 10612 })],
    };
    const r = evaluate(log, inventory);
    expect(r.radioComments.split('; ')).toEqual([
      `NRCellDU=${NODE}_N78_1 cellReservedForOperator RESERVED: expected NOT_RESERVED`,
      `NRCellDU=${NODE}_N78_1 nRPCI 501: the inventory says 500`,
      'UtranCell=U2 primaryCpichPower 330: outside maximumTransmissionPower − 12 dB … − 8 dB (280 … 320)',
      'NbIotCell=NB1 cellBarred BARRED: expected NOT_BARRED',
    ]);
    const u1 = r.findings.filter((f) => f.cell === 'U1');
    expect(u1.map((f) => [f.checkName, f.status, f.tech])).toEqual([
      ['cellReserved', 'OK', '3G'],
      ['primaryCpichPower', 'OK', '3G'],
      ['primaryScramblingCode', 'OK', '3G'],
      ['uarfcnDl', 'OK', '3G'],
    ]);
    expect(r.findings.find((f) => f.cell === 'NB1')?.tech).toBe('NB-IoT');
  });
});

describe('evaluateNode: core', () => {
  it('is NOK with a disabled TermPointToMme, naming it and its interface; a blank Adm State is not a lock', () => {
    const r = evaluate(
      lteNodeLog(NODE, {
        terms: [
          { adm: 'UNLOCKED', op: 'DISABLED', mo: 'ENodeBFunction=1,TermPointToMme=1' },
          { adm: 'LOCKED', op: 'DISABLED', mo: 'GNBCUCPFunction=1,TermPointToAmf=2' },
          { adm: '', op: 'ENABLED', mo: 'ENodeBFunction=1,EUtraNetwork=1,ExternalENodeBFunction=1,TermPointToENB=1' },
        ],
      }),
    );
    expect(r).toMatchObject({
      coreStatus: 'NOK',
      coreComments: 'TermPointToMme=1 (S1) disabled; TermPointToAmf=2 (NG) locked and disabled',
      radioStatus: 'OK',
    });
    const core = r.findings.filter((f) => f.area === 'core');
    expect(core.map((f) => [f.cell, f.tech, f.checkName, f.expected, f.actual, f.status])).toEqual([
      [null, '4G', 'S1 link state', 'UNLOCKED, ENABLED', 'UNLOCKED, DISABLED', 'NOK'],
      [null, '5G', 'NG link state', 'UNLOCKED, ENABLED', 'LOCKED, DISABLED', 'NOK'],
      [null, '4G', 'X2 link state', 'ENABLED', 'ENABLED', 'OK'],
    ]);
  });
});

describe('evaluateNode: unreachable', () => {
  it('says N/A everywhere with the reason, and makes no finding', () => {
    const r = evaluateNode(parseNodeLog(unreachableLog('LX0009'), { file: 'LX0009.log' }), null);
    expect(r).toEqual({
      alarmStatus: 'N/A',
      alarmCount: 0,
      alarmComments: 'Node unreachable: Checking ip contact...Not OK',
      radioStatus: 'N/A',
      radioComments: 'Node unreachable: Checking ip contact...Not OK',
      coreStatus: 'N/A',
      coreComments: 'Node unreachable: Checking ip contact...Not OK',
      findings: [],
    });
  });
});
