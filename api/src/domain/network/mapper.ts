import { detachedString } from '../../lib/detached-string';
import { NetworkParseError } from './errors';
import {
  assertCoordinateEncoding,
  bandOf,
  type Cell,
  type CellTech,
  type CoordinateEncoding,
  decodeCoordinates,
  emptyCounts,
  type ExternalCell,
  type ExternalCellKind,
  formatPlmn,
  type NetworkCounts,
  type NetworkNode,
  type NodeTechnology,
  type Rat,
  type Relation,
  type Site,
} from './model';
import { DEFAULT_GNB_ID_LENGTH, type NrCellIdentity, splitNci } from './nr';
import { type Attributes, type DnComponent, type MoRecord, splitDn } from './records';
import { DEFAULT_SITE_RULE, type SiteRule, siteIdBy, UNMATCHED_EXAMPLES, type UnmatchedNames } from './site-rule';
import { iubNodeName } from './utran';

/**
 * Maps managed-object records (from {@link parseBulkCm} or {@link parseCmedit}) into the inventory
 * model and hands each entity to a sink as soon as it is complete, so an importer can insert in
 * batches inside one transaction.
 *
 * Memory is bounded by the largest node, not by the file: the mapper keeps the records of the current
 * DN ancestry, the cells and external cells of the current node (NR DU/CU merging and frequency
 * references need the whole node), and the set of site ids and node DNs already emitted (one short
 * string each, so sites are never emitted twice). It builds no index of cells: relations are emitted
 * with the raw DN they point at and resolved later by the importer.
 *
 * Order guarantees, per node (a node = one MeContext, or a ManagedElement without MeContext):
 * site → node → cells → external cells, all when the node ends. Relations are emitted as they are read,
 * i.e. before their node and cells; they carry DNs only. A site is emitted once per id, except that a
 * site first seen without coordinates (e.g. only through RNC cell names) is emitted a second time when a
 * node later supplies its coordinates — upsert sites by id.
 *
 * Records of one node are expected to be contiguous (true of Bulk CM files and of ENM exports sorted
 * by FDN). If a node reappears later, it is not emitted again, but NR DU/CU pairs split across the two
 * visits are not merged.
 */

/**
 * Where the mapper hands its entities. The entity calls are synchronous (a sink that writes somewhere
 * buffers); `drain`, when present, is awaited after every batch of records the mapper was given (one
 * input chunk's worth, a few hundred entities at most): that is where a buffering sink writes.
 */
export interface NetworkSink {
  site(site: Site): void;
  node(node: NetworkNode): void;
  cell(cell: Cell): void;
  externalCell(cell: ExternalCell): void;
  relation(relation: Relation): void;
  drain?(): Promise<void>;
}

export interface MapOptions {
  /** How `latitude`/`longitude` are encoded in this dump (an import setting: the file does not say). */
  coords: CoordinateEncoding;
  /** Which part of a node name (and, for RNC/BSC cells, of the cell name) is the site id. Default: {@link DEFAULT_SITE_RULE}. */
  siteRule?: SiteRule;
}

export interface MapResult {
  /** Exactly what was handed to the sink (sites: distinct ids). */
  counts: NetworkCounts;
  /** Managed-object records read. */
  records: number;
  /** Relation MOs that have no cell among their ancestors, hence no source; not emitted. */
  relationsWithoutSourceCell: number;
  /** Node names (and RNC/BSC cell names) the site rule did not match. */
  unmatchedNames: UnmatchedNames;
}

const CELL_CLASSES: Record<string, CellTech> = {
  GeranCell: '2G',
  GsmCell: '2G',
  GsmSector: '2G',
  UtranCell: '3G',
  UtranCellFDD: '3G',
  EUtranCellFDD: '4G',
  EUtranCellTDD: '4G',
  NRCellDU: '5G',
  NRCellCU: '5G',
  NbIotCell: 'NB-IoT',
};

const EXTERNAL_CLASSES: Record<string, ExternalCellKind> = {
  ExternalGeranCell: '2G',
  ExternalGsmCell: '2G',
  ExternalUtranCell: '3G',
  ExternalUtranCellFDD: '3G',
  ExternalUtranCellTDD: '3G',
  ExternalEUtranCell: '4G',
  ExternalEUtranCellFDD: '4G',
  ExternalEUtranCellTDD: '4G',
  ExternalNRCellCU: '5G',
  ExternalGUtranCell: '5G',
};

/** Relation classes with the target RAT to assume when the target DN does not tell. */
const RELATION_CLASSES: Record<string, Rat> = {
  EUtranCellRelation: 'LTE',
  EUtranRelation: 'LTE',
  UtranCellRelation: 'UTRAN',
  UtranRelation: 'UTRAN',
  GeranCellRelation: 'GERAN',
  GsmRelation: 'GERAN',
  GUtranCellRelation: 'NR',
  NRCellRelation: 'NR',
};

