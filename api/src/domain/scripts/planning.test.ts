import { block } from './__tests__/helpers';
import type { Captured } from '../network/__tests__/helpers';
import { planCluster, type ClusterPlan, type OperatorFrequencyPlan } from '../planning/parameter-planning';
import { placeCells } from '../planning/placed';
import { demoDump, indexOf } from './__tests__/demo';
import { checkMosScript } from './grammar';
import { planningScripts, scriptFiles } from './index';
import type { ScriptRun } from './mos';

const RUN: ScriptRun = { runId: 9, title: 'Parameter planning of LX0002, LX0004', tag: 'PLAN', date: new Date('2026-03-05T14:30:00Z') };
const PLAN: OperatorFrequencyPlan = { operator: 'Vodafone PT', nr: { centreMHz: 3650.01, bandwidthMHz: 100 }, lte: { L800: [6300], L1800: [1850] } };

describe('creation scripts from a parameter planning run (the engine on the demo network)', () => {
  let dump: Captured;
  let plan: ClusterPlan;
  let files: Map<string, string>;
  let anchor: string;
  let nrCell: string;

  beforeAll(async () => {
    dump = await demoDump(8);
    // LX0004 has no NR: a new gNB. LX0002 keeps its n78 cells (its gNB exists), but one anchor lost its EN-DC relation and proxy.
    const sites = ['LX0002', 'LX0004'].map((id) => ({ site: dump.sites.find((s) => s.id === id)!, siteCells: dump.cells.filter((c) => c.siteId === id) }));
    plan = planCluster({ sites, network: placeCells(dump.sites, dump.cells), plan: PLAN, lteBands: ['L800', 'L1800'] });
    const kept = plan.sites.find((s) => s.siteId === 'LX0002')!;
    expect(kept.nrCells.every((c) => c.status === 'kept')).toBe(true);
    const rel = kept.endcRelations[0]!;
    anchor = rel.anchorCell;
    nrCell = rel.nrCell;
    const anchorDn = dump.cells.find((c) => c.name === anchor)!.dn;
    const nr = dump.cells.find((c) => c.name === nrCell)!;
    dump.relations = dump.relations.filter((r) => !(r.sourceCellDn === anchorDn && r.kind === 'LTE-NR'));
    dump.externalCells = dump.externalCells.filter((e) => !(e.nodeName === 'LX0002' && e.kind === '5G' && e.globalId === nr.globalId));
    files = new Map(scriptFiles(planningScripts(plan, indexOf(dump)), RUN)!.files);
  });

  it('a planned NR cell: its NRSectorCarrier, NRCellDU and NRCellCU on the new gNB, undone by del in reverse', () => {
    const cell = plan.sites.find((s) => s.siteId === 'LX0004')!.nrCells[0]!;
    expect(cell).toMatchObject({ status: 'planned', name: 'LX0004_N78_1' });
    const script = files.get('NR_LX0004.mos')!;
    const finding = `PLANNED LX0004_N78_1 (LX0004 sector ${cell.sector})`;
    expect(block(script, finding)).toEqual([
      `# ${finding}: sector carrier, n78 NR-ARFCN ${cell.nrArfcn} 100 MHz on SectorEquipmentFunction=${cell.sector}`,
      'crn GNBDUFunction=1,NRSectorCarrier=LX0004_N78_1',
      `arfcnDL ${cell.nrArfcn}`,
      `arfcnUL ${cell.nrArfcn}`,
      'bSChannelBwDL 100',
      'bSChannelBwUL 100',
      `sectorEquipmentFunctionRef NodeSupport=1,SectorEquipmentFunction=${cell.sector}`,
      'end',
      `# ${finding}: cell LX0004_N78_1: PCI ${cell.pci}, TAC ${cell.tac}, SSB ${cell.ssbNrArfcn}, PRACH root ${cell.prachRootSequence}`,
      'crn GNBDUFunction=1,NRCellDU=LX0004_N78_1',
      `cellLocalId ${cell.cellLocalId}`,
      `nRPCI ${cell.pci}`,
      `nRTAC ${cell.tac}`,
      'nRSectorCarrierRef GNBDUFunction=1,NRSectorCarrier=LX0004_N78_1',
      `ssbFrequency ${cell.ssbNrArfcn}`,
      'ssbSubCarrierSpacing 30',
      'subCarrierSpacing 30',
      `rachRootSequence ${cell.prachRootSequence}`,
      'end',
      `# ${finding}: CU part of LX0004_N78_1`,
      'crn GNBCUCPFunction=1,NRCellCU=LX0004_N78_1',
      `cellLocalId ${cell.cellLocalId}`,
      'end',
    ]);
    expect(block(files.get('NR_LX0004_undo.mos')!, `undo ${finding}`).filter((l) => !l.startsWith('#'))).toEqual([
      'del GNBCUCPFunction=1,NRCellCU=LX0004_N78_1$',
      'del GNBDUFunction=1,NRCellDU=LX0004_N78_1$',
      'del GNBDUFunction=1,NRSectorCarrier=LX0004_N78_1$',
    ]);
    // The new gNB's id comes with its commissioning: its anchors' EN-DC relations wait, and the README says so.
    expect(files.get('README.txt')).toContain('EN-DC LX0004: NR_LX0004 is a new gNB whose gNBId is set at its commissioning');
    expect(files.has('LX0004.mos')).toBe(false);
  });

  it('an EN-DC relation on the LTE anchor: the frequency relation and the NR cell proxy first, then GUtranCellRelation; undone in reverse', () => {
    const site = plan.sites.find((s) => s.siteId === 'LX0002')!;
    const nr = site.nrCells.find((c) => c.name === nrCell)!;
    const gnb = `26801-${site.gnbId}`;
    const net = 'ENodeBFunction=1,GUtraNetwork=1';
    const proxy = `${net},ExternalGNodeBFunction=${gnb},ExternalGUtranCell=${gnb}-${nr.cellLocalId}`;
    const freq = `ENodeBFunction=1,EUtranCellFDD=${anchor},GUtranFreqRelation=${nr.ssbNrArfcn}-30`;
    const relation = `${freq},GUtranCellRelation=${gnb}-${nr.cellLocalId}`;
    const script = files.get('LX0002.mos')!;
    const finding = `EN-DC ${anchor} -> ${nrCell}`;
    const lines = block(script, finding);
    expect(lines.filter((l) => !l.startsWith('#'))).toEqual([
      `crn ${freq}`,
      `gUtranSyncSignalFrequencyRef ${net},GUtranSyncSignalFrequency=${nr.ssbNrArfcn}-30`,
      'end',
      `crn ${proxy}`,
      `localCellId ${nr.cellLocalId}`,
      `physicalLayerCellIdGroup ${Math.floor(nr.pci / 3)}`,
      `physicalLayerSubCellId ${nr.pci % 3}`,
      `gUtranSyncSignalFrequencyRef ${net},GUtranSyncSignalFrequency=${nr.ssbNrArfcn}-30`,
      `userLabel ${nrCell}`,
      'end',
      `crn ${relation}`,
      `neighborCellRef ${proxy}`,
      'end',
    ]);
    expect(lines.at(-4)).toBe(`# ${finding}: relation to ${nrCell} on LX0002 through its proxy`);
    expect(block(files.get('LX0002_undo.mos')!, `undo ${finding}`).filter((l) => !l.startsWith('#'))).toEqual([
      `del ${relation}$`,
      `del ${proxy}$`,
      `del ${freq}$`,
    ]);
  });

  it('every generated file passes the command grammar', () => {
    for (const [name, content] of [...files].filter(([n]) => n.endsWith('.mos')))
      expect({ name, errors: checkMosScript(content) }).toEqual({ name, errors: [] });
  });
});
