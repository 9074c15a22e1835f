import { NetworkOptionError } from './errors';

/** The network inventory model of docs/engines/network.md#the-mapper-what-mos-are-read, as emitted by the mapper and counted by the demo generator. */

export const CELL_TECHS = ['2G', '3G', '4G', '5G', 'NB-IoT'] as const;
export type CellTech = (typeof CELL_TECHS)[number];

export const EXTERNAL_CELL_KINDS = ['2G', '3G', '4G', '5G'] as const;
export type ExternalCellKind = (typeof EXTERNAL_CELL_KINDS)[number];

export const NODE_TECHNOLOGIES = ['2G', '3G', '4G', '5G', 'multi'] as const;
export type NodeTechnology = (typeof NODE_TECHNOLOGIES)[number];

/** Radio access technologies as used in relation kinds (NB-IoT relations count as LTE). */
export const RATS = ['GERAN', 'UTRAN', 'LTE', 'NR'] as const;
export type Rat = (typeof RATS)[number];
export type RelationKind = `${Rat}-${Rat}`;
export const RELATION_KINDS: readonly RelationKind[] = RATS.flatMap((a) => RATS.map((b): RelationKind => `${a}-${b}`));

export interface Site {
  id: string;
  name: string;
  lat: number | null;
  lon: number | null;
}

export interface NetworkNode {
  name: string;
  dn: string;
  /** Null for controllers (RNC, BSC): their cells belong to many sites. */
  siteId: string | null;
  technology: NodeTechnology | null;
  /** Ericsson `neType` / `managedElementType` (ERBS, RadioNode, RNC, BSC, MSRBS_V2, ...) or inferred. */
  type: string | null;
}

export interface Cell {
  name: string;
  /** The DN relations use for this cell (for a merged NR cell: the NRCellCU DN when there is one). */
  dn: string;
  /** Other DNs of the same cell (the NRCellDU of a merged NR cell); resolve references against dn and these. */
  altDns: string[];
  nodeName: string;
  siteId: string;
  tech: CellTech;
  /** Operator band label: L700/L800/L1800/L2100/L2600/..., U900/U2100, G900/G1800, n78/...; null if unknown. */
  band: string | null;
  /** ARFCN / UARFCN (DL) / EARFCN (DL; TDD: the single EARFCN) / NR-ARFCN. */
  channel: number | null;
  /** LTE / NB-IoT / NR physical cell id (LTE: 3·physicalLayerCellIdGroup + physicalLayerSubCellId). */
  pci: number | null;
  /** UMTS primary scrambling code. */
  psc: number | null;
  /** GSM BSIC as a number 0–63 (8·NCC + BCC). */
  bsic: number | null;
  lac: number | null;
  /** LTE TAC; for NR cells the same value as nrTac. */
  tac: number | null;
  nrTac: number | null;
  azimuth: number | null;
  /** UMTS primaryCpichPower, 0.1 dBm as Ericsson stores it. */
  cpichPower: number | null;
  /** UMTS maximumTransmissionPower, 0.1 dBm. */
  maxTxPower: number | null;
  /** PLMNs served, `mcc-mnc` with the MNC zero-padded to its length (e.g. 268-01). */
  plmns: string[];
  rachRootSequence: number | null;
  /** NR SSB frequency (NR-ARFCN). */
  ssb: number | null;
  /** Cell identity inside its owner: LTE cellId, NR cellLocalId, UMTS cId, GSM CI. */
  cellId: number | null;
  /** UMTS/LTE localCellId where the dump carries one. */
  localCellId: number | null;
  /** eNBId (4G/NB-IoT), gNBId (5G), rncId (3G); null for 2G. */
  ownerId: number | null;
  /** `plmn-ownerId-cellId` (2G: `plmn-lac-ci`, the CGI); matches ExternalCell.globalId of the same tech. */
  globalId: string | null;
}

