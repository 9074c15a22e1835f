import { type Cell, type ExternalCell, formatPlmn } from '../model';
import { type MoRecord } from '../records';
import { badValue, int, str } from './attributes';
import { CELL_PLMN_LISTS, type ExternalInput, globalId, OWNER_PLMN_LISTS, type PendingCell, plmnsOf } from './common';

/** GERAN cells (GeranCell/GsmCell/GsmSector) and external cells (ExternalGeranCell/ExternalGsmCell) (docs/engines/network.md). */

/** A GSM CGI written as `mcc-mnc-lac-ci`. */
function parseCgi(rec: MoRecord): { plmn: string; lac: number; ci: number } | null {
  const cgi = str(rec, 'cgi');
  if (cgi === null) return null;
  const m = /^(\d{3})-(\d{1,3})-(\d+)-(\d+)$/.exec(cgi);
  if (!m) throw badValue(rec, 'cgi', cgi, 'a CGI (mcc-mnc-lac-ci)');
  return { plmn: formatPlmn(m[1] as string, m[2] as string, (m[2] as string).length), lac: Number(m[3]), ci: Number(m[4]) };
}

function bsicOf(rec: MoRecord): number | null {
  const ncc = int(rec, 'ncc');
  const bcc = int(rec, 'bcc');
  if (ncc !== null && bcc !== null) return 8 * ncc + bcc;
  return int(rec, 'bsic');
}

export function gsmCell(c: Cell, p: PendingCell): void {
  const { rec, fn } = p;
  const cgi = parseCgi(rec);
  c.channel = int(rec, 'bcchNo', 'bcchFrequency', 'bcchArfcn', 'arfcn');
  c.bsic = bsicOf(rec);
  c.lac = int(rec, 'lac') ?? cgi?.lac ?? null;
  c.cellId = int(rec, 'cellIdentity', 'ci') ?? cgi?.ci ?? null;
  c.plmns = cgi ? [cgi.plmn] : plmnsOf(rec, CELL_PLMN_LISTS);
  if (c.plmns.length === 0) c.plmns = plmnsOf(fn, OWNER_PLMN_LISTS);
  c.globalId = globalId(c.plmns[0], c.lac, c.cellId);
}

export function gsmExternal(ext: ExternalCell, x: ExternalInput): void {
  const { rec } = x;
  const cgi = parseCgi(rec);
  ext.bsic = bsicOf(rec);
  ext.channel = int(rec, 'bcchFrequency', 'bcchNo', 'arfcn') ?? x.freqOf(str(rec, 'geranFrequencyRef')) ?? x.parentChannel;
  ext.lac = int(rec, 'lac') ?? cgi?.lac ?? null;
  ext.cellId = int(rec, 'cellIdentity', 'ci') ?? cgi?.ci ?? null;
  ext.plmn = cgi?.plmn ?? x.plmn();
  ext.globalId = globalId(ext.plmn, ext.lac, ext.cellId);
}
