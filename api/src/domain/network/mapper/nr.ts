import { bandOf, type Cell, type ExternalCell } from '../model';
import { DEFAULT_GNB_ID_LENGTH, type NrCellIdentity, splitNci } from '../nr';
import { int, lastComponent, num, str } from './attributes';
import { baseCell, CELL_PLMN_LISTS, type ExternalInput, globalId, type NodeContext, OWNER_PLMN_LISTS, type PendingCell, pciOf, plmnsOf } from './common';

/** NR cells (NRCellDU + NRCellCU merged) and external cells (ExternalNRCellCU, ExternalGUtranCell) (docs/engines/network.md). */

/** NRCellDU and NRCellCU of the same name are one cell: radio data from the DU, identity and relations on the CU. */
export function nrCell(n: NodeContext, name: string, siteId: string | null): Cell {
  let du: PendingCell | null = null;
  let cu: PendingCell | null = null;
  for (const p of n.cells.values()) {
    if (p.rec.id !== name) continue;
    if (p.rec.className === 'NRCellDU' && !du) du = p;
    if (p.rec.className === 'NRCellCU' && !cu) cu = p;
  }
  const main = (cu ?? du) as PendingCell;
  const c = baseCell(n, main.rec, '5G', siteId);
  if (cu && du) c.altDns = [du.rec.dn];
  const d = du?.rec ?? null;
  const u = cu?.rec ?? null;
  c.azimuth = num(d, 'azimuth') ?? num(u, 'azimuth');
  c.pci = pciOf(d) ?? pciOf(u);
  c.ssb = int(d, 'ssbFrequency');
  const carrier = lastComponent(str(d, 'nRSectorCarrierRef'));
  c.channel = int(d, 'arfcnDL') ?? (carrier ? (n.frequencies.get(carrier.key) ?? null) : null) ?? c.ssb;
  c.nrTac = int(d, 'nRTAC') ?? int(u, 'nRTAC');
  c.tac = c.nrTac;
  c.rachRootSequence = int(d, 'rachRootSequence') ?? int(u, 'rachRootSequence');
  c.cellId = int(d, 'cellLocalId') ?? int(u, 'cellLocalId');
  c.ownerId = int(du?.fn ?? null, 'gNBId') ?? int(cu?.fn ?? null, 'gNBId');
  if (c.ownerId === null || c.cellId === null) {
    const id = nciIdentity(du) ?? nciIdentity(cu);
    if (id) {
      c.ownerId ??= id.gnbId;
      c.cellId ??= id.cellLocalId;
    }
  }
  c.plmns = [...new Set([...plmnsOf(d, CELL_PLMN_LISTS), ...plmnsOf(u, CELL_PLMN_LISTS)])];
  if (c.plmns.length === 0) c.plmns = [...new Set([...plmnsOf(cu?.fn ?? null, OWNER_PLMN_LISTS), ...plmnsOf(du?.fn ?? null, OWNER_PLMN_LISTS)])];
  c.globalId = globalId(c.plmns[0], c.ownerId, c.cellId);
  c.band = bandOf('5G', c.channel);
  return c;
}

/**
 * The gNB id and local cell id in an NR cell's `nCI`, split by its function's `gNBIdLength` (Ericsson's
 * default when the export leaves it out); null when the cell has no nCI.
 */
function nciIdentity(p: PendingCell | null): NrCellIdentity | null {
  const nci = int(p?.rec ?? null, 'nCI');
  if (p === null || nci === null) return null;
  const length = int(p.fn, 'gNBIdLength');
  return splitNci(nci, length ?? DEFAULT_GNB_ID_LENGTH, length !== null && p.fn ? p.fn : p.rec);
}

export function nrExternal(ext: ExternalCell, x: ExternalInput): void {
  const { rec, parent } = x;
  ext.pci = pciOf(rec);
  ext.channel = int(rec, 'arfcnDL', 'ssbFrequency') ?? x.freqOf(str(rec, 'nRFrequencyRef', 'gUtranSyncSignalFrequencyRef')) ?? x.parentChannel;
  ext.tac = int(rec, 'nRTAC', 'tac');
  ext.cellId = int(rec, 'cellLocalId', 'localCellId');
  ext.ownerId = int(rec, 'gNBId', 'gNodeBId') ?? int(parent, 'gNBId', 'gNodeBId');
  ext.plmn = x.plmn();
  ext.globalId = globalId(ext.plmn, ext.ownerId, ext.cellId);
}
