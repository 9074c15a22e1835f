import type { Cell, CellTech, Site } from '../network/model';

/** What the planners need of a dump cell: the cell and the position of its site. */
export interface PlacedCell {
  name: string;
  siteId: string;
  tech: CellTech;
  lat: number;
  lon: number;
  azimuth: number | null;
  /** EARFCN / NR-ARFCN; null = unknown (treated as co-channel). */
  channel: number | null;
  pci: number | null;
  /** First PRACH logical root sequence index. */
  rachRootSequence: number | null;
}

/** Places the given cells on their sites' coordinates; cells of sites without coordinates are left out. */
export function placeCells(sites: Iterable<Site>, cells: Iterable<Cell>, keep: (cell: Cell) => boolean = () => true): PlacedCell[] {
  const pos = new Map<string, { lat: number; lon: number }>();
  for (const s of sites) if (s.lat !== null && s.lon !== null) pos.set(s.id, { lat: s.lat, lon: s.lon });
  const out: PlacedCell[] = [];
  for (const c of cells) {
    if (!keep(c)) continue;
    const p = pos.get(c.siteId);
    if (!p) continue;
    out.push({
      name: c.name,
      siteId: c.siteId,
      tech: c.tech,
      lat: p.lat,
      lon: p.lon,
      azimuth: c.azimuth,
      channel: c.channel,
      pci: c.pci,
      rachRootSequence: c.rachRootSequence,
    });
  }
  return out;
}
