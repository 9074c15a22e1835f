import { Alert, Button, Flex, Select, Skeleton, theme } from 'antd';
// The module's own object, not a namespace copy of it: the plugin below adds L.markerClusterGroup to
// that object (through the global leaflet sets), after a namespace import would have been copied.
import L from 'leaflet';
import 'leaflet.markercluster';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import type { SiteMapResponse, SiteMapSite } from 'contracts';
import { api, can, errorMessage, principalOf, useSession } from 'shared-auth';
import { formatCount, Note } from 'shared-ui';
import { loadLeafletCss } from './leafletCss';
import {
  ALL_LINKS,
  CLUSTER_RADIUS_PX,
  CLUSTER_UNTIL_ZOOM,
  FIT_MAX_ZOOM,
  MAP_VIEW,
  clusterSummary,
  ROUTED_LINK,
  isShown,
  layersOf,
  legendContent,
  mapLegend,
  popupContent,
  sitesBounds,
  type LayerName,
  type PopupLinks,
  type StatusColours,
} from './siteMap';

export interface SiteMapProps {
  /** A site to centre on at the specification's zoom-to level, with its popup open. */
  focusSiteId?: string;
  height?: number;
}

/** A transparent pixel for tiles that fail: with no tile server reachable the sites draw on the plain background. */
const BLANK_TILE = 'data:image/gif;base64,R0lGODlhAQABAAAAACH5BAEKAAEALAAAAAABAAEAAAICTAEAOw==';
/** antd's grey-6: sites without a parsed log. */
const NO_DATA_GREY = '#8c8c8c';

const OSM_ATTRIBUTION = '&copy; <a href="https://www.openstreetmap.org/copyright">OpenStreetMap</a> contributors';

function useSiteMapData(attempt: number) {
  const [state, setState] = useState<{ attempt: number; data: SiteMapResponse | null; error: string | null }>({ attempt: -1, data: null, error: null });
  useEffect(() => {
    let live = true;
    api
      .get<SiteMapResponse>('Monitoring/GetSiteMap', { skipLoading: true, skipErrorHandling: true })
      .then(({ data }) => live && setState({ attempt, data, error: null }))
      .catch((error: unknown) => live && setState({ attempt, data: null, error: errorMessage(error) }));
    return () => {
      live = false;
    };
  }, [attempt]);
  const current = state.attempt === attempt;
  return { data: current ? state.data : null, error: current ? state.error : null, loading: !current };
}

/**
 * The network's sites on a leaflet map (issue 15): canvas-drawn circle markers coloured by overall
 * status, one layer per technology, the status legend, a popup per site with links to its site report
 * and tracker row, and a site select that zooms to a site and opens its popup. It opens fitted to the
 * sites, grouped below the zoom-to level (issue 47: 120 sites at zoom 6 were one blob).
 */
