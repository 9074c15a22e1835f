import { SITE_REPORT_TABS, type AlarmRow } from 'contracts';
import { buildSiteReport, degrees, sheetNames, techOfFinding, type ReportFinding, type ReportNode, type SiteData } from './report';

const node = (over: Partial<ReportNode> = {}): ReportNode => ({
  nodeName: 'LX0001',
  tech: '4G',
  logsDate: '2024-03-05T10:00:00.000Z',
  inInventory: true,
  unreachable: false,
  unreachableReason: null,
  alarmStatus: 'NOK',
  alarmCount: 2,
  radioStatus: 'OK',
  coreStatus: 'OK',
  performanceStatus: null,
  performanceComments: null,
  ...over,
});

const finding = (over: Partial<ReportFinding> = {}): ReportFinding => ({
  nodeName: 'LX0001',
  tech: '4G',
  mo: 'ENodeBFunction=1,EUtranCellFDD=LX0001_1',
  cell: 'LX0001_1',
  area: 'radio',
  check: 'Cell state',
  expected: 'UNLOCKED/ENABLED',
  actual: 'LOCKED/DISABLED',
  status: 'NOK',
  comment: 'LX0001_1 is locked',
  ...over,
});

const alarm: AlarmRow = {
  id: 7,
  siteId: 'LX0001',
  siteName: 'Lisboa',
  nodeName: 'LX0001',
  tech: '4G',
  alarmDatetime: '2024-03-05T09:00:00.000Z',
  severity: 'Major',
  AlarmName: 'Link Failure',
  moName: 'EthernetPort=1',
  info: 'Cause: LOS',
  acknowledged: 'Yes',
  ackNote: 'Fibre team on site',
  ackBy: 'Ana Silva',
  ackAt: '2024-03-05T09:30:00.000Z',
  hint: 'Check the port',
  source: 'logs.zip › LX0001.log:12',
  stale: 'No',
};

const data = (over: Partial<SiteData> = {}): SiteData => ({
  siteId: 'LX0001',
  siteName: 'Lisboa',
  nodes: [
    node(),
    node({
      nodeName: 'NR_LX0001',
      tech: '5G',
      logsDate: '2024-03-06T10:00:00.000Z',
      inInventory: false,
      unreachable: true,
      unreachableReason: 'Checking ip contact...Not OK',
      alarmStatus: 'N/A',
    }),
  ],
  plan: [
    {
      technology: '4G',
      equipCode: 'LX0001-4G',
      equipName: 'Lisboa 4G',
      supplier: 'Ericsson',
      workType: 'New',
      commDate: '2024-01-10T09:00:00Z',
      week: 2,
      project: 'Rollout',
      workOrder: 'WO-1',
    },
  ],
  tracker: { currentStatus: 'On Air', scheduleStatus: 'Done', deliveredDate: '2024-01-12T09:00:00Z' },
  alarms: [alarm],
  ret: [
    {
      nodeName: 'LX0001',
      mo: 'AntennaUnitGroup=1,AntennaNearUnit=1,RetSubUnit=1',
      antennaUnitGroup: '1',
      antennaNearUnit: '1',
      retSubUnit: '1',
      electricalTilt: 35,
      minTilt: -5,
      maxTilt: 120,
      operationalState: 'ENABLED',
      userLabel: 'S1',
      serialNumber: 'CN1234',
    },
  ],
  findings: [
    finding(),
    finding({ tech: 'site', mo: 'TermPointToMme=1', cell: null, area: 'core', check: 'S1 link', status: 'OK', comment: '' }),
    finding({ nodeName: 'NR_LX0001', tech: 'site', mo: 'Fru=1', check: 'Unit' }),
  ],
  ...over,
});

