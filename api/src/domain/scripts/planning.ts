import type { Cell } from '../network/model';
import type { NetworkIndex } from '../planning/network-index';
import type { ClusterPlan, ParameterPlan, PlannedNrCell } from '../planning/parameter-planning';
import { classOf, emptyPlan, int, ldnOf, parentOf, ref, type MosAttribute, type MosCommand, type ScriptPlan } from './mos';
import { addOutcome, CreatedMos, createRelation } from './relations';

/**
 * Corrective (creation) scripts from a parameter planning run (issue 46): on the site's gNB, `crn` of
 * each planned NR cell as Ericsson's NR MOM has it — its NRSectorCarrier (carrier, bandwidth), its
 * NRCellDU (cellLocalId, PCI, TAC, SSB, SCS, PRACH root) and its NRCellCU — and on each LTE anchor the
 * EN-DC relation to the NR cell of its sector (GUtranFreqRelation / GUtranCellRelation, with the
 * ExternalGNodeBFunction / ExternalGUtranCell proxies first). Kept cells already exist: nothing is
 * created for them but a missing EN-DC relation. A new gNB's id is given at its commissioning, not by
 * the plan, so its anchors' proxies cannot be scripted yet: the README says so.
 */

const SAFE = /^[A-Za-z0-9_.-]+$/;

/** The gNB's DU and CU-CP functions: from a cell the dump has on that node, else `…Function=1`. */
function functionsOf(index: NetworkIndex, gnb: string): { du: string; cucp: string } {
  let du = 'GNBDUFunction=1';
  let cucp = 'GNBCUCPFunction=1';
  for (const c of index.cells()) {
    if (c.nodeName !== gnb || c.tech !== '5G') continue;
    for (const dn of [c.dn, ...c.altDns]) {
      const ldn = ldnOf(dn);
      if (classOf(ldn) === 'NRCellDU') du = parentOf(ldn);
      if (classOf(ldn) === 'NRCellCU') cucp = parentOf(ldn);
    }
  }
  return { du, cucp };
}

function nrCellCommands(cell: PlannedNrCell, fns: { du: string; cucp: string }): { commands: MosCommand[]; undo: MosCommand[] } | { missing: string } {
  const absent = [
    cell.cellLocalId === null ? 'cellLocalId' : null,
    cell.tac === null ? 'TAC' : null,
    cell.ssbNrArfcn === null ? 'SSB frequency' : null,
    cell.scsKHz === null ? 'subcarrier spacing' : null,
    cell.bandwidthMHz === null ? 'bandwidth' : null,
  ].filter((x): x is string => x !== null);
  if (absent.length > 0) return { missing: `the plan has no ${absent.join(', ')}` };
  const carrier = `${fns.du},NRSectorCarrier=${cell.name}`;
  const du = `${fns.du},NRCellDU=${cell.name}`;
  const cu = `${fns.cucp},NRCellCU=${cell.name}`;
  const carrierAttributes: MosAttribute[] = [
    ['arfcnDL', int(cell.nrArfcn)],
    // n78 is TDD: one carrier for both directions.
    ['arfcnUL', int(cell.nrArfcn)],
    ['bSChannelBwDL', int(cell.bandwidthMHz!)],
    ['bSChannelBwUL', int(cell.bandwidthMHz!)],
  ];
  if (cell.sector !== null) carrierAttributes.push(['sectorEquipmentFunctionRef', ref(`NodeSupport=1,SectorEquipmentFunction=${cell.sector}`)]);
  const duAttributes: MosAttribute[] = [
    ['cellLocalId', int(cell.cellLocalId!)],
    ['nRPCI', int(cell.pci)],
    ['nRTAC', int(cell.tac!)],
    ['nRSectorCarrierRef', ref(carrier)],
    ['ssbFrequency', int(cell.ssbNrArfcn!)],
    ['ssbSubCarrierSpacing', int(cell.scsKHz!)],
    ['subCarrierSpacing', int(cell.scsKHz!)],
  ];
  if (cell.prachRootSequence !== null) duAttributes.push(['rachRootSequence', int(cell.prachRootSequence)]);
  const what = `${cell.band} NR-ARFCN ${cell.nrArfcn}${cell.bandwidthMHz ? ` ${cell.bandwidthMHz} MHz` : ''}`;
  const del = (ldn: string): MosCommand => ({ verb: 'del', ldn, why: `delete ${classOf(ldn)}=${cell.name}, created by the script` });
  return {
    commands: [
      {
        verb: 'crn',
        ldn: carrier,
        attributes: carrierAttributes,
        why: `sector carrier, ${what}${cell.sector !== null ? ` on SectorEquipmentFunction=${cell.sector}` : ''}`,
      },
      {
        verb: 'crn',
        ldn: du,
        attributes: duAttributes,
        why: `cell ${cell.name}: PCI ${cell.pci}, TAC ${cell.tac}, SSB ${cell.ssbNrArfcn}${cell.prachRootSequence !== null ? `, PRACH root ${cell.prachRootSequence}` : ''}`,
      },
      { verb: 'crn', ldn: cu, attributes: [['cellLocalId', int(cell.cellLocalId!)]], why: `CU part of ${cell.name}` },
    ],
    undo: [del(cu), del(du), del(carrier)],
  };
}