export interface ExternalCell {
  dn: string;
  name: string;
  kind: ExternalCellKind;
  /** Node holding the proxy; null when it sits outside any node (network-level proxies). */
  nodeName: string | null;
  pci: number | null;
  psc: number | null;
  bsic: number | null;
  channel: number | null;
  band: string | null;
  tac: number | null;
  lac: number | null;
  plmn: string | null;
  /** eNBId / gNBId / rncId of the cell it stands for. */
  ownerId: number | null;
  /** localCellId / cellLocalId / cId / CI of the cell it stands for. */
  cellId: number | null;
  globalId: string | null;
}

export interface Relation {
  dn: string;
  name: string;
  nodeName: string | null;
  /** DN of the source cell (the relation's nearest cell ancestor); NR: the NRCellCU DN. */
  sourceCellDn: string;
  kind: RelationKind;
  /** The raw DN the relation points at (a cell or an external cell); null when the dump has none. */
  targetRef: string | null;
  /** `createdBy` upper-cased (ANR, X2, OPERATOR, ...); null when absent. */
  createdBy: string | null;
  /** Defaults to true when absent (the Ericsson default). */
  isRemoveAllowed: boolean;
  /** Defaults to true when absent (the Ericsson default). */
  isHoAllowed: boolean;
}

export interface NetworkCounts {
  /** Distinct site ids. */
  sites: number;
  nodes: number;
  cells: Record<CellTech, number>;
  externalCells: Record<ExternalCellKind, number>;
  relations: Record<RelationKind, number>;
}

export function emptyCounts(): NetworkCounts {
  const zero = <K extends string>(keys: readonly K[]): Record<K, number> => Object.fromEntries(keys.map((k) => [k, 0])) as Record<K, number>;
  return {
    sites: 0,
    nodes: 0,
    cells: zero(CELL_TECHS),
    externalCells: zero(EXTERNAL_CELL_KINDS),
    relations: zero(RELATION_KINDS),
  };
}

export function totalOf(record: Record<string, number>): number {
  let n = 0;
  for (const v of Object.values(record)) n += v;
  return n;
}

// ---------------------------------------------------------------------------------------------------
// Bands

interface BandRange {
  from: number;
  to: number;
  label: string;
}

/** EARFCN DL ranges (3GPP TS 36.101) with the labels Portuguese operators plan with. */
const LTE_BANDS: BandRange[] = [
  { from: 0, to: 599, label: 'L2100' },
  { from: 1200, to: 1949, label: 'L1800' },
  { from: 2750, to: 3449, label: 'L2600' },
  { from: 3450, to: 3799, label: 'L900' },
  { from: 6150, to: 6449, label: 'L800' },
  { from: 9210, to: 9659, label: 'L700' },
  { from: 37750, to: 38249, label: 'L2600TDD' },
  { from: 38650, to: 39649, label: 'L2300' },
  { from: 41590, to: 43589, label: 'L3500' },
];

/** UARFCN DL (TS 25.101). */
const UMTS_BANDS: BandRange[] = [
  { from: 10562, to: 10838, label: 'U2100' },
  { from: 2937, to: 3088, label: 'U900' },
  { from: 1162, to: 1513, label: 'U1800' },
];

/** NR-ARFCN DL (TS 38.104). */
const NR_BANDS: BandRange[] = [
  { from: 620000, to: 653333, label: 'n78' },
  { from: 151600, to: 160600, label: 'n28' },
  { from: 158200, to: 164200, label: 'n20' },
  { from: 361000, to: 376000, label: 'n3' },
  { from: 422000, to: 434000, label: 'n1' },
  { from: 524000, to: 538000, label: 'n7' },
];

/** GSM ARFCN: P-/E-GSM 900 (0–124, 975–1023) and DCS 1800 (512–885). */
const GSM_BANDS: BandRange[] = [
  { from: 0, to: 124, label: 'G900' },
  { from: 975, to: 1023, label: 'G900' },
  { from: 512, to: 885, label: 'G1800' },
];

function lookup(ranges: BandRange[], channel: number): string | null {
  for (const r of ranges) if (channel >= r.from && channel <= r.to) return r.label;
  return null;
}

