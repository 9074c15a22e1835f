import { NEAREST, SALT, SITES_PER_BSC, SITES_PER_RNC } from './identities';
import { LISBON } from './lisbon';
import { type DemoLayerSite, type DemoOptions, type DemoRegion, type DemoSite, type GsmBand, type LteBand, type UmtsCarrier } from './model';
import { rngFor } from '../random';

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

export function distance2(a: DemoSite, b: DemoSite, cosLat: number): number {
  const dx = (a.lon - b.lon) * cosLat;
  const dy = a.lat - b.lat;
  return dx * dx + dy * dy;
}

/** For each site, the nearest other sites (all, and those with NR), nearest first. */
export function neighbourTable(sites: DemoSite[], region: DemoRegion): { near: DemoSite[][]; nearNr: DemoSite[][] } {
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

export function insertBest(best: Array<[number, DemoSite]>, d: number, s: DemoSite, k: number): void {
  if (best.length === k && d >= (best[k - 1] as [number, DemoSite])[0]) return;
  let at = best.length;
  while (at > 0 && (best[at - 1] as [number, DemoSite])[0] > d) at--;
  best.splice(at, 0, [d, s]);
  if (best.length > k) best.pop();
}
