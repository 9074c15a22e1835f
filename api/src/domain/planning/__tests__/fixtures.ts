import type { Cell, ExternalCell, Relation, Site } from '../../network/model';
import { destination } from '../geo';
import type { PlacedCell } from '../placed';

/** A dump cell with every field defaulted. */
export function cell(p: Partial<Cell> & Pick<Cell, 'name' | 'siteId' | 'tech'>): Cell {
  return {
    dn: `ME=${p.siteId},Cell=${p.name}`,
    altDns: [],
    nodeName: p.siteId,
    band: null,
    channel: null,
    pci: null,
    psc: null,
    bsic: null,
    lac: null,
    tac: null,
    nrTac: null,
    azimuth: null,
    cpichPower: null,
    maxTxPower: null,
    plmns: ['268-01'],
    rachRootSequence: null,
    ssb: null,
    cellId: null,
    localCellId: null,
    ownerId: null,
    globalId: null,
    ...p,
  };
}

export function external(p: Partial<ExternalCell> & Pick<ExternalCell, 'dn' | 'name' | 'kind'>): ExternalCell {
  return {
    nodeName: null,
    pci: null,
    psc: null,
    bsic: null,
    channel: null,
    band: null,
    tac: null,
    lac: null,
    plmn: '268-01',
    ownerId: null,
    cellId: null,
    globalId: null,
    ...p,
  };
}

export function relation(p: Partial<Relation> & Pick<Relation, 'sourceCellDn' | 'targetRef'>): Relation {
  const name = p.name ?? (p.targetRef ? p.targetRef.slice(p.targetRef.lastIndexOf('=') + 1) : 'rel');
  return {
    dn: `${p.sourceCellDn},Rel=${name}`,
    name,
    nodeName: null,
    kind: 'LTE-LTE',
    createdBy: 'OPERATOR',
    isRemoveAllowed: true,
    isHoAllowed: true,
    ...p,
  };
}

export const CENTRE = { lat: 38.74, lon: -9.2 };

/** Sites: the centre S0 and a ring S1…S6 at `isdKm`, the first ring site at bearing `ringStartDeg`, then every 60°. */
export function hexSites(isdKm: number, ringStartDeg = 30): Site[] {
  const sites: Site[] = [{ id: 'S0', name: 'Centre', lat: CENTRE.lat, lon: CENTRE.lon }];
  for (let k = 0; k < 6; k++) {
    const p = destination(CENTRE, isdKm, ringStartDeg + 60 * k);
    sites.push({ id: `S${k + 1}`, name: `Ring ${k + 1}`, lat: p.lat, lon: p.lon });
  }
  return sites;
}

export function placed(site: Site, name: string, azimuth: number | null, pci: number | null, extra: Partial<PlacedCell> = {}): PlacedCell {
  return {
    name,
    siteId: site.id,
    tech: '5G',
    lat: site.lat as number,
    lon: site.lon as number,
    azimuth,
    channel: 636666,
    pci,
    rachRootSequence: null,
    ...extra,
  };
}
