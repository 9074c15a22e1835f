import type { MAP_DEFAULTS, MAP_STATUSES, MAP_TECHNOLOGIES, MapStatus, MapTechnology, SiteMapSite } from 'contracts';
import { filtersSearch } from 'shared-ui';
import { sharedWithText } from '../sharing';

/**
 * The site map's rules, apart from leaflet: defaults, layers, legend, popup content and links. Typed
 * by the API's constants (type-only imports: the browser does not ship the API's schema library), so
 * a change there fails the build here.
 */

/** Specification §9 map state: centre 38.74, -9.20, zoom 6; zoom 9 on a chosen site. */
export const MAP_VIEW: typeof MAP_DEFAULTS = { lat: 38.74, lon: -9.2, zoom: 6, zoomTo: 9 };

/** Layers per technology, named as the layer control shows them. */
export const TECHNOLOGIES: typeof MAP_TECHNOLOGIES = ['2G', '3G', '4G', '5G'];
const STATUSES: typeof MAP_STATUSES = ['OK', 'NOK', 'NO_DATA'];

/** Sites that list no technology still draw, in a layer of their own (only when there are some). */
export const NO_TECHNOLOGY = 'Other';
export type LayerName = MapTechnology | typeof NO_TECHNOLOGY;

/** The map state's legend (specification §3): a title and its elements, one per overall site status. */
export interface Legend {
  title: string;
  legendElements: Array<{ status: MapStatus; label: string; colour: string }>;
}

export interface StatusColours {
  OK: string;
  NOK: string;
  NO_DATA: string;
}

const STATUS_LABELS: Record<MapStatus, string> = { OK: 'OK', NOK: 'NOK', NO_DATA: 'No data' };

export function mapLegend(colours: StatusColours): Legend {
  return {
    title: 'Overall site status',
    legendElements: STATUSES.map((status) => ({ status, label: STATUS_LABELS[status], colour: colours[status] })),
  };
}

/**
 * The sites of each layer: a site is in the layer of each technology it has, once (a site listing a
 * technology twice is not drawn twice). Layers in 2G, 3G, 4G, 5G order, then the sites without one.
 */
export function layersOf(sites: readonly SiteMapSite[]): Map<LayerName, SiteMapSite[]> {
  const layers = new Map<LayerName, SiteMapSite[]>(TECHNOLOGIES.map((t) => [t, []]));
  const none: SiteMapSite[] = [];
  for (const site of sites) {
    const techs = new Set(site.technologies);
    if (techs.size === 0) none.push(site);
    for (const tech of techs) layers.get(tech)?.push(site);
  }
  if (none.length > 0) layers.set(NO_TECHNOLOGY, none);
  return layers;
}

/** A site is drawn once, while any layer it belongs to is on (a 4G + 5G site stays while either shows). */
export function isShown(site: Pick<SiteMapSite, 'technologies'>, shown: ReadonlySet<LayerName>): boolean {
  if (site.technologies.length === 0) return shown.has(NO_TECHNOLOGY);
  return site.technologies.some((t) => shown.has(t));
}

/** The south-west and north-east corners around every site, or null when there is none to fit. */
export function sitesBounds(sites: ReadonlyArray<Pick<SiteMapSite, 'lat' | 'lon'>>): [[number, number], [number, number]] | null {
  if (sites.length === 0) return null;
  let [south, west, north, east] = [Infinity, Infinity, -Infinity, -Infinity];
  for (const { lat, lon } of sites) {
    south = Math.min(south, lat);
    north = Math.max(north, lat);
    west = Math.min(west, lon);
    east = Math.max(east, lon);
  }
  return [
    [south, west],
    [north, east],
  ];
}

/**
 * The closest the map opens when fitting several sites: a street's width, not a house's (one site, or
 * sites all at one place, open at the zoom-to level instead).
 */
export const FIT_MAX_ZOOM = 14;

/**
 * Sites closer than this on screen are drawn as one group below the zoom-to level (specification §9's
 * zoom 9), where every site is its own dot again: a chosen site is always shown as itself.
 */
export const CLUSTER_RADIUS_PX = 48;
export const CLUSTER_UNTIL_ZOOM = MAP_VIEW.zoomTo;

/** Worst first: a group shows the colour of the worst status among its sites, so a NOK site is never hidden in a green one. */
const STATUS_SEVERITY: readonly MapStatus[] = ['NOK', 'NO_DATA', 'OK'];

/** A group of sites as its marker shows it: how many, the worst status (its colour), and the breakdown said to a screen reader. */
export function clusterSummary(statuses: readonly MapStatus[]): { count: number; status: MapStatus; label: string } {
  const counts = new Map<MapStatus, number>();
  for (const status of statuses) counts.set(status, (counts.get(status) ?? 0) + 1);
  const status = STATUS_SEVERITY.find((s) => counts.has(s)) ?? 'NO_DATA';
  const parts = STATUS_SEVERITY.filter((s) => counts.has(s)).map((s) => `${counts.get(s)} ${STATUS_LABELS[s]}`);
  const count = statuses.length;
  return { count, status, label: `${count} ${count === 1 ? 'site' : 'sites'}: ${parts.join(', ')}. Zoom in to see them.` };
}