/**
 * A cell the inventory already has, planned again (replan): `set` of what the plan changes on its
 * NRCellDU, each undone by setting the dump's value back.
 */
function addReplanned(out: ScriptPlan, gnb: string, finding: string, cell: PlannedNrCell, existing: Cell): void {
  const du = [existing.dn, ...existing.altDns].map(ldnOf).find((l) => classOf(l) === 'NRCellDU');
  if (!du) {
    out.notes.push({ node: gnb, label: 'PLANNED', text: `${finding}: replanned, but the dump has no NRCellDU of it: not scripted` });
    return;
  }
  const changes = (
    [
      ['nRPCI', existing.pci, cell.pci],
      ['nRTAC', existing.nrTac ?? existing.tac, cell.tac],
      ['ssbFrequency', existing.ssb, cell.ssbNrArfcn],
      ['rachRootSequence', existing.rachRootSequence, cell.prachRootSequence],
    ] as const
  ).filter(([, from, to]) => from !== null && to !== null && from !== to) as ReadonlyArray<readonly [string, number, number]>;
  if (changes.length === 0) return;
  out.changes.push({
    node: gnb,
    label: 'PLANNED',
    finding,
    commands: changes.map(([attribute, from, to]) => ({
      verb: 'set',
      ldn: du,
      attribute,
      value: int(to),
      why: `replanned: ${attribute} ${from} -> ${to} (the node may want the cell locked first: bl, then deb)`,
    })),
    undo: changes.map(([attribute, from]) => ({ verb: 'set', ldn: du, attribute, value: int(from), why: `${attribute} back to ${from}` })),
  });
}

/** The NR cell as the relation writer reads a target: its gNB, identity and SSB, the PLMNs of the anchor it serves. */
function nrTarget(site: ParameterPlan, cell: PlannedNrCell, anchor: Cell): Cell {
  return {
    name: cell.name,
    dn: `ManagedElement=${site.gnbName},GNBCUCPFunction=1,NRCellCU=${cell.name}`,
    altDns: [],
    nodeName: site.gnbName,
    siteId: site.siteId,
    tech: '5G',
    band: cell.band,
    channel: cell.nrArfcn,
    pci: cell.pci,
    psc: null,
    bsic: null,
    lac: null,
    tac: cell.tac,
    nrTac: cell.tac,
    azimuth: cell.azimuth,
    cpichPower: null,
    maxTxPower: null,
    plmns: anchor.plmns,
    rachRootSequence: cell.prachRootSequence,
    ssb: cell.ssbNrArfcn,
    cellId: cell.cellLocalId,
    localCellId: null,
    ownerId: site.gnbId,
    globalId: site.gnbId !== null && cell.cellLocalId !== null && anchor.plmns[0] ? `${anchor.plmns[0]}-${site.gnbId}-${cell.cellLocalId}` : null,
  };
}

/** The scripts' changes for a planning run: the planned NR cells on each gNB, the EN-DC relations on the anchors. */
export function planningScripts(plan: ClusterPlan, index: NetworkIndex): ScriptPlan {
  const out = emptyPlan();
  const created = new CreatedMos();
  for (const site of plan.sites) {
    const fns = functionsOf(index, site.gnbName);
    for (const cell of site.nrCells) {
      if (cell.status !== 'planned') continue;
      const finding = `${cell.name} (${site.siteId}${cell.sector !== null ? ` sector ${cell.sector}` : ''})`;
      if (!SAFE.test(cell.name)) {
        out.byHand.push(`PLANNED ${finding}: the cell name has characters a script cannot carry`);
        continue;
      }
      const existing = index.cellByName(cell.name);
      if (existing && existing.tech === '5G') {
        addReplanned(out, site.gnbName, finding, cell, existing);
        continue;
      }
      const made = nrCellCommands(cell, fns);
      if ('missing' in made) out.notes.push({ node: site.gnbName, label: 'PLANNED', text: `${finding}: ${made.missing}: not scripted` });
      else out.changes.push({ node: site.gnbName, label: 'PLANNED', finding, ...made });
    }
    const cellsByName = new Map(site.nrCells.map((c) => [c.name, c]));
    let newGnbSaid = false;
    for (const rel of site.endcRelations) {
      const finding = `${rel.anchorCell} -> ${rel.nrCell}`;
      const anchor = index.cellByName(rel.anchorCell);
      const nr = cellsByName.get(rel.nrCell);
      if (!anchor || !nr) {
        out.byHand.push(`EN-DC ${finding}: ${anchor ? rel.nrCell : rel.anchorCell} is not in the plan's cells`);
        continue;
      }
      if (index.relationsFrom(anchor.name).some((r) => r.target?.name === nr.name)) continue;
      if (site.gnbId === null) {
        if (!newGnbSaid) {
          out.byHand.push(
            `EN-DC ${site.siteId}: ${site.gnbName} is a new gNB whose gNBId is set at its commissioning; its ${site.endcRelations.length} EN-DC relations (and the anchors' proxies of it) are scripted once it is in a dump`,
          );
          newGnbSaid = true;
        }
        continue;
      }
      addOutcome(out, createRelation(index, anchor, nrTarget(site, nr, anchor), 'EN-DC', finding, created, { createFrequency: true }));
    }
  }
  for (const u of plan.unplanned) out.byHand.push(`PLANNED ${u.siteId}: not planned (${u.reason})`);
  return out;
}