/** Where relations keep their target, by vendor and release; the first present one wins. */
const TARGET_ATTRIBUTES = [
  'neighborCellRef',
  'adjacentCell',
  'nRCellRef',
  'utranCellRef',
  'externalUtranCellFDDRef',
  'extGeranCellRef',
  'externalGsmCellRef',
  'geranCellRef',
  'eUtranCellRef',
  'gUtranCellRef',
  'extGUtranCellRef',
];

type FunctionInfo = { tech: '2G' | '3G' | '4G' | '5G'; controller: boolean };
const FUNCTION_CLASSES: Record<string, FunctionInfo> = {
  ENodeBFunction: { tech: '4G', controller: false },
  GNBDUFunction: { tech: '5G', controller: false },
  GNBCUCPFunction: { tech: '5G', controller: false },
  GNBCUUPFunction: { tech: '5G', controller: false },
  NodeBFunction: { tech: '3G', controller: false },
  BtsFunction: { tech: '2G', controller: false },
  RncFunction: { tech: '3G', controller: true },
  BscFunction: { tech: '2G', controller: true },
  BssFunction: { tech: '2G', controller: true },
};

/**
 * Classes that, met anywhere in a DN, show a technology the node runs even when the export lists none
 * of its cells or functions (a `cmedit get` of NRSectorCarrier alone): the function classes, and
 * GsmSector, under which a BTS's Trx and channel groups live.
 */
const DN_TECHNOLOGY_CLASSES: Record<string, '2G' | '3G' | '4G' | '5G'> = {
  ...Object.fromEntries(Object.entries(FUNCTION_CLASSES).map(([cls, info]) => [cls, info.tech])),
  GsmSector: '2G',
};

/** MOs whose `latitude`/`longitude` locate the whole site. */
const LOCATION_CLASSES = new Set(['MeContext', 'ManagedElement', 'Site', 'ENodeBFunction', 'GNBDUFunction', 'GNBCUCPFunction', 'NodeBFunction', 'BtsFunction']);

/** Frequency / carrier MOs that cells and external cells reference, with the attribute holding the channel. */
const FREQUENCY_CLASSES: Record<string, string[]> = {
  EUtranFrequency: ['arfcnValueEUtranDl', 'earfcnDl', 'earfcn'],
  UtranFrequency: ['arfcnValueUtranDl', 'uarfcnDl'],
  GeranFrequency: ['arfcnValueGeranDl', 'arfcn'],
  GUtranSyncSignalFrequency: ['arfcn', 'ssbFrequency'],
  NRFrequency: ['arfcnValueNRDl', 'ssbFrequency', 'arfcn'],
  NRSectorCarrier: ['arfcnDL', 'arfcnDl'],
};

