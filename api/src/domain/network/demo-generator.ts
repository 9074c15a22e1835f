import { once } from 'node:events';
import { type Writable } from 'node:stream';
import { finished } from 'node:stream/promises';
import { type CoordinateEncoding, assertCoordinateEncoding, emptyCounts, encodeCoordinates, type NetworkCounts, type RelationKind } from './model';

/**
 * Writes a realistic Ericsson-flavour Bulk CM file (everything below ManagedElement as
 * `xn:VsDataContainer` + `es:vsData…`) for a demo network around Lisbon (or another region: each demo
 * operator has its own), streaming to a Writable with back-pressure. Deterministic: the same options
 * give the same bytes.
 *
 * Layout: SubNetwork=ONRM_ROOT_MO with
 * - LRAN: one RadioNode per site (MeContext = ManagedElement = site id, or the node's name on a layer
 *   site): ENodeBFunction with
 *   EUtranCellFDD per LTE band and sector (+ NbIotCell on some sites), GNBDUFunction/GNBCUCPFunction
 *   with NRCellDU/NRCellCU on n78 sites; external cells (proxies of neighbour-site cells, of co-site
 *   UMTS/GSM/NR cells, and of another OSS's eNBs) and relations of every LTE/NR kind;
 * - URAN: RNCs (one per ~150 sites) with UtranCells, UtranRelations, GsmRelations, IurLink proxies;
 * - GRAN: BSCs (one per ~200 sites) with GeranCells and GeranCellRelations.
 * Coordinates sit on ENodeBFunction (`latitude`/`longitude`, plus `latitudeSign` in the 3GPP encoding).
 * UMTS power plan: CPICH 310–330 with max power 430 (0.1 dBm), except ~3% of cells deliberately wrong
 * (CPICH 380, CPICH 440 ≥ max, or max power 470), listed in the summary.
 */

export interface DemoOptions {
  /** PRNG seed (default 1). */
  seed?: number;
  /** Number of sites (default 300). Ignored when sizeMb is given. */
  sites?: number;
  /** Approximate file size in MB (10^6 bytes): the number of sites is scaled to reach it. */
  sizeMb?: number;
  /** How latitude/longitude are written (default 'microdegrees'). */
  coords?: CoordinateEncoding;
  /** End the writable when done and wait until it has flushed (default true). */
  end?: boolean;
  /** Where the sites are and what the operator broadcasts (default {@link LISBON}: the network of the first releases). */
  region?: DemoRegion;
  /**
   * Sites of another operator's network this one has its own layer on (MORAN): written after the
   * region's sites, at the given place, as RadioNodes named `node` whose site id is `id`.
   */
  layerSites?: readonly DemoLayerSite[];
}

export interface DemoPlmn {
  mcc: string;
  mnc: string;
}

/** One operator's demo network: a box the sites are scattered in, their names and the PLMNs. */
export interface DemoRegion {
  /** Site ids are the prefix and four digits (`LX0001`). */
  idPrefix: string;
  /** South-west corner of the box (degrees) and its size. */
  lat: number;
  lon: number;
  latSpan: number;
  lonSpan: number;
  /** Site names: these areas in turn, numbered (`Belém 2`). */
  areas: readonly string[];
  /** The operator's own PLMN, every cell's first. */
  plmn: DemoPlmn;
  /** The second PLMN of MOCN sites, and the share of sites that are MOCN (0: none). */
  mocnPlmn: DemoPlmn;
  mocnShare: number;
}

export interface DemoLayerSite {
  id: string;
  /** The node's (MeContext's) name; its cells are named after it. */
  node: string;
  name: string;
  lat: number;
  lon: number;
  /** The sectors' azimuths, when the layer shares the owner's antennas (default: drawn as any site's). */
  azimuths?: readonly [number, number, number];
}

export interface DemoSite {
  index: number;
  id: string;
  /** The RadioNode's name (MeContext), the site id but on another operator's site. */
  node: string;
  name: string;
  lat: number;
  lon: number;
  cluster: number;
  eNBId: number;
  gNBId: number;
  /** MOCN: cells broadcast the operator's PLMN and the region's MOCN PLMN. */
  shared: boolean;
  plmn: DemoPlmn;
  mocnPlmn: DemoPlmn;
  lteBands: LteBand[];
  nr: boolean;
  nbIot: boolean;
  gsmBands: GsmBand[];
  umtsCarriers: UmtsCarrier[];
  /** Has neighbours in another operator's OSS (external cells that match nothing in the dump). */
  foreignNeighbours: boolean;
  rnc: number;
  bsc: number;
  azimuths: [number, number, number];
}

export interface DemoSummary {
  /** Exactly what the file contains, in the mapper's shape: parse + map must give the same counts. */
  counts: NetworkCounts;
  bytes: number;
  sites: number;
  seed: number;
  coords: CoordinateEncoding;
  /** UMTS cells written with CPICH/max power outside the planning rules (for CPICH validation demos). */
  cpichOutOfRange: string[];
}

type LteBand = 'L800' | 'L1800' | 'L2100' | 'L700';
type GsmBand = 'G900' | 'G1800';
type UmtsCarrier = 'U2100F1' | 'U2100F2' | 'U2100F3' | 'U900';

const EARFCN: Record<LteBand, number> = { L800: 6300, L1800: 1850, L2100: 100, L700: 9360 };
const LTE_CELL_ID_BASE: Record<LteBand, number> = { L800: 10, L1800: 20, L2100: 30, L700: 40 };
const UARFCN: Record<UmtsCarrier, number> = { U2100F1: 10612, U2100F2: 10637, U2100F3: 10662, U900: 3011 };
const NB_IOT_EARFCN = 6290;
const NR_ARFCNS = [636666, 643334] as const;
const SECTORS = [0, 1, 2] as const;
const FORMAT_VERSION = 'EricssonSpecificAttributes.17.28';
const ROOT_DN = 'SubNetwork=ONRM_ROOT_MO';
const SITES_PER_RNC = 150;
const SITES_PER_BSC = 200;
const NEAREST = 2;

