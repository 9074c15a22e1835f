import { type Cell, type ExternalCell } from '../model';
import { int, refId, str } from './attributes';
import { CELL_PLMN_LISTS, type ExternalInput, globalId, OWNER_PLMN_LISTS, type PendingCell, plmnsOf } from './common';

/** UTRAN cells (UtranCell/UtranCellFDD on the RNC) and external cells (ExternalUtranCell*) (docs/engines/network.md). */

export function utranCell(c: Cell, p: PendingCell): void {
  const { rec, fn } = p;
  c.channel = int(rec, 'uarfcnDl');
  c.psc = int(rec, 'primaryScramblingCode');
  c.cpichPower = int(rec, 'primaryCpichPower');
  c.maxTxPower = int(rec, 'maximumTransmissionPower');
  c.lac = int(rec, 'lac') ?? refId(str(rec, 'locationAreaRef'));
  c.cellId = int(rec, 'cId', 'cellId');
  c.localCellId = int(rec, 'localCellId');
  c.ownerId = int(fn, 'rncId') ?? int(rec, 'rncId');
  c.plmns = plmnsOf(rec, CELL_PLMN_LISTS);
  if (c.plmns.length === 0) c.plmns = plmnsOf(fn, OWNER_PLMN_LISTS);
  c.globalId = globalId(c.plmns[0], c.ownerId, c.cellId);
}

export function utranExternal(ext: ExternalCell, x: ExternalInput): void {
  const { rec } = x;
  ext.psc = int(rec, 'primaryScramblingCode', 'physicalCellIdentity');
  ext.channel = int(rec, 'uarfcnDl') ?? x.freqOf(str(rec, 'utranFrequencyRef')) ?? x.parentChannel;
  ext.lac = int(rec, 'lac');
  ext.cellId = int(rec, 'cId', 'cellIdentity.cId');
  ext.ownerId = int(rec, 'rncId', 'cellIdentity.rncId');
  ext.plmn = x.plmn();
  ext.globalId = globalId(ext.plmn, ext.ownerId, ext.cellId);
}