const CELL_PLMN_LISTS = plmnKeys([
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
const OWNER_PLMN_LISTS = plmnKeys(['eNodeBPlmnId', 'gNodeBPlmnId', 'gNBPlmnId', 'pLMNId', 'plmnId', 'plmnIdentity', 'pLMNIdList', 'plmnIdList', '']);

function ratOf(tech: CellTech | ExternalCellKind): Rat {
  switch (tech) {
    case '2G':
      return 'GERAN';
    case '3G':
      return 'UTRAN';
    case '4G':
    case 'NB-IoT':
      return 'LTE';
    case '5G':
      return 'NR';
  }
}

/** A DN component, with the DN up to it when a reader handed it over ({@link MoRecord.path}). */
type Part = DnComponent & { readonly dn?: string };

/** The DN of `parts[0..upTo]`: the reader's when it gave one, else joined. */
function dnAt(parts: readonly Part[], upTo: number): string {
  const known = (parts[upTo] as Part).dn;
  if (known !== undefined) return known;
  let s = '';
  for (let i = 0; i <= upTo; i++) {
    const p = parts[i] as Part;
    s += (i === 0 ? '' : ',') + `${p.className}=${p.id}`;
  }
  return s;
}

interface NodeKey {
  name: string;
  dn: string;
  /** True when the key is a MeContext (which wins over any ManagedElement of the DN). */
  meContext: boolean;
}

/**
 * What the mapper needs from a DN, worked out once per record from its parent's and reused by its
 * children (records arrive parents first, so only the last component or two are ever looked at). With
 * a reader's {@link MoRecord.path}, `parts` is that array and nothing is split.
 */
interface DnPath {
  parts: readonly Part[];
  /** `parts` is a reader's path: its steps are shared objects, so a prefix is tested by identity. */
  steps: boolean;
  /** The node the DN is in: its first MeContext, else its first ManagedElement. */
  node: NodeKey | null;
  /** A controller function (RncFunction, BscFunction) is among the components. */
  controller: boolean;
  /**
   * The function classes among the components (and GsmSector), shared with the parent's path when the
   * new components add none, so a record only looks at them when they changed.
   */
  functions: readonly string[];
}

const NO_FUNCTIONS: readonly string[] = [];

function keyAt(parts: readonly Part[], at: number): NodeKey {
  const p = parts[at] as Part;
  return { name: p.id, dn: dnAt(parts, at), meContext: p.className === 'MeContext' };
}

/** The path of `parent` extended to `parts`, of which the first `parent.parts.length` are the parent's. */
function extendPath(parent: DnPath | null, parts: readonly Part[], steps: boolean): DnPath {
  let node = parent?.node ?? null;
  let controller = parent?.controller ?? false;
  let functions = parent?.functions ?? NO_FUNCTIONS;
  const from = parent ? parent.parts.length : 0;
  for (let i = from; i < parts.length; i++) {
    const cls = (parts[i] as Part).className;
    if (cls === 'MeContext' && !node?.meContext) node = keyAt(parts, i);
    else if (cls === 'ManagedElement' && !node) node = keyAt(parts, i);
    if (FUNCTION_CLASSES[cls]?.controller === true) controller = true;
    if (DN_TECHNOLOGY_CLASSES[cls] && !functions.includes(cls)) functions = [...functions, cls];
  }
  return { parts, steps, node, controller, functions };
}

/** The reader's path of `rec` extends `path` (or is it): tested on the shared step objects. */
function stepsExtend(path: DnPath, rec: MoRecord): boolean {
  const steps = rec.path;
  if (!steps || !path.steps) return false;
  const depth = path.parts.length;
  return depth <= steps.length && steps[depth - 1] === path.parts[depth - 1];
}

/**
 * Whether `top` (with `path`) is `rec`'s MO or one of its ancestors. Shared steps say so at once; else
 * (no reader path, or an MO of the same DN met again) `rec.dn` is `top.dn` or starts with `top.dn,`.
 */
function isAncestorOrSelf(top: MoRecord, path: DnPath, rec: MoRecord): boolean {
  if (stepsExtend(path, rec)) return true;
  // Cheap tests first: the parsers hand over the parent's own DN string as `parentDn`, and startsWith
  // on long DNs costs more than the rest of a record's mapping.
  const topDn = top.dn;
  const dn = rec.dn;
  return topDn === dn || (dn.charCodeAt(topDn.length) === 44 && (topDn === rec.parentDn || dn.startsWith(topDn)));
}

// ---------------------------------------------------------------------------------------------------
// Attribute access

/**
 * Lower-cased attribute names. Names come from a small vocabulary, so lower-casing each once saves a
 * string per lookup; the bound keeps a file of ever new names from growing it.
 */
const lowerNames = new Map<string, string>();
const LOWER_NAMES_LIMIT = 10_000;

function lower(name: string): string {
  let l = lowerNames.get(name);
  if (l === undefined) {
    // Copies: the table outlives the import, and a name cut from the file's text would keep its chunk.
    l = detachedString(name.toLowerCase());
    if (lowerNames.size < LOWER_NAMES_LIMIT) lowerNames.set(detachedString(name), l);
  }
  return l;
}

/**
 * Every attribute name the mapper has been given (as spelt in the files), by lower-cased name. Most
 * lookups miss (a value is looked for under every name any vendor or release uses); a miss then costs
 * one map lookup and a check of the other spellings, almost always none, instead of re-keying each
 * record by lower-cased name. Process-wide, as the names are a small vocabulary shared by imports.
 */
const spellings = new Map<string, string[]>();
const spelt = new Set<string>();
/** Past this many names (a file of ever new ones), lookups fold each record's keys instead. */
const SPELLINGS_LIMIT = 50_000;
let spellingsFull = false;

/** Records every key of `attrs` before any lookup in it. */
function learnNames(attrs: Attributes): void {
  if (spellingsFull) return;
  for (const k in attrs) {
    if (spelt.has(k)) continue;
    if (spelt.size >= SPELLINGS_LIMIT) {
      spellingsFull = true;
      return;
    }
    // Copies: the table outlives the import, and a name cut from the file's text would keep its chunk.
    const name = detachedString(k);
    spelt.add(name);
    const l = lower(name);
    const known = spellings.get(l);
    if (known) known.push(name);
    else spellings.set(l, [name]);
  }
}

/** After {@link SPELLINGS_LIMIT}: each record's keys by lower-cased name (the last of several), built on its first miss. */
const foldedKeys = new WeakMap<Attributes, Map<string, string>>();

function foldedKeyOf(attrs: Attributes, name: string): string | null {
  let folded = foldedKeys.get(attrs);
  if (folded === undefined) {
    folded = new Map();
    for (const k in attrs) folded.set(lower(k), k);
    foldedKeys.set(attrs, folded);
  }
  return folded.get(lower(name)) ?? null;
}

/**
 * The key under which `attrs` holds `name`: the name itself, else a key equal to it but for case
 * (Ericsson `earfcndl` vs 3GPP `earfcnDl`; of several such keys, the last); null when none.
 */
function keyOf(attrs: Attributes, name: string): string | null {
  if (attrs[name] !== undefined) return name;
  if (spellingsFull) return foldedKeyOf(attrs, name);
  const l = lower(name);
  const others = spellings.get(l);
  if (others === undefined) return null;
  let found: string | null = null;
  let several = false;
  for (const o of others) {
    if (attrs[o] === undefined) continue;
    if (found !== null) several = true;
    found = o;
  }
  if (several) for (const k in attrs) if (lower(k) === l) found = k;
  return found;
}

function list(rec: MoRecord | null, name: string): string[] {
  if (!rec) return [];
  const key = keyOf(rec.attributes, name);
  if (key === null) return [];
  const v = rec.attributes[key] as string | string[];
  return typeof v === 'string' ? [v] : v;
}

/** First non-blank value of the first present attribute among `names`, with the key it came from. */
function first(rec: MoRecord | null, names: readonly string[]): { key: string; value: string } | null {
  if (!rec) return null;
  for (const n of names) {
    const key = keyOf(rec.attributes, n);
    if (key === null) continue;
    const v = rec.attributes[key] as string | string[];
    const one = typeof v === 'string' ? v : v[0];
    if (one !== undefined) {
      const value = one.trim();
      if (value !== '') return { key, value };
    }
  }
  return null;
}

function str(rec: MoRecord | null, ...names: string[]): string | null {
  return first(rec, names)?.value ?? null;
}

function badValue(rec: MoRecord, name: string, value: string, expected: string): NetworkParseError {
  return new NetworkParseError(rec.line ?? 0, rec.column ?? 1, `${rec.className}=${rec.id}: attribute ${name} = "${value}" is not ${expected}`);
}

function int(rec: MoRecord | null, ...names: string[]): number | null {
  const f = first(rec, names);
  if (!rec || !f) return null;
  if (!/^[-+]?\d+$/.test(f.value)) throw badValue(rec, f.key, f.value, 'an integer');
  return Number(f.value);
}

function num(rec: MoRecord | null, ...names: string[]): number | null {
  const f = first(rec, names);
  if (!rec || !f) return null;
  const x = Number(f.value);
  if (!Number.isFinite(x)) throw badValue(rec, f.key, f.value, 'a number');
  return x;
}

function bool(rec: MoRecord, names: string[], fallback: boolean): boolean {
  const f = first(rec, names);
  if (!f) return fallback;
  const t = f.value.toLowerCase();
  if (t === 'true' || t === '1' || t === 'yes') return true;
  if (t === 'false' || t === '0' || t === 'no') return false;
  throw badValue(rec, f.key, f.value, 'a boolean');
}

/** Last component id of a reference DN, as a number when it is one (e.g. `...,LocationArea=1234` → 1234). */
function refId(ref: string | null): number | null {
  if (ref === null) return null;
  const parts = splitDn(ref);
  const last = parts?.[parts.length - 1];
  return last && /^\d+$/.test(last.id) ? Number(last.id) : null;
}

/**
 * The last components of reference DNs already split: a dump names the same few targets over and over
 * (every relation to a cell, every cell to its frequency). Bounded, so a file of ever new references
 * does not grow it.
 */
interface RefTarget extends DnComponent {
  /** `Class=id`: how the node's frequencies are keyed, made once per reference rather than per lookup. */
  key: string;
}
const lastComponents = new Map<string, RefTarget | null>();
const LAST_COMPONENTS_LIMIT = 50_000;

function lastComponent(ref: string | null): RefTarget | null {
  if (ref === null) return null;
  let last = lastComponents.get(ref);
  if (last === undefined) {
    const parts = splitDn(ref);
    const found = parts?.[parts.length - 1];
    // Copies: the reference was cut from a 64 KB chunk of the file, and a cached cut kept the whole chunk
    // alive, so an import held most of its file (62 MB of a 94 MB dump) until the cache was cleared.
    last = found ? { className: detachedString(found.className), id: detachedString(found.id), key: detachedString(`${found.className}=${found.id}`) } : null;
    if (lastComponents.size >= LAST_COMPONENTS_LIMIT) lastComponents.clear();
    lastComponents.set(detachedString(ref), last);
  }
  return last;
}

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

function plmnsOf(rec: MoRecord | null, lists: readonly PlmnKeys[]): string[] {
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

/** A GSM CGI written as `mcc-mnc-lac-ci`. */
function parseCgi(rec: MoRecord): { plmn: string; lac: number; ci: number } | null {
  const cgi = str(rec, 'cgi');
  if (cgi === null) return null;
  const m = /^(\d{3})-(\d{1,3})-(\d+)-(\d+)$/.exec(cgi);
  if (!m) throw badValue(rec, 'cgi', cgi, 'a CGI (mcc-mnc-lac-ci)');
  return { plmn: formatPlmn(m[1] as string, m[2] as string, (m[2] as string).length), lac: Number(m[3]), ci: Number(m[4]) };
}

function pciOf(rec: MoRecord | null): number | null {
  const group = int(rec, 'physicalLayerCellIdGroup');
  const sub = int(rec, 'physicalLayerSubCellId');
  if (group !== null && sub !== null) return 3 * group + sub;
  return int(rec, 'nRPCI', 'pci', 'physicalCellId', 'physicalLayerCellId', 'physicalCellIdentity');
}

function bsicOf(rec: MoRecord): number | null {
  const ncc = int(rec, 'ncc');
  const bcc = int(rec, 'bcc');
  if (ncc !== null && bcc !== null) return 8 * ncc + bcc;
  return int(rec, 'bsic');
}

function globalId(plmn: string | null | undefined, owner: number | null, cell: number | null): string | null {
  return plmn && owner !== null && cell !== null ? `${plmn}-${owner}-${cell}` : null;
}

// ---------------------------------------------------------------------------------------------------

interface PendingCell {
  rec: MoRecord;
  tech: CellTech;
  /** Nearest function ancestor (ENodeBFunction, RncFunction, ...), for owner ids and PLMN defaults. */
  fn: MoRecord | null;
}

interface PendingExternal {
  rec: MoRecord;
  kind: ExternalCellKind;
  /** The parent record (ExternalENodeBFunction, UtranFrequency, ...) when it was in the dump. */
  parent: MoRecord | null;
}

interface NodeContext {
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

export class NetworkMapper {
  private readonly coords: CoordinateEncoding;
  private readonly siteRule: SiteRule;
  private readonly unmatched: UnmatchedNames = { count: 0, examples: [] };
  private readonly counts = emptyCounts();
  private readonly sites = new Map<string, boolean>();
  private readonly nodes = new Set<string>();
  private ancestors: MoRecord[] = [];
  /** The DN path of each record in `ancestors`, at the same index. */
  private paths: DnPath[] = [];
  private node: NodeContext | null = null;
  private records = 0;
  private orphanRelations = 0;
  private finished = false;

  constructor(
    private readonly sink: NetworkSink,
    options: MapOptions,
  ) {
    this.coords = assertCoordinateEncoding(options.coords);
    this.siteRule = options.siteRule ?? DEFAULT_SITE_RULE;
  }

  /** Maps one record; entities it completes go to the sink at once (relations) or when their node ends. */
  push(incoming: MoRecord): void {
    if (this.finished) throw new Error('NetworkMapper: push after finish');
    this.records++;
    while (this.ancestors.length > 0) {
      if (isAncestorOrSelf(this.ancestors[this.ancestors.length - 1] as MoRecord, this.paths[this.paths.length - 1] as DnPath, incoming)) break;
      this.ancestors.pop();
      this.paths.pop();
    }
    let rec = incoming;
    let repeat = false;
    let path: DnPath;
    const top = this.ancestors[this.ancestors.length - 1];
    const topPath = this.paths[this.paths.length - 1];
    const steps = incoming.path;
    if (top && topPath && ((steps !== undefined && steps.length === topPath.parts.length && stepsExtend(topPath, incoming)) || top.dn === incoming.dn)) {
      // A second record for the same MO (vendor extension or late attributes): complete the first.
      learnNames(incoming.attributes);
      for (const [k, v] of Object.entries(incoming.attributes)) if (!(k in top.attributes)) top.attributes[k] = v;
      foldedKeys.delete(top.attributes);
      rec = top;
      repeat = true;
      path = topPath;
    } else {
      if (steps && (!topPath || stepsExtend(topPath, incoming))) {
        path = extendPath(topPath ?? null, steps, true);
      } else {
        // Below a known ancestor only the new components are split; they are the same ones a split of the whole DN gives.
        const dn = incoming.dn;
        const tail = splitDn(top ? dn.slice(top.dn.length + 1) : dn);
        if (!tail) throw new NetworkParseError(rec.line ?? 0, rec.column ?? 1, `malformed DN "${dn}"`);
        path = extendPath(topPath ?? null, topPath ? topPath.parts.concat(tail) : tail, false);
      }
      learnNames(rec.attributes);
      this.ancestors.push(rec);
      this.paths.push(path);
    }

    const parts = path.parts;
    const key = path.node;
    if (this.node && this.node.dn !== key?.dn) this.flushNode();
    if (key && !this.node) this.node = this.newNode(key);
    const node = this.node;
    const cls = rec.className;

    if (node) {
      // A cmedit export may list UtranCells without their RncFunction: the DN alone shows a controller.
      if (path.controller) node.controller = true;
      if (path.functions !== topPath?.functions) {
        for (const f of path.functions) {
          node.dnTechs.add(DN_TECHNOLOGY_CLASSES[f] as '2G' | '3G' | '4G' | '5G');
          // A function met only in the DNs of its children still is one of the node's (its type says so).
          if (FUNCTION_CLASSES[f]) node.functions.add(f);
        }
      }
      if (cls === 'MeContext' && rec.dn === node.dn) node.meContext = rec;
      if (cls === 'ManagedElement' && !node.managedElement) node.managedElement = rec;
      const fn = FUNCTION_CLASSES[cls];
      if (fn) {
        node.functions.add(cls);
        if (fn.controller) node.controller = true;
      }
      if (LOCATION_CLASSES.has(cls) && !node.location) node.location = this.locationOf(rec);
      const freq = FREQUENCY_CLASSES[cls];
      if (freq) {
        const ch = int(rec, ...freq);
        if (ch !== null) node.frequencies.set(`${cls}=${rec.id}`, ch);
      }
    }

    const cellTech = CELL_CLASSES[cls];
    if (cellTech) {
      if (!node) throw new NetworkParseError(rec.line ?? 0, rec.column ?? 1, `cell ${rec.dn} is not inside a MeContext or ManagedElement`);
      if (!repeat) node.cells.set(rec.dn, { rec, tech: cellTech, fn: this.nearestFunction() });
      return;
    }
    const extKind = EXTERNAL_CLASSES[cls];
    if (extKind) {
      if (repeat) return;
      const parent = this.ancestors.length >= 2 ? (this.ancestors[this.ancestors.length - 2] as MoRecord) : null;
      const pending: PendingExternal = { rec, kind: extKind, parent: parent && parent.dn === rec.parentDn ? parent : null };
      if (node) node.externals.set(rec.dn, pending);
      else this.emitExternal(pending, null, null);
      return;
    }
    if (RELATION_CLASSES[cls] && !repeat) this.emitRelation(rec, parts, key?.name ?? null);
  }

  /** Emits the last node and lets the sink drain; the sink has seen every entity when this resolves. */
  async finish(): Promise<MapResult> {
    if (!this.finished) {
      this.flushNode();
      this.finished = true;
      this.ancestors = [];
      this.paths = [];
      await this.sink.drain?.();
    }
    return {
      counts: this.counts,
      records: this.records,
      relationsWithoutSourceCell: this.orphanRelations,
      unmatchedNames: { count: this.unmatched.count, examples: [...this.unmatched.examples] },
    };
  }

  private newNode(key: { name: string; dn: string }): NodeContext {
    return {
      name: key.name,
      dn: key.dn,
      meContext: null,
      managedElement: null,
      functions: new Set(),
      dnTechs: new Set(),
      controller: false,
      location: null,
      cells: new Map(),
      externals: new Map(),
      frequencies: new Map(),
    };
  }

  private nearestFunction(): MoRecord | null {
    for (let i = this.ancestors.length - 2; i >= 0; i--) {
      const a = this.ancestors[i] as MoRecord;
      if (FUNCTION_CLASSES[a.className]) return a;
    }
    return null;
  }

  private locationOf(rec: MoRecord): { lat: number; lon: number } | null {
    const lat = num(rec, 'latitude');
    const lon = num(rec, 'longitude');
    if (lat === null || lon === null || (lat === 0 && lon === 0)) return null;
    const decoded = decodeCoordinates(this.coords, lat, lon, str(rec, 'latitudeSign'));
    if (!decoded) {
      throw new NetworkParseError(
        rec.line ?? 0,
        rec.column ?? 1,
        `${rec.className}=${rec.id}: latitude ${lat} / longitude ${lon} are outside the globe when read as ${this.coords} — is the coordinate encoding right?`,
      );
    }
    return decoded;
  }

  private siteIdOf(name: string): string {
    const { siteId, matched } = siteIdBy(this.siteRule, name);
    if (!matched) {
      this.unmatched.count++;
      if (this.unmatched.examples.length < UNMATCHED_EXAMPLES && !this.unmatched.examples.includes(name)) this.unmatched.examples.push(name);
    }
    return siteId;
  }

  private emitSite(id: string, name: string, location: { lat: number; lon: number } | null): void {
    const had = this.sites.get(id);
    if (had === undefined) this.counts.sites++;
    else if (had || !location) return;
    this.sites.set(id, location !== null);
    this.sink.site({ id, name, lat: location?.lat ?? null, lon: location?.lon ?? null });
  }

  private flushNode(): void {
    const n = this.node;
    if (!n) return;
    this.node = null;

    const type = str(n.meContext, 'neType') ?? str(n.managedElement, 'neType', 'managedElementType') ?? inferType(n);
    const controller = n.controller || (type !== null && /^(RNC|BSC)$/i.test(type));
    const techs = new Set<'2G' | '3G' | '4G' | '5G'>();
    for (const c of n.cells.values()) techs.add(c.tech === 'NB-IoT' ? '4G' : c.tech);
    if (techs.size === 0) for (const t of n.dnTechs) techs.add(t);
    const technology: NodeTechnology | null = techs.size === 0 ? null : techs.size === 1 ? [...techs][0]! : 'multi';

    let siteId: string | null = null;
    if (!controller) {
      siteId = this.siteIdOf(n.name);
      let location = n.location;
      if (!location) {
        for (const c of n.cells.values()) {
          location = this.locationOf(c.rec);
          if (location) break;
        }
      }
      const siteName = str(n.managedElement, 'userLabel') ?? str(n.meContext, 'userLabel') ?? str(n.managedElement, 'locationName', 'siteLocation') ?? siteId;
      this.emitSite(siteId, siteName, location);
    }

    if (!this.nodes.has(n.dn)) {
      this.nodes.add(n.dn);
      this.counts.nodes++;
      this.sink.node({ name: n.name, dn: n.dn, siteId, technology, type });
    }

    const nrDone = new Set<string>();
    for (const pending of n.cells.values()) {
      let cell: Cell;
      if (pending.tech === '5G') {
        if (nrDone.has(pending.rec.id)) continue;
        nrDone.add(pending.rec.id);
        cell = this.nrCell(n, pending.rec.id, siteId);
      } else {
        cell = this.cell(n, pending, siteId);
      }
      if (controller) {
        cell.siteId = this.siteIdOf(this.carrierName(pending.rec) ?? cell.name);
        this.emitSite(cell.siteId, cell.siteId, null);
      }
      this.counts.cells[cell.tech]++;
      this.sink.cell(cell);
    }
    for (const ext of n.externals.values()) this.emitExternal(ext, n.name, n.frequencies);
  }

  /** The NodeB carrying a controller's cell, from its Iub link; null when the cell names none. */
  private carrierName(rec: MoRecord): string | null {
    const ref = str(rec, 'iubLinkRef');
    if (ref === null) return null;
    if (splitDn(ref) === null) throw badValue(rec, 'iubLinkRef', ref, 'a DN');
    return iubNodeName(ref);
  }

  private baseCell(n: NodeContext, rec: MoRecord, tech: CellTech, siteId: string | null): Cell {
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

  private cell(n: NodeContext, p: PendingCell, siteId: string | null): Cell {
    const { rec, fn } = p;
    const c = this.baseCell(n, rec, p.tech, siteId);
    switch (p.tech) {
      case '4G':
      case 'NB-IoT': {
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
        break;
      }
      case '3G': {
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
        break;
      }
      case '2G': {
        const cgi = parseCgi(rec);
        c.channel = int(rec, 'bcchNo', 'bcchFrequency', 'bcchArfcn', 'arfcn');
        c.bsic = bsicOf(rec);
        c.lac = int(rec, 'lac') ?? cgi?.lac ?? null;
        c.cellId = int(rec, 'cellIdentity', 'ci') ?? cgi?.ci ?? null;
        c.plmns = cgi ? [cgi.plmn] : plmnsOf(rec, CELL_PLMN_LISTS);
        if (c.plmns.length === 0) c.plmns = plmnsOf(fn, OWNER_PLMN_LISTS);
        c.globalId = globalId(c.plmns[0], c.lac, c.cellId);
        break;
      }
      case '5G':
        break;
    }
    c.band = bandOf(c.tech, c.channel);
    return c;
  }

  /** NRCellDU and NRCellCU of the same name are one cell: radio data from the DU, identity and relations on the CU. */
  private nrCell(n: NodeContext, name: string, siteId: string | null): Cell {
    let du: PendingCell | null = null;
    let cu: PendingCell | null = null;
    for (const p of n.cells.values()) {
      if (p.rec.id !== name) continue;
      if (p.rec.className === 'NRCellDU' && !du) du = p;
      if (p.rec.className === 'NRCellCU' && !cu) cu = p;
    }
    const main = (cu ?? du) as PendingCell;
    const c = this.baseCell(n, main.rec, '5G', siteId);
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

  private emitExternal(p: PendingExternal, nodeName: string | null, frequencies: Map<string, number> | null): void {
    const { rec, parent, kind } = p;
    const freqOf = (ref: string | null): number | null => {
      const last = lastComponent(ref);
      return last && frequencies ? (frequencies.get(last.key) ?? null) : null;
    };
    const parentChannel = parent && FREQUENCY_CLASSES[parent.className] ? int(parent, ...(FREQUENCY_CLASSES[parent.className] as string[])) : null;
    const ext: ExternalCell = {
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
    const plmn = (): string | null => plmnsOf(rec, CELL_PLMN_LISTS)[0] ?? plmnsOf(parent, OWNER_PLMN_LISTS)[0] ?? null;
    switch (kind) {
      case '4G':
        ext.pci = pciOf(rec);
        ext.channel = int(rec, 'earfcnDl', 'earfcndl', 'earfcn') ?? freqOf(str(rec, 'eutranFrequencyRef')) ?? parentChannel;
        ext.tac = int(rec, 'tac');
        ext.cellId = int(rec, 'localCellId', 'cellId', 'cellIdentity');
        ext.ownerId = int(rec, 'eNBId', 'eNodeBId') ?? int(parent, 'eNBId', 'eNodeBId');
        ext.plmn = plmn();
        ext.globalId = globalId(ext.plmn, ext.ownerId, ext.cellId);
        break;
      case '5G':
        ext.pci = pciOf(rec);
        ext.channel = int(rec, 'arfcnDL', 'ssbFrequency') ?? freqOf(str(rec, 'nRFrequencyRef', 'gUtranSyncSignalFrequencyRef')) ?? parentChannel;
        ext.tac = int(rec, 'nRTAC', 'tac');
        ext.cellId = int(rec, 'cellLocalId', 'localCellId');
        ext.ownerId = int(rec, 'gNBId', 'gNodeBId') ?? int(parent, 'gNBId', 'gNodeBId');
        ext.plmn = plmn();
        ext.globalId = globalId(ext.plmn, ext.ownerId, ext.cellId);
        break;
      case '3G':
        ext.psc = int(rec, 'primaryScramblingCode', 'physicalCellIdentity');
        ext.channel = int(rec, 'uarfcnDl') ?? freqOf(str(rec, 'utranFrequencyRef')) ?? parentChannel;
        ext.lac = int(rec, 'lac');
        ext.cellId = int(rec, 'cId', 'cellIdentity.cId');
        ext.ownerId = int(rec, 'rncId', 'cellIdentity.rncId');
        ext.plmn = plmn();
        ext.globalId = globalId(ext.plmn, ext.ownerId, ext.cellId);
        break;
      case '2G': {
        const cgi = parseCgi(rec);
        ext.bsic = bsicOf(rec);
        ext.channel = int(rec, 'bcchFrequency', 'bcchNo', 'arfcn') ?? freqOf(str(rec, 'geranFrequencyRef')) ?? parentChannel;
        ext.lac = int(rec, 'lac') ?? cgi?.lac ?? null;
        ext.cellId = int(rec, 'cellIdentity', 'ci') ?? cgi?.ci ?? null;
        ext.plmn = cgi?.plmn ?? plmn();
        ext.globalId = globalId(ext.plmn, ext.lac, ext.cellId);
        break;
      }
    }
    ext.band = bandOf(kind, ext.channel);
    this.counts.externalCells[kind]++;
    this.sink.externalCell(ext);
  }

  private emitRelation(rec: MoRecord, parts: readonly Part[], nodeName: string | null): void {
    let source = -1;
    for (let i = parts.length - 2; i >= 0; i--) {
      if (CELL_CLASSES[(parts[i] as Part).className]) {
        source = i;
        break;
      }
    }
    if (source < 0) {
      this.orphanRelations++;
      return;
    }
    const sourceRat = ratOf(CELL_CLASSES[(parts[source] as Part).className] as CellTech);
    const targetRef = str(rec, ...TARGET_ATTRIBUTES);
    const targetClass = lastComponent(targetRef)?.className ?? '';
    const targetTech = CELL_CLASSES[targetClass] ?? EXTERNAL_CLASSES[targetClass];
    const targetRat = targetTech ? ratOf(targetTech) : (RELATION_CLASSES[rec.className] as Rat);
    const createdBy = str(rec, 'createdBy');
    const relation: Relation = {
      dn: rec.dn,
      name: rec.id,
      nodeName,
      sourceCellDn: dnAt(parts, source),
      kind: `${sourceRat}-${targetRat}`,
      targetRef,
      createdBy: createdBy === null ? null : createdBy.toUpperCase(),
      isRemoveAllowed: bool(rec, ['isRemoveAllowed', 'removeAllowed'], true),
      isHoAllowed: bool(rec, ['isHoAllowed', 'hoAllowed'], true),
    };
    this.counts.relations[relation.kind]++;
    this.sink.relation(relation);
  }
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

function inferType(n: NodeContext): string | null {
  const f = n.functions;
  if (f.has('RncFunction')) return 'RNC';
  if (f.has('BscFunction') || f.has('BssFunction')) return 'BSC';
  if (f.has('GNBDUFunction') || f.has('GNBCUCPFunction') || f.size > 1) return 'RadioNode';
  if (f.has('ENodeBFunction')) return 'ERBS';
  if (f.has('NodeBFunction')) return 'RBS';
  if (f.has('BtsFunction')) return 'BTS';
  return null;
}

/** Maps a whole record stream; the sink sees every entity before this resolves (and drains after each record). */
export async function mapNetwork(records: AsyncIterable<MoRecord> | Iterable<MoRecord>, sink: NetworkSink, options: MapOptions): Promise<MapResult> {
  const mapper = new NetworkMapper(sink, options);
  for await (const rec of records) {
    mapper.push(rec);
    if (sink.drain) await sink.drain();
  }
  return mapper.finish();
}

/** {@link mapNetwork} over batches of records (what the parsers' batch readers yield): the sink drains after each batch. */
export async function mapNetworkBatches(batches: AsyncIterable<MoRecord[]>, sink: NetworkSink, options: MapOptions): Promise<MapResult> {
  const mapper = new NetworkMapper(sink, options);
  for await (const batch of batches) {
    for (const rec of batch) mapper.push(rec);
    if (sink.drain) await sink.drain();
  }
  return mapper.finish();
}