describe('buildSiteReport', () => {
  it('answers every tab in order, Summary with its two tables', () => {
    const report = buildSiteReport(data());
    expect(report.tables.map((t) => [t.TabName, t.TableName])).toEqual([
      ['Summary', 'Site Summary'],
      ['Summary', 'Commissioning Information'],
      ['RET Information', 'RET Information'],
      ['Alarms', 'Alarms'],
      ['Configuration Check 2G', 'Configuration Check 2G'],
      ['Configuration Check 3G', 'Configuration Check 3G'],
      ['Configuration Check 4G', 'Configuration Check 4G'],
      ['Configuration Check 5G', 'Configuration Check 5G'],
      ['Configuration Check NBIoT', 'Configuration Check NBIoT'],
    ]);
    expect([...new Set(report.tables.map((t) => t.TabName))]).toEqual([...SITE_REPORT_TABS]);
    expect(report).toMatchObject({ siteId: 'LX0001', siteName: 'Lisboa', logsDate: '2024-03-06T10:00:00.000Z' });
  });

  it('fills the summary per node with remarks and N/A performance when none was imported', () => {
    const [summary] = buildSiteReport(data()).tables;
    expect(summary!.TableData).toEqual([
      expect.objectContaining({ nodeName: 'LX0001', alarmStatus: 'NOK', performanceStatus: 'N/A', remarks: '' }),
      expect.objectContaining({ nodeName: 'NR_LX0001', remarks: 'Not in inventory; Unreachable: Checking ip contact...Not OK' }),
    ]);
  });

  it('gives the commissioning rows the tracker status, RET tilts in degrees, alarms with their acknowledgement and hint', () => {
    const report = buildSiteReport(data());
    expect(report.tables[1]!.TableData).toEqual([expect.objectContaining({ technology: '4G', currentStatus: 'On Air', scheduleStatus: 'Done', week: 2 })]);
    expect(report.tables[2]!.TableData).toEqual([expect.objectContaining({ electricalTilt: 3.5, minTilt: -0.5, maxTilt: 12, serialNumber: 'CN1234' })]);
    expect(report.tables[3]!.TableData).toEqual([
      expect.objectContaining({ AlarmName: 'Link Failure', ackNote: 'Fibre team on site', ackBy: 'Ana Silva', hint: 'Check the port' }),
    ]);
    expect(Object.keys(report.tables[3]!.TableData[0]!)).toEqual(report.tables[3]!.TableStructure.map((c) => c.name));
  });

  it('sorts findings into the tabs of their technology; site-level ones by link, else by node', () => {
    const report = buildSiteReport(data());
    const byTab = Object.fromEntries(report.tables.slice(4).map((t) => [t.TabName, t.TableData.map((r) => r.check)]));
    expect(byTab).toEqual({
      'Configuration Check 2G': [],
      'Configuration Check 3G': [],
      'Configuration Check 4G': ['Cell state', 'S1 link'],
      'Configuration Check 5G': ['Unit'],
      'Configuration Check NBIoT': [],
    });
  });

  it('answers empty log tables for a site without parsed logs', () => {
    const report = buildSiteReport(data({ nodes: [], alarms: [], ret: [], findings: [] }));
    expect(report.logsDate).toBeNull();
    expect(report.tables.filter((t) => t.TableName !== 'Commissioning Information').every((t) => t.TableData.length === 0)).toBe(true);
    expect(report.tables[1]!.TableData).toHaveLength(1);
  });

  it('declares columns with a filter type: multiselect by default, text field for free text', () => {
    const alarms = buildSiteReport(data()).tables[3]!;
    const types = Object.fromEntries(alarms.TableStructure.map((c) => [c.name, c.filterType]));
    expect(types).toMatchObject({ severity: 'multiselect', info: 'textField', ackNote: 'textField', hint: 'textField' });
    expect(alarms.TableStructure.find((c) => c.name === 'alarmDatetime')!.options).toEqual({ display: true, filter: true, sort: true, kind: 'date' });
  });
});

describe('helpers', () => {
  it('turns 0.1° into degrees', () => {
    expect([degrees(35), degrees(-5), degrees(0), degrees(null)]).toEqual([3.5, -0.5, 0, null]);
  });

  it('judges a finding without a cell technology by the link it names, else the node', () => {
    expect(techOfFinding(finding({ tech: 'site', check: 'Iub link', mo: 'IubLink=1' }), '4G')).toBe('3G');
    expect(techOfFinding(finding({ tech: 'site', check: 'Unit', mo: 'Fru=1' }), '4G/5G')).toBe('4G');
    expect(techOfFinding(finding({ tech: 'site', check: 'Unit', mo: 'Fru=1' }), null)).toBeNull();
  });

  it('makes unique, Excel-safe sheet names of at most 31 characters', () => {
    const names = sheetNames([
      { TableName: 'A/B: [x]*?' },
      { TableName: 'a/b: [x]*?' },
      { TableName: 'x'.repeat(40) },
      { TableName: 'x'.repeat(40) },
      { TableName: '//' },
    ]);
    expect(names).toEqual(['A B x', 'a b x (2)', 'x'.repeat(31), `${'x'.repeat(27)} (2)`, 'Table 5']);
    for (const name of names) expect(name.length).toBeLessThanOrEqual(31);
  });
});