export default function SiteMap({ focusSiteId, height = 520 }: SiteMapProps) {
  const { token } = theme.useToken();
  const navigate = useNavigate();
  const [attempt, setAttempt] = useState(0);
  const { data, error, loading } = useSiteMapData(attempt);
  const container = useRef<HTMLDivElement>(null);
  const [handle, setHandle] = useState<SiteMapHandle | null>(null);
  const [drawn, setDrawn] = useState<number | null>(null);
  const [chosen, setChosen] = useState<string | undefined>(focusSiteId);
  // The page's chosen site (site report) wins over one picked here before, and follows the page.
  const [pageFocus, setPageFocus] = useState(focusSiteId);
  if (pageFocus !== focusSiteId) {
    setPageFocus(focusSiteId);
    setChosen(focusSiteId);
  }
  const follow = useRef(navigate);
  useEffect(() => {
    follow.current = navigate;
  }, [navigate]);

  const colours: StatusColours = useMemo(() => ({ OK: token.colorSuccess, NOK: token.colorError, NO_DATA: NO_DATA_GREY }), [token]);
  // The dashboard is every signed-in user's; its links to engineering pages are for those who may open them.
  const mayMonitor = useSession((s) => can(principalOf(s), 'canMonitor'));
  const mayTrack = useSession((s) => can(principalOf(s), 'canTrack'));
  const links: PopupLinks = useMemo(() => ({ siteReport: mayMonitor, tracker: mayTrack }), [mayMonitor, mayTrack]);
  const sites = data?.sites;
  const byId = useMemo(() => new Map((sites ?? []).map((s) => [s.id, s])), [sites]);

  useEffect(() => {
    const element = container.current;
    if (!element || !data) return;
    let created: SiteMapHandle | null = null;
    let cancelled = false;
    void loadLeafletCss().then(() => {
      if (cancelled) return;
      created = createMap(element, data, colours, setDrawn, links);
      setHandle(created);
    });
    // A link in a popup goes through the console's router, like every other link of the console.
    const onClick = (event: MouseEvent) => {
      const link = (event.target as Element | null)?.closest?.(`a[${ROUTED_LINK}]`);
      if (!link || event.ctrlKey || event.metaKey || event.shiftKey || event.button !== 0) return;
      event.preventDefault();
      void follow.current(link.getAttribute('href') ?? '/');
    };
    element.addEventListener('click', onClick);
    return () => {
      cancelled = true;
      element.removeEventListener('click', onClick);
      created?.map.remove();
      setHandle(null);
      setDrawn(null);
    };
  }, [data, colours, links]);

  const focus = useCallback(
    (siteId: string) => {
      const site = byId.get(siteId);
      if (!handle || !site) return;
      handle.map.setView([site.lat, site.lon], MAP_VIEW.zoomTo, { animate: false });
      handle.openPopup(site);
    },
    [byId, handle],
  );

  useEffect(() => {
    if (chosen) focus(chosen);
  }, [chosen, focus]);

  if (error) {
    return (
      <Alert
        type="error"
        showIcon
        title="The site map could not be loaded."
        description={error}
        action={
          <Button size="small" onClick={() => setAttempt((a) => a + 1)}>
            Retry
          </Button>
        }
      />
    );
  }
  if (loading || !data) return <Skeleton.Node active style={{ width: '100%', height }} aria-label="Loading the site map" />;

  const focusMissing = focusSiteId !== undefined && !byId.has(focusSiteId);
  return (
    <Flex vertical gap={8}>
      <Flex wrap gap={12} align="center">
        <Select<string>
          aria-label="Find a site on the map"
          placeholder="Find a site on the map"
          showSearch={{ optionFilterProp: 'label' }}
          value={chosen}
          onChange={setChosen}
          options={data.sites.map((s) => ({ value: s.id, label: s.name && s.name !== s.id ? `${s.id} – ${s.name}` : s.id }))}
          style={{ width: 320, maxWidth: '100%' }}
          disabled={data.sites.length === 0}
        />
        <Note>
          {formatCount(data.sites.length)} sites on the map
          {data.withoutCoordinates > 0 ? `, ${formatCount(data.withoutCoordinates)} without coordinates` : ''}
        </Note>
      </Flex>
      {focusMissing && <Alert type="info" showIcon title={`Site ${focusSiteId} has no coordinates, so it is not on the map.`} />}
      {data.sites.length === 0 && <Alert type="info" showIcon title="No site of the network has coordinates yet: import a dump with them." />}
      <div
        ref={container}
        role="application"
        aria-label="Map of the network's sites. Arrow keys pan, + and - zoom."
        data-drawn-sites={drawn ?? undefined}
        style={{ height, width: '100%', background: token.colorFillSecondary, borderRadius: token.borderRadiusLG, fontFamily: token.fontFamily, zIndex: 0 }}
      />
    </Flex>
  );
}

/**
 * leaflet 1.9.4's canvas renderer, except that a redraw it scheduled never runs once it was removed. A
 * redraw done at once (after a pan or a zoom) forgets the frame an earlier change had asked for, so
 * removing the map cannot cancel that frame, and it then drew into a context already gone: an uncaught
 * TypeError when the map is left right after a move (fixed upstream by Leaflet PR #9608).
 */