/** Band label from the channel number of a cell of the given technology; null when outside every known band. */
export function bandOf(tech: CellTech | ExternalCellKind, channel: number | null): string | null {
  if (channel === null) return null;
  switch (tech) {
    case '2G':
      return lookup(GSM_BANDS, channel);
    case '3G':
      return lookup(UMTS_BANDS, channel);
    case '4G':
    case 'NB-IoT':
      return lookup(LTE_BANDS, channel);
    case '5G':
      return lookup(NR_BANDS, channel);
  }
}

// ---------------------------------------------------------------------------------------------------
// Coordinates

export const COORDINATE_ENCODINGS = ['microdegrees', '3gpp', 'degrees'] as const;
export type CoordinateEncoding = (typeof COORDINATE_ENCODINGS)[number];

export function assertCoordinateEncoding(value: unknown): CoordinateEncoding {
  if (typeof value === 'string' && (COORDINATE_ENCODINGS as readonly string[]).includes(value)) {
    return value as CoordinateEncoding;
  }
  throw new NetworkOptionError(`unknown coordinate encoding ${JSON.stringify(value)}; expected one of ${COORDINATE_ENCODINGS.join(', ')}`);
}

const TWO_23 = 2 ** 23;
const TWO_24 = 2 ** 24;

/**
 * Decodes raw latitude/longitude values. '3gpp' is the TS 23.032 encoding: latitude = N·90/2^23 with a
 * separate sign (`latitudeSign` NORTH/SOUTH or 0/1), or a signed N when there is no sign attribute;
 * longitude = N·360/2^24 (signed). Returns null for out-of-range results.
 */
export function decodeCoordinates(
  encoding: CoordinateEncoding,
  rawLat: number,
  rawLon: number,
  latitudeSign: string | null,
): { lat: number; lon: number } | null {
  let lat: number;
  let lon: number;
  switch (encoding) {
    case 'microdegrees':
      lat = rawLat / 1e6;
      lon = rawLon / 1e6;
      break;
    case 'degrees':
      lat = rawLat;
      lon = rawLon;
      break;
    case '3gpp': {
      lat = (rawLat * 90) / TWO_23;
      if (latitudeSign !== null && isSouth(latitudeSign)) lat = -Math.abs(lat);
      lon = (rawLon * 360) / TWO_24;
      break;
    }
  }
  if (!(Math.abs(lat) <= 90) || !(Math.abs(lon) <= 180)) return null;
  return { lat, lon };
}

function isSouth(sign: string): boolean {
  const s = sign.trim().toUpperCase();
  return s === 'SOUTH' || s === 'S' || s === '1';
}

/** The inverse of {@link decodeCoordinates}, used by the demo generator. */
export function encodeCoordinates(encoding: CoordinateEncoding, lat: number, lon: number): { latitude: string; longitude: string; latitudeSign?: string } {
  switch (encoding) {
    case 'microdegrees':
      return { latitude: String(Math.round(lat * 1e6)), longitude: String(Math.round(lon * 1e6)) };
    case 'degrees':
      return { latitude: lat.toFixed(6), longitude: lon.toFixed(6) };
    case '3gpp':
      return {
        latitude: String(Math.round((Math.abs(lat) * TWO_23) / 90)),
        longitude: String(Math.round((lon * TWO_24) / 360)),
        latitudeSign: lat < 0 ? 'SOUTH' : 'NORTH',
      };
  }
}

// ---------------------------------------------------------------------------------------------------
// PLMN

/** `mcc-mnc`, the MNC zero-padded to its declared length (default 2): 268/1 → 268-01. */
export function formatPlmn(mcc: string, mnc: string, mncLength?: number | null): string {
  const m = mnc.trim();
  const len = mncLength && mncLength >= 2 && mncLength <= 3 ? mncLength : Math.max(2, m.length);
  return `${mcc.trim().padStart(3, '0')}-${m.padStart(len, '0')}`;
}