const LISBON_AREAS = [
  'Alvalade',
  'Alcântara',
  'Belém',
  'Benfica',
  'Campo de Ourique',
  'Estrela',
  'Graça',
  'Lumiar',
  'Marvila',
  'Olivais',
  'Parque das Nações',
  'Penha de França',
  'Santa Maria Maior',
  'São Domingos de Benfica',
  'Amadora',
  'Odivelas',
  'Loures',
  'Oeiras',
  'Algés',
  'Carcavelos',
  'Almada',
  'Seixal',
  'Barreiro',
  'Sintra',
];

/** Vodafone PT's network of every release so far: LX sites around Lisbon, 15% of them MOCN with NOS. */
export const LISBON: DemoRegion = {
  idPrefix: 'LX',
  lat: 38.6,
  lon: -9.4,
  latSpan: 0.3,
  lonSpan: 0.4,
  areas: LISBON_AREAS,
  plmn: { mcc: '268', mnc: '01' },
  mocnPlmn: { mcc: '268', mnc: '03' },
  mocnShare: 0.15,
};

// ---------------------------------------------------------------------------------------------------
// Deterministic randomness: one independent stream per (seed, site, purpose), so the content of a site
// never depends on how many others were generated or in which order.

function mulberry32(a: number): () => number {
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function rngFor(seed: number, index: number, salt: number): () => number {
  let h = 2166136261 ^ seed;
  for (const v of [index, salt]) {
    h = Math.imul(h ^ (v & 0xffff), 16777619);
    h = Math.imul(h ^ (v >>> 16), 16777619);
  }
  return mulberry32(h >>> 0);
}

const SALT = { plan: 1, lte: 2, nr: 3, umts: 4, gsm: 5 } as const;

// ---------------------------------------------------------------------------------------------------

/** The site plan the file is written from; exported so tests can check what the parser reads back. */
export function planDemoNetwork(options: Pick<DemoOptions, 'seed' | 'sites' | 'region' | 'layerSites'> = {}): DemoSite[] {
  const seed = options.seed ?? 1;
  const region = options.region ?? LISBON;
  const layers = options.layerSites ?? [];
  const own = Math.max(layers.length > 0 ? 0 : 1, Math.floor(options.sites ?? 300));
  const n = own + layers.length;
  const sites: DemoSite[] = [];
  for (let i = 0; i < n; i++) {
    const r = rngFor(seed, i, SALT.plan);
    const layer = i >= own ? (layers[i - own] as DemoLayerSite) : null;
    // Drawn on a layer site too, so the rest of its plan comes from the same stream as any site's.
    let lat = region.lat + r() * region.latSpan;
    let lon = region.lon + r() * region.lonSpan;
    if (layer) ({ lat, lon } = layer);
    // Clamped: a layer site lies outside the box.
    const band = (v: number, parts: number): number => Math.max(0, Math.min(parts - 1, Math.floor(v * parts)));
    const cluster = band((lat - region.lat) / region.latSpan, 3) * 4 + band((lon - region.lon) / region.lonSpan, 4);
    const lteBands: LteBand[] = ['L800'];
    if (r() < 0.9) lteBands.push('L1800');
    if (r() < 0.6) lteBands.push('L2100');
    if (r() < 0.35) lteBands.push('L700');
    const gsmBands: GsmBand[] = ['G900'];
    if (r() < 0.5) gsmBands.push('G1800');
    const umtsCarriers: UmtsCarrier[] = ['U2100F1'];
    if (r() < 0.6) umtsCarriers.push('U2100F2');
    if (r() < 0.25) umtsCarriers.push('U2100F3');
    if (r() < 0.35) umtsCarriers.push('U900');
    const jitter = (): number => Math.round((r() - 0.5) * 30);
    const az = (s: number): number => (s * 120 + jitter() + 360) % 360;
    const id = layer?.id ?? `${region.idPrefix}${String(i + 1).padStart(4, '0')}`;
    sites.push({
      index: i,
      id,
      node: layer?.node ?? id,
      name: layer?.name ?? `${region.areas[i % region.areas.length] as string} ${Math.floor(i / region.areas.length) + 1}`,
      lat,
      lon,
      cluster,
      eNBId: 10001 + i,
      gNBId: 20001 + i,
      shared: r() < region.mocnShare && !layer,
      plmn: region.plmn,
      mocnPlmn: region.mocnPlmn,
      lteBands,
      nr: r() < 0.45,
      nbIot: r() < 0.25,
      gsmBands,
      umtsCarriers,
      foreignNeighbours: r() < 0.2,
      rnc: 0,
      bsc: 0,
      azimuths: layer?.azimuths ? [...layer.azimuths] : [az(0), az(1), az(2)],
    });
  }
  // Controllers own geographically contiguous slices (west to east), as real RNC/BSC areas do.
  const byLon = [...sites].sort((a, b) => a.lon - b.lon || a.index - b.index);
  const nRnc = Math.max(1, Math.ceil(n / SITES_PER_RNC));
  const nBsc = Math.max(1, Math.ceil(n / SITES_PER_BSC));
  byLon.forEach((s, pos) => {
    s.rnc = Math.floor((pos * nRnc) / n);
    s.bsc = Math.floor((pos * nBsc) / n);
  });
  return sites;
}

function distance2(a: DemoSite, b: DemoSite, cosLat: number): number {
  const dx = (a.lon - b.lon) * cosLat;
  const dy = a.lat - b.lat;
  return dx * dx + dy * dy;
}

/** For each site, the nearest other sites (all, and those with NR), nearest first. */
function neighbourTable(sites: DemoSite[], region: DemoRegion): { near: DemoSite[][]; nearNr: DemoSite[][] } {
  // East-west degrees shrink with the latitude: the middle of the region's box stands for all of it.
  const cosLat = Math.cos(((region.lat + region.latSpan / 2) * Math.PI) / 180);
  const near: DemoSite[][] = [];
  const nearNr: DemoSite[][] = [];
  for (const a of sites) {
    const best: Array<[number, DemoSite]> = [];
    const bestNr: Array<[number, DemoSite]> = [];
    for (const b of sites) {
      if (a === b) continue;
      const d = distance2(a, b, cosLat);
      insertBest(best, d, b, NEAREST);
      if (b.nr) insertBest(bestNr, d, b, 1);
    }
    near.push(best.map(([, s]) => s));
    nearNr.push(bestNr.map(([, s]) => s));
  }
  return { near, nearNr };
}

function insertBest(best: Array<[number, DemoSite]>, d: number, s: DemoSite, k: number): void {
  if (best.length === k && d >= (best[k - 1] as [number, DemoSite])[0]) return;
  let at = best.length;
  while (at > 0 && (best[at - 1] as [number, DemoSite])[0] > d) at--;
  best.splice(at, 0, [d, s]);
  if (best.length > k) best.pop();
}

// ---------------------------------------------------------------------------------------------------
// Per-cell plans shared by the node that owns a cell and the nodes that hold proxies of it.

const lteName = (s: DemoSite, b: LteBand, sec: number): string => `${s.node}_${b}_${sec + 1}`;
const nrName = (s: DemoSite, sec: number): string => `${s.node}_N78_${sec + 1}`;
const umtsName = (s: DemoSite, c: UmtsCarrier, sec: number): string => `${s.node}_${c}_${sec + 1}`;
const gsmName = (s: DemoSite, b: GsmBand, sec: number): string => `${s.node}_${b}_${sec + 1}`;

const ltePciGroup = (s: DemoSite): number => (s.index * 37 + 11) % 168;
const nrPci = (s: DemoSite, sec: number): number => 3 * ((s.index * 53 + 7) % 336) + sec;
const psc = (s: DemoSite, sec: number): number => ((s.index * 29) % 64) * 8 + sec;
const tac = (s: DemoSite): number => 3000 + s.cluster;
const nrTac = (s: DemoSite): number => 5000 + s.cluster;
const lac = (s: DemoSite): number => 1000 + s.cluster * 10;
const gsmLac = (s: DemoSite): number => 2000 + s.cluster * 10;
const nrArfcn = (s: DemoSite): number => NR_ARFCNS[s.cluster % 2] as number;
const ncc = (s: DemoSite): number => s.cluster % 8;
const bcc = (s: DemoSite, sec: number): number => (s.index * 3 + sec) % 8;
const bcch = (s: DemoSite, b: GsmBand, sec: number): number => (b === 'G900' ? 1 + ((s.index * 7 + sec * 3) % 124) : 512 + ((s.index * 11 + sec * 5) % 374));
const umtsCid = (s: DemoSite, c: UmtsCarrier, sec: number): number =>
  ((s.index + 1) * 16 + ['U2100F1', 'U2100F2', 'U2100F3', 'U900'].indexOf(c) * 4 + sec) % 65536;
const gsmCi = (s: DemoSite, b: GsmBand, sec: number): number => ((s.index + 1) * 8 + (b === 'G900' ? 0 : 4) + sec) % 65536;
const rncName = (k: number): string => `RNC${String(k + 1).padStart(2, '0')}`;
const bscName = (k: number): string => `BSC${String(k + 1).padStart(2, '0')}`;
const rncId = (k: number): number => 101 + k;
/** `26801`: how Ericsson names the functions of another node after its PLMN. */
const plmnCode = (p: DemoPlmn): string => `${p.mcc}${p.mnc}`;

// ---------------------------------------------------------------------------------------------------
// XML writing

const esc = (v: string | number): string => String(v).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

type Field = [string, string | number | Field[] | Array<string | number>];

function es(fields: Field[]): string {
  let out = '';
  for (const [name, value] of fields) {
    if (Array.isArray(value)) {
      if (value.length > 0 && Array.isArray(value[0])) out += `<es:${name}>${es(value as Field[])}</es:${name}>`;
      else for (const v of value as Array<string | number>) out += `<es:${name}>${esc(v)}</es:${name}>`;
    } else {
      out += `<es:${name}>${esc(value)}</es:${name}>`;
    }
  }
  return out;
}

const plmnStruct = (p: { mcc: string; mnc: string }): Field[] => [
  ['mcc', p.mcc],
  ['mnc', p.mnc],
  ['mncLength', p.mnc.length],
];

class XmlOut {
  bytes = 0;
  private parts: string[] = [];
  private pending = 0;

  constructor(private readonly sink: Writable | null) {}

  push(s: string): void {
    this.parts.push(s);
    this.pending += s.length;
  }

  /** Opens a VsDataContainer (children follow; close with {@link closeVs}). */
  openVs(id: string | number, type: string, fields: Field[]): void {
    this.push(
      `<xn:VsDataContainer id="${esc(id)}">\n<xn:attributes>\n<xn:vsDataType>vsData${type}</xn:vsDataType>\n` +
        `<xn:vsDataFormatVersion>${FORMAT_VERSION}</xn:vsDataFormatVersion>\n<es:vsData${type}>${es(fields)}</es:vsData${type}>\n</xn:attributes>\n`,
    );
  }

  closeVs(): void {
    this.push('</xn:VsDataContainer>\n');
  }

  vs(id: string | number, type: string, fields: Field[]): void {
    this.openVs(id, type, fields);
    this.closeVs();
  }

  async maybeFlush(): Promise<void> {
    if (this.pending >= 1 << 16) await this.flush();
  }

  async flush(): Promise<void> {
    if (this.parts.length === 0) return;
    const data = this.parts.join('');
    this.parts = [];
    this.pending = 0;
    this.bytes += Buffer.byteLength(data);
    if (this.sink && !this.sink.write(data)) await once(this.sink, 'drain');
  }
}

interface RelationAttrs {
  createdBy?: string;
  isRemoveAllowed: boolean;
  isHoAllowed: boolean;
}

function relationFields(ref: [string, string], a: RelationAttrs): Field[] {
  const f: Field[] = [ref];
  if (a.createdBy !== undefined) f.push(['createdBy', a.createdBy]);
  f.push(['isRemoveAllowed', String(a.isRemoveAllowed)], ['isHoAllowed', String(a.isHoAllowed)]);
  return f;
}

/** Intra-site relations are planned by the operator; the rest mostly come from ANR / X2. */
function relationAttrs(r: () => number, intraSite: boolean, withCreatedBy: boolean): RelationAttrs {
  const x = r();
  const createdBy = intraSite ? (x < 0.8 ? 'OPERATOR' : 'ANR') : x < 0.6 ? 'ANR' : x < 0.7 ? 'X2' : 'OPERATOR';
  const a: RelationAttrs = {
    isRemoveAllowed: intraSite ? r() < 0.3 : r() < 0.9,
    isHoAllowed: r() < 0.97,
  };
  if (withCreatedBy) a.createdBy = createdBy;
  return a;
}

// ---------------------------------------------------------------------------------------------------

export async function generateDemoBulkCm(out: Writable, options: DemoOptions = {}): Promise<DemoSummary> {
  const seed = options.seed ?? 1;
  const coords = assertCoordinateEncoding(options.coords ?? 'microdegrees');
  let siteCount = options.sites ?? 300;
  if (options.sizeMb !== undefined) {
    // Calibrate on a small dry run: bytes per site hardly depend on the number of sites.
    const probeSites = 60;
    const probe = await writeNetwork(null, planDemoNetwork({ seed, sites: probeSites, region: options.region }), seed, coords, options.region ?? LISBON);
    siteCount = Math.max(1, Math.round((options.sizeMb * 1e6 * probeSites) / probe.bytes));
  }
  const region = options.region ?? LISBON;
  const summary = await writeNetwork(out, planDemoNetwork({ seed, sites: siteCount, region, layerSites: options.layerSites }), seed, coords, region);
  if (options.end ?? true) {
    out.end();
    // Resolve only once the data is flushed (a file can be read right away), and surface write errors.
    await finished(out, { readable: false });
  }
  return summary;
}

async function writeNetwork(sink: Writable | null, sites: DemoSite[], seed: number, coords: CoordinateEncoding, region: DemoRegion): Promise<DemoSummary> {
  const w = new XmlOut(sink);
  const counts = emptyCounts();
  const cpichOutOfRange: string[] = [];
  const { near, nearNr } = neighbourTable(sites, region);
  const rel = (k: RelationKind, n = 1): void => {
    counts.relations[k] += n;
  };

  w.push(
    '<?xml version="1.0" encoding="UTF-8"?>\n' +
      '<bulkCmConfigDataFile xmlns="http://www.3gpp.org/ftp/specs/archive/32_series/32.615#configData" ' +
      'xmlns:xn="http://www.3gpp.org/ftp/specs/archive/32_series/32.625#genericNrm" ' +
      'xmlns:es="EricssonSpecificAttributes.17.28.xml">\n' +
      '<fileHeader fileFormatVersion="32.615 V4.5" vendorName="Ericsson"/>\n<configData dnPrefix="Undefined">\n' +
      '<xn:SubNetwork id="ONRM_ROOT_MO">\n<xn:SubNetwork id="LRAN">\n',
  );

  for (const site of sites) {
    writeRadioNode(w, site, near[site.index] as DemoSite[], nearNr[site.index] as DemoSite[], seed, coords, counts, rel);
    counts.sites++;
    counts.nodes++;
    await w.maybeFlush();
  }
  w.push('</xn:SubNetwork>\n<xn:SubNetwork id="URAN">\n');
  const nRnc = Math.max(...sites.map((s) => s.rnc)) + 1;
  for (let k = 0; k < nRnc; k++) {
    await writeRnc(w, k, sites, near, seed, counts, rel, cpichOutOfRange);
    counts.nodes++;
  }
  w.push('</xn:SubNetwork>\n<xn:SubNetwork id="GRAN">\n');
  const nBsc = Math.max(...sites.map((s) => s.bsc)) + 1;
  for (let k = 0; k < nBsc; k++) {
    await writeBsc(w, k, sites, near, seed, counts, rel);
    counts.nodes++;
  }
  w.push('</xn:SubNetwork>\n</xn:SubNetwork>\n</configData>\n<fileFooter dateTime="2024-05-06T02:00:00+01:00"/>\n</bulkCmConfigDataFile>\n');
  await w.flush();
  return { counts, bytes: w.bytes, sites: sites.length, seed, coords, cpichOutOfRange };
}

function writeRadioNode(
  w: XmlOut,
  site: DemoSite,
  near: DemoSite[],
  nearNr: DemoSite[],
  seed: number,
  coords: CoordinateEncoding,
  counts: NetworkCounts,
  rel: (k: RelationKind, n?: number) => void,
): void {
  const r = rngFor(seed, site.index, SALT.lte);
  const me = `${ROOT_DN},SubNetwork=LRAN,MeContext=${site.node},ManagedElement=${site.node}`;
  const enb = `${me},ENodeBFunction=1`;
  const host = site.plmn;
  const plmns = site.shared ? [host, site.mocnPlmn] : [host];
  const loc = encodeCoordinates(coords, site.lat, site.lon);

  w.push(`<xn:MeContext id="${site.node}">\n`);
  w.vs(site.node, 'MeContext', [
    ['neType', 'RadioNode'],
    ['platformType', 'BASEBAND'],
    ['ipAddress', `10.${20 + (site.index >> 16)}.${(site.index >> 8) & 255}.${site.index & 255}`],
  ]);
  w.push(
    `<xn:ManagedElement id="${site.node}">\n<xn:attributes>\n<xn:userLabel>${esc(site.name)}</xn:userLabel>\n` +
      `<xn:vendorName>Ericsson</xn:vendorName>\n<xn:swVersion>CXP9024418/15 R42D37</xn:swVersion>\n</xn:attributes>\n`,
  );

  const locFields: Field[] = [
    ['latitude', loc.latitude],
    ['longitude', loc.longitude],
  ];
  if (loc.latitudeSign !== undefined) locFields.push(['latitudeSign', loc.latitudeSign]);
  w.openVs(1, 'ENodeBFunction', [['eNBId', site.eNBId], ['eNodeBPlmnId', plmnStruct(host)], ...locFields, ['userLabel', site.node]]);

  // --- EUtraNetwork: frequencies, neighbour-site proxies, other-OSS proxies
  const eutraNet = `${enb},EUtraNetwork=1`;
  w.openVs(1, 'EUtraNetwork', []);
  for (const b of site.lteBands) w.vs(EARFCN[b], 'EUtranFrequency', [['arfcnValueEUtranDl', EARFCN[b]]]);
  const proxies = new Map<string, string>(); // target cell name → proxy DN
  const proxyOwners = new Map<number, DemoSite>();
  for (const b of site.lteBands) for (const t of near) if (t.lteBands.includes(b)) proxyOwners.set(t.eNBId, t);
  for (const t of proxyOwners.values()) {
    const fnId = `${plmnCode(host)}-${t.eNBId}`;
    w.openVs(fnId, 'ExternalENodeBFunction', [
      ['eNBId', t.eNBId],
      ['eNodeBPlmnId', plmnStruct(host)],
    ]);
    for (const b of t.lteBands) {
      if (!site.lteBands.includes(b)) continue;
      for (const sec of SECTORS) {
        const cellId = LTE_CELL_ID_BASE[b] + sec + 1;
        const id = `${fnId}-${cellId}`;
        w.vs(id, 'ExternalEUtranCellFDD', [
          ['localCellId', cellId],
          ['physicalLayerCellIdGroup', ltePciGroup(t)],
          ['physicalLayerSubCellId', sec],
          ['tac', tac(t)],
          ['eutranFrequencyRef', `${eutraNet},EUtranFrequency=${EARFCN[b]}`],
          ['userLabel', lteName(t, b, sec)],
        ]);
        proxies.set(lteName(t, b, sec), `${eutraNet},ExternalENodeBFunction=${fnId},ExternalEUtranCellFDD=${id}`);
        counts.externalCells['4G']++;
      }
    }
    w.closeVs();
  }
  const foreign: string[] = [];
  if (site.foreignNeighbours) {
    const eNBId = 900000 + (site.index % 50);
    const fnId = `${plmnCode(host)}-${eNBId}`;
    w.openVs(fnId, 'ExternalENodeBFunction', [
      ['eNBId', eNBId],
      ['eNodeBPlmnId', plmnStruct(host)],
    ]);
    for (const cellId of [11, 12]) {
      const id = `${fnId}-${cellId}`;
      w.vs(id, 'ExternalEUtranCellFDD', [
        ['localCellId', cellId],
        ['physicalLayerCellIdGroup', (eNBId + cellId) % 168],
        ['physicalLayerSubCellId', cellId % 3],
        ['tac', 3900],
        ['eutranFrequencyRef', `${eutraNet},EUtranFrequency=${EARFCN.L800}`],
      ]);
      foreign.push(`${eutraNet},ExternalENodeBFunction=${fnId},ExternalEUtranCellFDD=${id}`);
      counts.externalCells['4G']++;
    }
    w.closeVs();
  }
  w.closeVs();

  // --- UtraNetwork / GeraNetwork / GUtraNetwork: proxies of the co-site UMTS, GSM and NR cells
  const utraFreq = `${enb},UtraNetwork=1,UtranFrequency=${UARFCN.U2100F1}`;
  w.openVs(1, 'UtraNetwork', []);
  w.openVs(UARFCN.U2100F1, 'UtranFrequency', [['arfcnValueUtranDl', UARFCN.U2100F1]]);
  for (const sec of SECTORS) {
    w.vs(umtsName(site, 'U2100F1', sec), 'ExternalUtranCellFDD', [
      ['physicalCellIdentity', psc(site, sec)],
      ['lac', lac(site)],
      [
        'cellIdentity',
        [
          ['cId', umtsCid(site, 'U2100F1', sec)],
          ['rncId', rncId(site.rnc)],
        ],
      ],
      ['plmnIdentity', plmnStruct(host)],
    ]);
    counts.externalCells['3G']++;
  }
  w.closeVs();
  w.closeVs();
  const geraNet = `${enb},GeraNetwork=1`;
  w.openVs(1, 'GeraNetwork', []);
  for (const sec of SECTORS) w.vs(bcch(site, 'G900', sec), 'GeranFrequency', [['arfcnValueGeranDl', bcch(site, 'G900', sec)]]);
  for (const sec of SECTORS) {
    w.vs(gsmName(site, 'G900', sec), 'ExternalGeranCell', [
      ['ncc', ncc(site)],
      ['bcc', bcc(site, sec)],
      ['cellIdentity', gsmCi(site, 'G900', sec)],
      ['lac', gsmLac(site)],
      ['plmnIdentity', plmnStruct(host)],
      ['geranFrequencyRef', `${geraNet},GeranFrequency=${bcch(site, 'G900', sec)}`],
    ]);
    counts.externalCells['2G']++;
  }
  w.closeVs();
  const gutraNet = `${enb},GUtraNetwork=1`;
  if (site.nr) {
    w.openVs(1, 'GUtraNetwork', []);
    w.vs(`${nrArfcn(site)}-30`, 'GUtranSyncSignalFrequency', [
      ['arfcn', nrArfcn(site)],
      ['smtcScs', 30],
    ]);
    w.openVs(`${plmnCode(host)}-${site.gNBId}`, 'ExternalGNodeBFunction', [
      ['gNodeBId', site.gNBId],
      ['gNodeBIdLength', 22],
      ['gNodeBPlmnId', plmnStruct(host)],
    ]);
    for (const sec of SECTORS) {
      w.vs(`${plmnCode(host)}-${site.gNBId}-${sec + 1}`, 'ExternalGUtranCell', [
        ['localCellId', sec + 1],
        ['physicalLayerCellIdGroup', Math.floor(nrPci(site, sec) / 3)],
        ['physicalLayerSubCellId', nrPci(site, sec) % 3],
        ['gUtranSyncSignalFrequencyRef', `${gutraNet},GUtranSyncSignalFrequency=${nrArfcn(site)}-30`],
      ]);
      counts.externalCells['5G']++;
    }
    w.closeVs();
    w.closeVs();
  }

  // --- LTE cells with their relations
  for (const b of site.lteBands) {
    for (const sec of SECTORS) {
      const name = lteName(site, b, sec);
      const fields: Field[] = [
        ['cellId', LTE_CELL_ID_BASE[b] + sec + 1],
        ['earfcndl', EARFCN[b]],
        ['earfcnul', EARFCN[b] + 18000],
        ['physicalLayerCellIdGroup', ltePciGroup(site)],
        ['physicalLayerSubCellId', sec],
        ['tac', tac(site)],
        ['rachRootSequence', ((site.index * 3 + sec) * 10 + LTE_CELL_ID_BASE[b]) % 838],
        ['azimuth', site.azimuths[sec]],
        ['administrativeState', 'UNLOCKED'],
      ];
      for (const p of plmns) fields.push(['activePlmnList', plmnStruct(p)]);
      w.openVs(name, 'EUtranCellFDD', fields);
      counts.cells['4G']++;

      // Intra- and inter-frequency LTE neighbours, grouped per target frequency as Ericsson does.
      for (const tb of site.lteBands) {
        const targets: Array<[string, boolean]> = [];
        for (const ts of SECTORS) {
          if (tb === b && ts !== sec) targets.push([`${enb},EUtranCellFDD=${lteName(site, tb, ts)}`, true]);
          if (tb !== b && ts === sec) targets.push([`${enb},EUtranCellFDD=${lteName(site, tb, ts)}`, true]);
        }
        if (tb === b) {
          for (const t of near) {
            if (!t.lteBands.includes(tb)) continue;
            for (const ts of SECTORS) targets.push([proxies.get(lteName(t, tb, ts)) as string, false]);
          }
          if (b === 'L800') for (const f of foreign) targets.push([f, false]);
        }
        if (targets.length === 0) continue;
        w.openVs(EARFCN[tb], 'EUtranFreqRelation', [['eutranFrequencyRef', `${eutraNet},EUtranFrequency=${EARFCN[tb]}`]]);
        for (const [target, intra] of targets) {
          const id = target.slice(target.lastIndexOf('=') + 1);
          w.vs(id, 'EUtranCellRelation', relationFields(['neighborCellRef', target], relationAttrs(r, intra, true)));
          rel('LTE-LTE');
        }
        w.closeVs();
      }
      if (b === 'L800') {
        w.openVs(UARFCN.U2100F1, 'UtranFreqRelation', [['utranFrequencyRef', utraFreq]]);
        w.vs(
          umtsName(site, 'U2100F1', sec),
          'UtranCellRelation',
          relationFields(['externalUtranCellFDDRef', `${utraFreq},ExternalUtranCellFDD=${umtsName(site, 'U2100F1', sec)}`], relationAttrs(r, true, true)),
        );
        w.closeVs();
        rel('LTE-UTRAN');
        w.openVs(1, 'GeranFreqGroupRelation', [['geranFreqGroupRef', `${geraNet},GeranFreqGroup=1`]]);
        w.vs(
          gsmName(site, 'G900', sec),
          'GeranCellRelation',
          relationFields(['extGeranCellRef', `${geraNet},ExternalGeranCell=${gsmName(site, 'G900', sec)}`], relationAttrs(r, true, true)),
        );
        w.closeVs();
        rel('LTE-GERAN');
      }
      if (site.nr && (b === 'L800' || b === 'L1800')) {
        w.openVs(`${nrArfcn(site)}-30`, 'GUtranFreqRelation', [['gUtranSyncSignalFrequencyRef', `${gutraNet},GUtranSyncSignalFrequency=${nrArfcn(site)}-30`]]);
        const id = `${plmnCode(host)}-${site.gNBId}-${sec + 1}`;
        w.vs(
          id,
          'GUtranCellRelation',
          relationFields(
            ['neighborCellRef', `${gutraNet},ExternalGNodeBFunction=${plmnCode(host)}-${site.gNBId},ExternalGUtranCell=${id}`],
            relationAttrs(r, true, true),
          ),
        );
        w.closeVs();
        rel('LTE-NR');
      }
      w.closeVs();
    }
  }
  if (site.nbIot) {
    for (const sec of SECTORS) {
      w.vs(`${site.node}_NB800_${sec + 1}`, 'NbIotCell', [
        ['cellId', 50 + sec + 1],
        ['earfcndl', NB_IOT_EARFCN],
        ['physicalLayerCellIdGroup', ltePciGroup(site)],
        ['physicalLayerSubCellId', sec],
        ['tac', tac(site)],
        ['azimuth', site.azimuths[sec]],
      ]);
      counts.cells['NB-IoT']++;
    }
  }
  w.closeVs(); // ENodeBFunction

  if (site.nr) writeGnb(w, site, me, nearNr, plmns, seed, counts, rel);
  w.push('</xn:ManagedElement>\n</xn:MeContext>\n');
}

function writeGnb(
  w: XmlOut,
  site: DemoSite,
  me: string,
  nearNr: DemoSite[],
  plmns: Array<{ mcc: string; mnc: string }>,
  seed: number,
  counts: NetworkCounts,
  rel: (k: RelationKind, n?: number) => void,
): void {
  const r = rngFor(seed, site.index, SALT.nr);
  const host = site.plmn;
  const arfcn = nrArfcn(site);
  w.openVs(1, 'GNBDUFunction', [
    ['gNBId', site.gNBId],
    ['gNBIdLength', 22],
  ]);
  for (const sec of SECTORS) {
    const fields: Field[] = [
      ['cellLocalId', sec + 1],
      ['nRPCI', nrPci(site, sec)],
      ['nRTAC', nrTac(site)],
      ['arfcnDL', arfcn],
      ['ssbFrequency', arfcn],
      ['bSChannelBwDL', 100],
      ['azimuth', site.azimuths[sec]],
    ];
    for (const p of plmns)
      fields.push([
        'pLMNIdList',
        [
          ['mcc', p.mcc],
          ['mnc', p.mnc],
        ],
      ]);
    w.vs(nrName(site, sec), 'NRCellDU', fields);
  }
  w.closeVs();

  const cucp = `${me},GNBCUCPFunction=1`;
  const nrNet = `${cucp},NRNetwork=1`;
  w.openVs(1, 'GNBCUCPFunction', [
    ['gNBId', site.gNBId],
    ['gNBIdLength', 22],
    [
      'pLMNId',
      [
        ['mcc', host.mcc],
        ['mnc', host.mnc],
      ],
    ],
  ]);
  w.openVs(1, 'NRNetwork', []);
  const freqs = new Set([arfcn, ...nearNr.map(nrArfcn)]);
  for (const f of freqs)
    w.vs(f, 'NRFrequency', [
      ['arfcnValueNRDl', f],
      ['smtcScs', 30],
    ]);
  const proxies = new Map<string, string>();
  for (const t of nearNr) {
    const fnId = `${plmnCode(host)}-${t.gNBId}`;
    w.openVs(fnId, 'ExternalGNBCUCPFunction', [
      ['gNBId', t.gNBId],
      ['gNBIdLength', 22],
      [
        'pLMNId',
        [
          ['mcc', host.mcc],
          ['mnc', host.mnc],
        ],
      ],
    ]);
    for (const sec of SECTORS) {
      const id = `${fnId}-${sec + 1}`;
      w.vs(id, 'ExternalNRCellCU', [
        ['cellLocalId', sec + 1],
        ['nRPCI', nrPci(t, sec)],
        ['nRTAC', nrTac(t)],
        ['nRFrequencyRef', `${nrNet},NRFrequency=${nrArfcn(t)}`],
      ]);
      proxies.set(nrName(t, sec), `${nrNet},ExternalGNBCUCPFunction=${fnId},ExternalNRCellCU=${id}`);
      counts.externalCells['5G']++;
    }
    w.closeVs();
  }
  w.closeVs();
  for (const sec of SECTORS) {
    const fields: Field[] = [['cellLocalId', sec + 1]];
    for (const p of plmns)
      fields.push([
        'plmnInfoList',
        [
          [
            'plmnId',
            [
              ['mcc', p.mcc],
              ['mnc', p.mnc],
            ],
          ],
          ['sNSSAI', [['sst', 1]]],
        ],
      ]);
    w.openVs(nrName(site, sec), 'NRCellCU', fields);
    counts.cells['5G']++;
    const targets: Array<[string, boolean]> = [];
    for (const ts of SECTORS) if (ts !== sec) targets.push([`${cucp},NRCellCU=${nrName(site, ts)}`, true]);
    for (const t of nearNr) for (const ts of SECTORS) targets.push([proxies.get(nrName(t, ts)) as string, false]);
    for (const [target, intra] of targets) {
      const id = target.slice(target.lastIndexOf('=') + 1);
      w.vs(id, 'NRCellRelation', relationFields(['nRCellRef', target], relationAttrs(r, intra, false)));
      rel('NR-NR');
    }
    w.closeVs();
  }
  w.closeVs();
}

async function writeRnc(
  w: XmlOut,
  k: number,
  sites: DemoSite[],
  near: DemoSite[][],
  seed: number,
  counts: NetworkCounts,
  rel: (k: RelationKind, n?: number) => void,
  cpichOutOfRange: string[],
): Promise<void> {
  const name = rncName(k);
  const host = (sites[0] as DemoSite).plmn;
  const fn = `${ROOT_DN},SubNetwork=URAN,MeContext=${name},ManagedElement=1,RncFunction=1`;
  const mine = sites.filter((s) => s.rnc === k);
  w.push(`<xn:MeContext id="${name}">\n`);
  w.vs(name, 'MeContext', [['neType', 'RNC']]);
  w.push(`<xn:ManagedElement id="1">\n<xn:attributes>\n<xn:userLabel>${name}</xn:userLabel>\n</xn:attributes>\n`);
  w.openVs(1, 'RncFunction', [
    ['rncId', rncId(k)],
    ['mcc', host.mcc],
    ['mnc', host.mnc],
    ['mncLength', 2],
  ]);
  for (const l of [...new Set(mine.map(lac))].sort((a, b) => a - b)) w.vs(l, 'LocationArea', [['lac', l]]);

  const iur = new Map<number, Map<string, DemoSite>>(); // other RNC → proxied sites
  const iurCarrier = new Map<string, UmtsCarrier>();
  const gsmProxies = new Set<DemoSite>();
  const cellDn = (s: DemoSite, c: UmtsCarrier, sec: number): string => {
    if (s.rnc === k) return `${fn},UtranCell=${umtsName(s, c, sec)}`;
    const cellName = umtsName(s, c, sec);
    let m = iur.get(s.rnc);
    if (!m) iur.set(s.rnc, (m = new Map()));
    m.set(cellName, s);
    iurCarrier.set(cellName, c);
    return `${fn},IurLink=${rncName(s.rnc)},ExternalUtranCell=${cellName}`;
  };

  for (const site of mine) {
    const r = rngFor(seed, site.index, SALT.umts);
    for (const c of site.umtsCarriers) {
      for (const sec of SECTORS) {
        const cell = umtsName(site, c, sec);
        // Planned inside the CPICH window of docs/engines/planning.md#cpich-validation (max − 12 dB … max − 8 dB = 310…350 for 430).
        let cpich = 310 + Math.round(r() * 20);
        let maxPower = 430;
        const anomaly = r();
        if (anomaly < 0.01)
          cpich = 380; // above max − 8 dB
        else if (anomaly < 0.02)
          cpich = 440; // not below max power at all
        else if (anomaly < 0.03) maxPower = 470; // beyond what the radio can deliver
        if (anomaly < 0.03) cpichOutOfRange.push(cell);
        w.openVs(cell, 'UtranCell', [
          ['cId', umtsCid(site, c, sec)],
          ['localCellId', umtsCid(site, c, sec)],
          ['uarfcnDl', UARFCN[c]],
          ['uarfcnUl', UARFCN[c] - (c === 'U900' ? 225 : 950)],
          ['primaryScramblingCode', psc(site, sec)],
          ['primaryCpichPower', cpich],
          ['maximumTransmissionPower', maxPower],
          ['locationAreaRef', `${fn},LocationArea=${lac(site)}`],
          ['azimuth', site.azimuths[sec]],
          ['administrativeState', 'UNLOCKED'],
        ]);
        counts.cells['3G']++;
        const targets: string[] = [];
        for (const ts of SECTORS) if (ts !== sec) targets.push(cellDn(site, c, ts));
        for (const oc of site.umtsCarriers) if (oc !== c) targets.push(cellDn(site, oc, sec));
        for (const t of near[site.index] as DemoSite[]) {
          if (!t.umtsCarriers.includes(c)) continue;
          for (const ts of SECTORS) targets.push(cellDn(t, c, ts));
        }
        let n = 1;
        for (const t of targets) {
          const a = relationAttrs(r, false, false);
          w.vs(n++, 'UtranRelation', [
            ['adjacentCell', t],
            ['isRemoveAllowed', String(a.isRemoveAllowed)],
            ['isHoAllowed', String(a.isHoAllowed)],
          ]);
          rel('UTRAN-UTRAN');
        }
        if (c === 'U2100F1') {
          gsmProxies.add(site);
          w.vs(n, 'GsmRelation', [['externalGsmCellRef', `${fn},ExternalGsmNetwork=1,ExternalGsmCell=${gsmName(site, 'G900', sec)}`]]);
          rel('UTRAN-GERAN');
        }
        w.closeVs();
      }
    }
    await w.maybeFlush();
  }

  for (const [other, cells] of [...iur.entries()].sort((a, b) => a[0] - b[0])) {
    w.openVs(rncName(other), 'IurLink', [['rncId', rncId(other)]]);
    for (const [cellName, s] of cells) {
      const c = iurCarrier.get(cellName) as UmtsCarrier;
      const sec = Number(cellName.slice(cellName.lastIndexOf('_') + 1)) - 1;
      w.vs(cellName, 'ExternalUtranCell', [
        ['cId', umtsCid(s, c, sec)],
        ['rncId', rncId(other)],
        ['primaryScramblingCode', psc(s, sec)],
        ['uarfcnDl', UARFCN[c]],
        ['lac', lac(s)],
        ['mcc', host.mcc],
        ['mnc', host.mnc],
        ['mncLength', 2],
      ]);
      counts.externalCells['3G']++;
    }
    w.closeVs();
  }
  w.openVs(1, 'ExternalGsmNetwork', [
    ['mcc', host.mcc],
    ['mnc', host.mnc],
    ['mncLength', 2],
  ]);
  for (const s of gsmProxies) {
    for (const sec of SECTORS) {
      w.vs(gsmName(s, 'G900', sec), 'ExternalGsmCell', [
        ['cellIdentity', gsmCi(s, 'G900', sec)],
        ['lac', gsmLac(s)],
        ['bcchFrequency', bcch(s, 'G900', sec)],
        ['ncc', ncc(s)],
        ['bcc', bcc(s, sec)],
      ]);
      counts.externalCells['2G']++;
    }
  }
  w.closeVs();
  w.closeVs(); // RncFunction
  w.push('</xn:ManagedElement>\n</xn:MeContext>\n');
  await w.maybeFlush();
}

async function writeBsc(
  w: XmlOut,
  k: number,
  sites: DemoSite[],
  near: DemoSite[][],
  seed: number,
  counts: NetworkCounts,
  rel: (k: RelationKind, n?: number) => void,
): Promise<void> {
  const name = bscName(k);
  const cellM = `${ROOT_DN},SubNetwork=GRAN,MeContext=${name},ManagedElement=1,BscFunction=1,BscM=1,GeranCellM=1`;
  const mine = sites.filter((s) => s.bsc === k);
  const external = new Map<string, [DemoSite, GsmBand, number]>();
  const cellDn = (s: DemoSite, b: GsmBand, sec: number): string => {
    if (s.bsc === k) return `${cellM},GeranCell=${gsmName(s, b, sec)}`;
    external.set(gsmName(s, b, sec), [s, b, sec]);
    return `${cellM},ExternalGeranCellM=1,ExternalGeranCell=${gsmName(s, b, sec)}`;
  };
  const host = (sites[0] as DemoSite).plmn;
  const cgi = (s: DemoSite, b: GsmBand, sec: number): string => `${host.mcc}-${host.mnc}-${gsmLac(s)}-${gsmCi(s, b, sec)}`;

  w.push(`<xn:MeContext id="${name}">\n`);
  w.vs(name, 'MeContext', [['neType', 'BSC']]);
  w.push(`<xn:ManagedElement id="1">\n<xn:attributes>\n<xn:userLabel>${name}</xn:userLabel>\n</xn:attributes>\n`);
  w.openVs(1, 'BscFunction', []);
  w.openVs(1, 'BscM', []);
  w.openVs(1, 'GeranCellM', []);
  for (const site of mine) {
    const r = rngFor(seed, site.index, SALT.gsm);
    for (const b of site.gsmBands) {
      for (const sec of SECTORS) {
        w.openVs(gsmName(site, b, sec), 'GeranCell', [
          ['cgi', cgi(site, b, sec)],
          ['bcchNo', bcch(site, b, sec)],
          ['ncc', ncc(site)],
          ['bcc', bcc(site, sec)],
          ['cSysType', b === 'G900' ? 'GSM900' : 'GSM1800'],
          ['azimuth', site.azimuths[sec]],
        ]);
        counts.cells['2G']++;
        const targets: Array<[string, boolean]> = [];
        for (const ts of SECTORS) if (ts !== sec) targets.push([cellDn(site, b, ts), true]);
        for (const ob of site.gsmBands) if (ob !== b) targets.push([cellDn(site, ob, sec), true]);
        for (const t of near[site.index] as DemoSite[]) {
          if (!t.gsmBands.includes(b)) continue;
          for (const ts of SECTORS) targets.push([cellDn(t, b, ts), false]);
        }
        let n = 1;
        for (const [t, intra] of targets) {
          w.vs(n++, 'GeranCellRelation', relationFields(['neighborCellRef', t], relationAttrs(r, intra, true)));
          rel('GERAN-GERAN');
        }
        w.closeVs();
      }
    }
    await w.maybeFlush();
  }
  w.openVs(1, 'ExternalGeranCellM', []);
  for (const [cellName, [s, b, sec]] of external) {
    w.vs(cellName, 'ExternalGeranCell', [
      ['cgi', cgi(s, b, sec)],
      ['bcchNo', bcch(s, b, sec)],
      ['ncc', ncc(s)],
      ['bcc', bcc(s, sec)],
    ]);
    counts.externalCells['2G']++;
  }
  w.closeVs();
  w.closeVs();
  w.closeVs();
  w.closeVs();
  w.push('</xn:ManagedElement>\n</xn:MeContext>\n');
  await w.maybeFlush();
}
