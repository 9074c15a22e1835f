import { type Cell, type CellTech, type ExternalCell, type ExternalCellKind, formatPlmn } from '../model';
import { type MoRecord } from '../records';
import { badValue, int, lastComponent, list, num } from './attributes';

/** What every technology's cell and external cell share: the pending records of a node, PLMN lists, PCI, global ids. */

export interface PendingCell {
  rec: MoRecord;
  tech: CellTech;
  /** Nearest function ancestor (ENodeBFunction, RncFunction, ...), for owner ids and PLMN defaults. */
  fn: MoRecord | null;
}

export interface PendingExternal {
  rec: MoRecord;
  kind: ExternalCellKind;
  /** The parent record (ExternalENodeBFunction, UtranFrequency, ...) when it was in the dump. */
  parent: MoRecord | null;
}

export interface NodeContext {
  name: string;
  dn: string;
  meContext: MoRecord | null;
  managedElement: MoRecord | null;
  functions: Set<string>;
  /** Technologies shown by the classes of the node's DNs ({@link DN_TECHNOLOGY_CLASSES}). */
  dnTechs: Set<'2G' | '3G' | '4G' | '5G'>;
  controller: boolean;
  location: { lat: number; lon: number } | null;
  cells: Map<string, PendingCell>;
  externals: Map<string, PendingExternal>;
  /** `Class=id` of frequency/carrier MOs → channel. */
  frequencies: Map<string, number>;
}

export const CELL_PLMN_LISTS = plmnKeys([
  'activePlmnList',
  'additionalPlmnList',
  'pLMNIdList',
  'plmnIdList',
  'plmnInfoList.plmnId',
  'plmnIdentityList',
  'plmnIdentity',
  'plmnId',
  'pLMNId',
  '',
]);
export const OWNER_PLMN_LISTS = plmnKeys(['eNodeBPlmnId', 'gNodeBPlmnId', 'gNBPlmnId', 'pLMNId', 'plmnId', 'plmnIdentity', 'pLMNIdList', 'plmnIdList', '']);

/** Ericsson pre-fills unused additionalPlmnList entries with MCC 001/1; they are not served PLMNs. */
function isPlaceholderMcc(mcc: string): boolean {
  return /^0*1$/.test(mcc.trim());
}

/** The mcc / mnc / mncLength attribute names of each PLMN list a record may hold, in the order they are tried. */
interface PlmnKeys {
  mcc: string;
  mnc: string;
  mncLength: string;
}

function plmnKeys(prefixes: readonly string[]): PlmnKeys[] {
  const key = (prefix: string, field: string): string => (prefix === '' ? field : `${prefix}.${field}`);
  return prefixes.map((p) => ({ mcc: key(p, 'mcc'), mnc: key(p, 'mnc'), mncLength: key(p, 'mncLength') }));
}

export function plmnsOf(rec: MoRecord | null, lists: readonly PlmnKeys[]): string[] {
  const out: string[] = [];
  if (!rec) return out;
  for (const keys of lists) {
    const mccs = list(rec, keys.mcc);
    if (mccs.length === 0) continue;
    const mncs = list(rec, keys.mnc);
    const lens = list(rec, keys.mncLength);
    for (let i = 0; i < Math.min(mccs.length, mncs.length); i++) {
      const mcc = (mccs[i] as string).trim();
      const mnc = (mncs[i] as string).trim();
      if (mcc === '' || mnc === '' || isPlaceholderMcc(mcc)) continue;
      if (!/^\d+$/.test(mcc) || !/^\d+$/.test(mnc)) throw badValue(rec, keys.mcc, `${mcc}/${mnc}`, 'a numeric PLMN');
      const len = lens[i] !== undefined && /^\d$/.test((lens[i] as string).trim()) ? Number(lens[i]) : null;
      const plmn = formatPlmn(mcc, mnc, len);
      if (!out.includes(plmn)) out.push(plmn);
    }
  }
  return out;
}

export function pciOf(rec: MoRecord | null): number | null {
  const group = int(rec, 'physicalLayerCellIdGroup');
  const sub = int(rec, 'physicalLayerSubCellId');
  if (group !== null && sub !== null) return 3 * group + sub;
  return int(rec, 'nRPCI', 'pci', 'physicalCellId', 'physicalLayerCellId', 'physicalCellIdentity');
}

export function globalId(plmn: string | null | undefined, owner: number | null, cell: number | null): string | null {
  return plmn && owner !== null && cell !== null ? `${plmn}-${owner}-${cell}` : null;
}

/** A cell with what the record says of any technology; the technology's own reader fills in the rest. */
export function baseCell(n: NodeContext, rec: MoRecord, tech: CellTech, siteId: string | null): Cell {
  return {
    name: rec.id,
    dn: rec.dn,
    altDns: [],
    nodeName: n.name,
    siteId: siteId ?? '',
    tech,
    band: null,
    channel: null,
    pci: null,
    psc: null,
    bsic: null,
    lac: null,
    tac: null,
    nrTac: null,
    azimuth: num(rec, 'azimuth'),
    cpichPower: null,
    maxTxPower: null,
    plmns: [],
    rachRootSequence: null,
    ssb: null,
    cellId: null,
    localCellId: null,
    ownerId: null,
    globalId: null,
  };
}

/** What an external cell's reader gets: the record and its parent, and the channels of the frequencies it may reference. */
export class ExternalInput {
  readonly rec: MoRecord;
  readonly parent: MoRecord | null;
  /** The channel of the parent when it is a frequency MO (an ExternalUtranCell under its UtranFrequency). */
  readonly parentChannel: number | null;

  constructor(
    p: PendingExternal,
    private readonly frequencies: Map<string, number> | null,
    frequencyClasses: Record<string, string[]>,
  ) {
    this.rec = p.rec;
    this.parent = p.parent;
    const names = p.parent ? frequencyClasses[p.parent.className] : undefined;
    this.parentChannel = p.parent && names ? int(p.parent, ...names) : null;
  }

  /** The channel of the node's frequency MO that `ref` names; null when the node has none such. */
  freqOf(ref: string | null): number | null {
    const last = lastComponent(ref);
    return last && this.frequencies ? (this.frequencies.get(last.key) ?? null) : null;
  }

  /** The cell's first PLMN, else its parent's (ExternalENodeBFunction...). */
  plmn(): string | null {
    return plmnsOf(this.rec, CELL_PLMN_LISTS)[0] ?? plmnsOf(this.parent, OWNER_PLMN_LISTS)[0] ?? null;
  }
}

/** An external cell with nothing read yet. */
export function baseExternal(rec: MoRecord, kind: ExternalCellKind, nodeName: string | null): ExternalCell {
  return {
    dn: rec.dn,
    name: rec.id,
    kind,
    nodeName,
    pci: null,
    psc: null,
    bsic: null,
    channel: null,
    band: null,
    tac: null,
    lac: null,
    plmn: null,
    ownerId: null,
    cellId: null,
    globalId: null,
  };
}
