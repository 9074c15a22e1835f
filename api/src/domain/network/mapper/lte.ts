import { type Cell, type ExternalCell } from '../model';
import { int, str } from './attributes';
import { CELL_PLMN_LISTS, type ExternalInput, globalId, OWNER_PLMN_LISTS, type PendingCell, pciOf, plmnsOf } from './common';

/** LTE (and NB-IoT) cells and external cells: EUtranCellFDD/TDD, NbIotCell, ExternalEUtranCell* (docs/engines/network.md). */

export function lteCell(c: Cell, p: PendingCell): void {
  const { rec, fn } = p;
  c.channel = int(rec, 'earfcndl', 'earfcn');
  c.pci = pciOf(rec);
  c.tac = int(rec, 'tac');
  c.rachRootSequence = int(rec, 'rachRootSequence');
  c.cellId = int(rec, 'cellId');
  c.localCellId = int(rec, 'localCellId');
  c.ownerId = int(fn, 'eNBId') ?? int(rec, 'eNBId');
  c.plmns = plmnsOf(rec, CELL_PLMN_LISTS);
  if (c.plmns.length === 0) c.plmns = plmnsOf(fn, OWNER_PLMN_LISTS);
  c.globalId = globalId(c.plmns[0], c.ownerId, c.cellId);
}

export function lteExternal(ext: ExternalCell, x: ExternalInput): void {
  const { rec, parent } = x;
  ext.pci = pciOf(rec);
  ext.channel = int(rec, 'earfcnDl', 'earfcndl', 'earfcn') ?? x.freqOf(str(rec, 'eutranFrequencyRef')) ?? x.parentChannel;
  ext.tac = int(rec, 'tac');
  ext.cellId = int(rec, 'localCellId', 'cellId', 'cellIdentity');
  ext.ownerId = int(rec, 'eNBId', 'eNodeBId') ?? int(parent, 'eNBId', 'eNodeBId');
  ext.plmn = x.plmn();
  ext.globalId = globalId(ext.plmn, ext.ownerId, ext.cellId);
}