export const siteReportLink = (siteId: string) => `/monitoring/siteReport?${new URLSearchParams({ siteId }).toString()}`;
/** The tracker lists the site as its `localId`: the tracker page opens filtered on it. */
export const trackerLink = (siteId: string) => `/tracking/tracker${filtersSearch({ localId: siteId })}`;

/** Marks the links the map hands to the console's router instead of reloading the page. */
export const ROUTED_LINK = 'data-route';

const statusText = (value: string | null) => (value === null || value === '' ? 'No data' : value);

/** Which of a popup's engineering links its user may follow (their pages' capabilities). */
export interface PopupLinks {
  /** The site report (canMonitor). */
  siteReport: boolean;
  /** The tracker row (canTrack). */
  tracker: boolean;
}

export const ALL_LINKS: PopupLinks = { siteReport: true, tracker: true };

/**
 * A site's popup: its name, technologies, statuses, and links to its site report and (when the
 * tracker lists it) its tracker row, each only for a user who may open that page (a Client sees the
 * site, not links to the 401 page). Built as DOM nodes, so no text of a site is ever read as HTML.
 */
export function popupContent(site: SiteMapSite, colours: StatusColours, allowed: PopupLinks = ALL_LINKS): HTMLElement {
  const root = document.createElement('div');
  root.className = 'cellwise-site-popup';
  root.dataset.siteId = site.id;
  const title = root.appendChild(document.createElement('strong'));
  title.textContent = site.name && site.name !== site.id ? `${site.id} – ${site.name}` : site.id;
  title.style.display = 'block';
  title.style.marginBottom = '4px';
  const shared = sharedWithText(site);
  if (shared) {
    const mark = root.appendChild(document.createElement('div'));
    mark.className = 'cellwise-site-shared';
    mark.textContent = shared;
    mark.style.marginBottom = '4px';
  }

  const rows: Array<[string, string, string | null]> = [
    ['Technologies', site.technologies.length > 0 ? [...new Set(site.technologies)].join(', ') : 'None listed', null],
    ['Overall status', STATUS_LABELS[site.status], colours[site.status]],
    ['Alarm status', statusText(site.alarmStatus), null],
    ['Radio status', statusText(site.radioStatus), null],
    ['Core status', statusText(site.coreStatus), null],
  ];
  const list = root.appendChild(document.createElement('dl'));
  list.style.margin = '0 0 6px';
  list.style.display = 'grid';
  list.style.gridTemplateColumns = 'auto auto';
  list.style.columnGap = '8px';
  for (const [label, value, colour] of rows) {
    const term = list.appendChild(document.createElement('dt'));
    term.textContent = label;
    term.style.color = 'rgba(0, 0, 0, 0.55)';
    const detail = list.appendChild(document.createElement('dd'));
    detail.style.margin = '0';
    if (colour) {
      const dot = detail.appendChild(document.createElement('span'));
      dot.setAttribute('aria-hidden', 'true');
      Object.assign(dot.style, { display: 'inline-block', width: '8px', height: '8px', borderRadius: '50%', background: colour, marginRight: '4px' });
    }
    detail.appendChild(document.createTextNode(value));
  }

  if (!allowed.siteReport && !(allowed.tracker && site.trackerId !== null)) return root;
  const links = root.appendChild(document.createElement('div'));
  links.style.display = 'flex';
  links.style.gap = '12px';
  const link = (href: string, text: string, label: string) => {
    const a = links.appendChild(document.createElement('a'));
    a.href = href;
    a.textContent = text;
    a.setAttribute('aria-label', label);
    a.setAttribute(ROUTED_LINK, '');
  };
  if (allowed.siteReport) link(siteReportLink(site.id), 'Site report', `Site report of ${site.id}`);
  if (allowed.tracker && site.trackerId !== null) link(trackerLink(site.id), 'Tracker row', `Tracker row of ${site.id}`);
  return root;
}

/** The legend as a leaflet control's content. */
export function legendContent(legend: Legend): HTMLElement {
  const root = document.createElement('div');
  root.className = 'cellwise-map-legend';
  root.setAttribute('role', 'group');
  root.setAttribute('aria-label', legend.title);
  Object.assign(root.style, {
    background: 'rgba(255, 255, 255, 0.92)',
    padding: '6px 10px',
    borderRadius: '6px',
    lineHeight: '20px',
    boxShadow: '0 1px 4px rgba(0,0,0,0.25)',
  });
  const title = root.appendChild(document.createElement('strong'));
  title.textContent = legend.title;
  title.style.display = 'block';
  for (const element of legend.legendElements) {
    const row = root.appendChild(document.createElement('div'));
    row.dataset.status = element.status;
    const dot = row.appendChild(document.createElement('span'));
    dot.setAttribute('aria-hidden', 'true');
    Object.assign(dot.style, {
      display: 'inline-block',
      width: '10px',
      height: '10px',
      borderRadius: '50%',
      background: element.colour,
      border: '1px solid #fff',
      marginRight: '6px',
      verticalAlign: 'middle',
    });
    row.appendChild(document.createTextNode(element.label));
  }
  return root;
}