const RemovableCanvas = L.Canvas.extend({
  _redraw(this: { _ctx?: CanvasRenderingContext2D }) {
    if (this._ctx) (L.Canvas.prototype as unknown as { _redraw: () => void })._redraw.call(this);
  },
}) as new (options?: L.RendererOptions) => L.Canvas;

/** A group's marker: a DivIcon that names the group, so a screen reader hears more than a number. */
const ClusterIcon = L.DivIcon.extend({
  createIcon(this: L.DivIcon & { options: L.DivIconOptions & { label: string } }, old?: HTMLElement) {
    const icon = L.DivIcon.prototype.createIcon.call(this, old);
    icon.setAttribute('aria-label', this.options.label);
    icon.title = this.options.label;
    return icon;
  },
}) as new (options: L.DivIconOptions & { label: string }) => L.DivIcon;

function clusterIcon(statuses: SiteMapSite['status'][], colours: StatusColours): L.DivIcon {
  const { count, status, label } = clusterSummary(statuses);
  const size = count < 10 ? 30 : count < 100 ? 36 : 44;
  const bubble = document.createElement('div');
  bubble.dataset.status = status;
  bubble.textContent = String(count);
  // Dark text on white, ringed in the worst status's colour: readable whatever that colour is.
  Object.assign(bubble.style, {
    width: `${size}px`,
    height: `${size}px`,
    boxSizing: 'border-box',
    borderRadius: '50%',
    border: `4px solid ${colours[status]}`,
    background: 'rgba(255, 255, 255, 0.95)',
    color: 'rgba(0, 0, 0, 0.88)',
    font: '600 12px/1 sans-serif',
    display: 'flex',
    alignItems: 'center',
    justifyContent: 'center',
    boxShadow: '0 1px 4px rgba(0,0,0,0.3)',
  });
  return new ClusterIcon({ html: bubble, className: 'cellwise-site-cluster', iconSize: [size, size], label });
}

/** The live map, and how the page opens a site's popup on it. */
export interface SiteMapHandle {
  map: L.Map;
  openPopup: (site: SiteMapSite) => void;
}

/**
 * The leaflet map. Thousands of sites stay smooth because:
 * - every marker is a circle on one shared canvas renderer (one <canvas>, no DOM node per site);
 * - each site is one marker, drawn once: the technology layers of the control are switches, and a site
 *   is drawn while any of its technologies' layers is on (a 2G/4G/5G site drawn three times over itself
 *   would triple the drawing and darken its colour);
 * - one popup serves every site, filled when it opens (no popup object or listener per marker);
 * - below the zoom-to level, sites close on screen are one group's marker (leaflet.markercluster), not
 *   animated: its zoom animation removes and re-adds the canvas circles, which then flicker.
 * It opens fitted to the sites (one site at the zoom-to level), at the specification's default view
 * when there is none or the element has no size yet to fit them to.
 */
