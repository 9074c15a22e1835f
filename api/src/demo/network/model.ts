import { type CoordinateEncoding, type NetworkCounts } from '../../domain/network/model';

/** The demo network generator's options, its site plan and what it reports it wrote. */

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

export type LteBand = 'L800' | 'L1800' | 'L2100' | 'L700';
export type GsmBand = 'G900' | 'G1800';
export type UmtsCarrier = 'U2100F1' | 'U2100F2' | 'U2100F3' | 'U900';