export function createMap(
  element: HTMLElement,
  data: SiteMapResponse,
  colours: StatusColours,
  onDrawn: (count: number) => void,
  links: PopupLinks = ALL_LINKS,
): SiteMapHandle {
  const renderer = new RemovableCanvas({ padding: 0.5 });
  const map = L.map(element, {
    preferCanvas: true,
    renderer,
    keyboard: true,
    center: [MAP_VIEW.lat, MAP_VIEW.lon],
    zoom: MAP_VIEW.zoom,
    worldCopyJump: true,
  });
  const tiles = L.tileLayer(data.tileUrl, {
    maxZoom: 19,
    errorTileUrl: BLANK_TILE,
    attribution: /openstreetmap\.org/i.test(data.tileUrl) ? OSM_ATTRIBUTION : '',
  });
  // A tile server out of reach is not an error of the map: the failed tile is blank and the sites still draw.
  tiles.on('tileerror', () => undefined);
  tiles.addTo(map);
  const bounds = sitesBounds(data.sites);
  const size = map.getSize();
  if (bounds && size.x > 0 && size.y > 0) {
    const [[south, west], [north, east]] = bounds;
    if (south === north && west === east) map.setView([south, west], MAP_VIEW.zoomTo, { animate: false });
    else map.fitBounds(bounds, { padding: [24, 24], maxZoom: FIT_MAX_ZOOM, animate: false });
  }

  const layers = layersOf(data.sites);
  const shown = new Set<LayerName>(layers.keys());
  const switches: Record<string, L.LayerGroup> = {};
  const switchOf = new Map<L.Layer, LayerName>();
  for (const name of layers.keys()) {
    const toggle = L.layerGroup().addTo(map);
    switches[name] = toggle;
    switchOf.set(toggle, name);
  }

  const popup = L.popup({ autoPan: true, maxWidth: 320 });
  const openPopup = (site: SiteMapSite) =>
    popup
      .setLatLng([site.lat, site.lon])
      .setContent(popupContent(site, colours, links))
      .openOn(map);

  const siteOf = new Map<L.Layer, SiteMapSite>();
  const markers = data.sites.map((site) => {
    const marker = L.circleMarker([site.lat, site.lon], {
      renderer,
      radius: 6,
      color: '#ffffff',
      weight: 1,
      fillColor: colours[site.status],
      fillOpacity: 0.9,
    });
    siteOf.set(marker, site);
    return marker;
  });
  const drawn = L.markerClusterGroup({
    maxClusterRadius: CLUSTER_RADIUS_PX,
    disableClusteringAtZoom: CLUSTER_UNTIL_ZOOM,
    animate: false,
    // A click on a group zooms in until its sites part (at the zoom-to level at most, where none is grouped);
    // spreading them around it in place would do that at zoom 8 instead, where the sites are not yet themselves.
    spiderfyOnMaxZoom: false,
    showCoverageOnHover: false,
    iconCreateFunction: (cluster) =>
      clusterIcon(
        cluster.getAllChildMarkers().map((m) => siteOf.get(m)!.status),
        colours,
      ),
  });
  const inGroup = new Set(markers.filter((m) => isShown(siteOf.get(m)!, shown)));
  drawn.addLayers([...inGroup]);
  drawn.on('click', (event: L.LeafletMouseEvent) => {
    const site = siteOf.get((event.propagatedFrom ?? event.layer) as L.Layer);
    if (site) openPopup(site);
  });
  drawn.addTo(map);

  // In batches: the group regroups once per call, not once per site.
  const update = () => {
    const adding: L.Layer[] = [];
    const removing: L.Layer[] = [];
    for (const marker of markers) {
      const visible = isShown(siteOf.get(marker)!, shown);
      if (visible === inGroup.has(marker)) continue;
      if (visible) {
        inGroup.add(marker);
        adding.push(marker);
      } else {
        inGroup.delete(marker);
        removing.push(marker);
      }
    }
    if (removing.length > 0) drawn.removeLayers(removing);
    if (adding.length > 0) drawn.addLayers(adding);
    onDrawn(inGroup.size);
  };
  map.on('overlayadd', (event: L.LayersControlEvent) => {
    const name = switchOf.get(event.layer);
    if (name) shown.add(name);
    update();
  });
  map.on('overlayremove', (event: L.LayersControlEvent) => {
    const name = switchOf.get(event.layer);
    if (name) shown.delete(name);
    update();
  });

  // Expanded (the collapsed toggle's icon is an image leaflet's CSS names relative to the page) and at the
  // bottom: a popup opens above the site in the middle, where a top control would cover it on a phone.
  L.control.layers(undefined, switches, { collapsed: false, position: 'bottomleft' }).addTo(map);
  const legend = new L.Control({ position: 'bottomright' });
  legend.onAdd = () => legendContent(mapLegend(colours));
  legend.addTo(map);

  // The zoom the map is at, for a test to read (a canvas has no DOM to tell it).
  const sayZoom = () => {
    element.dataset.zoom = String(map.getZoom());
  };
  map.on('zoomend', sayZoom);
  sayZoom();

  onDrawn(inGroup.size);
  return { map, openPopup };
}
