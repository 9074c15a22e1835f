import { act, cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import * as L from 'leaflet';
import { cellwiseTheme } from 'shared-ui';
import type { SiteMapResponse, SiteMapSite } from 'contracts';
import { fakeApi, locationNow, refusal, renderPage, signIn } from '../testing/monitoringKit';
import SiteMap, { type SiteMapProps } from './SiteMap';
import { clusterSummary, isShown, layersOf, legendContent, mapLegend, popupContent, sitesBounds, type LayerName } from './siteMap';

// The stylesheet is fetched from the built remote's assets; jsdom has neither, and the map draws without it.
jest.mock('./leafletCss', () => ({ loadLeafletCss: () => Promise.resolve() }));

// jsdom has no 2D canvas: leaflet's canvas renderer draws into a context that accepts every call.
beforeAll(() => {
  const context = new Proxy({} as Record<string | symbol, unknown>, {
    get: (target, key) => (key in target ? target[key] : () => undefined),
    set: (target, key, value) => {
      target[key] = value;
      return true;
    },
  });
  jest.spyOn(HTMLCanvasElement.prototype, 'getContext').mockImplementation(() => context as unknown as CanvasRenderingContext2D);
});

// jsdom lays nothing out: the map's element gets the size a browser would give it, so the map can fit its sites.
const MAP_SIZE = { width: 800, height: 520 };
let mapSized = true;
beforeAll(() => {
  const sized = (side: 'width' | 'height') =>
    function (this: HTMLElement) {
      return mapSized && this.classList.contains('leaflet-container') ? MAP_SIZE[side] : 0;
    };
  jest.spyOn(HTMLElement.prototype, 'clientWidth', 'get').mockImplementation(sized('width'));
  jest.spyOn(HTMLElement.prototype, 'clientHeight', 'get').mockImplementation(sized('height'));
});

const site = (id: string, technologies: SiteMapSite['technologies'], more: Partial<SiteMapSite> = {}): SiteMapSite => ({
  id,
  name: `Name ${id}`,
  lat: 38.7,
  lon: -9.1,
  technologies,
  status: 'OK',
  alarmStatus: 'OK',
  radioStatus: 'OK',
  coreStatus: 'OK',
  trackerId: 1,
  sharedWith: null,
  shareMode: null,
  ...more,
});

const SITES: SiteMapSite[] = [
  site('LX0001', ['4G', '5G'], { name: 'Lisboa <b>Centro</b>', lat: 38.71, lon: -9.14, status: 'NOK', alarmStatus: 'NOK', coreStatus: null, trackerId: 12 }),
  site('LX0002', ['2G', '3G', '4G'], { lat: 38.72, lon: -9.15 }),
  site('LX0003', ['4G'], { lat: 38.9, lon: -9.3, status: 'NO_DATA', alarmStatus: null, radioStatus: null, coreStatus: null, trackerId: null }),
  site('LX0004', [], { lat: 38.5, lon: -8.9 }),
];

const ANSWER: SiteMapResponse = { sites: SITES, withoutCoordinates: 2, tileUrl: 'http://127.0.0.1:9/{z}/{x}/{y}.png' };

const COLOURS = { OK: 'green', NOK: 'red', NO_DATA: 'grey' };

function mapPage(props: SiteMapProps = {}) {
  return function Page() {
    return <SiteMap {...props} />;
  };
}

const mapElement = () => document.querySelector<HTMLElement>('.leaflet-container')!;
const drawnCount = async () => {
  await waitFor(() => expect(mapElement()?.dataset.drawnSites).toBeDefined());
  return Number(mapElement().dataset.drawnSites);
};
const layerCheckbox = (name: string) => {
  const label = Array.from(document.querySelectorAll('.leaflet-control-layers-overlays label')).find((l) => l.textContent?.trim() === name);
  if (!label) throw new Error(`no layer ${name}`);
  return label.querySelector('input')!;
};
/** The live map: leaflet calls setView on itself from its constructor. */
const theMap = () => setView.mock.contexts.at(-1) as L.Map;
const view = () => ({ ...theMap().getCenter(), zoom: theMap().getZoom() });
/** Centred on the site at zoom 9, give or take the few pixels the popup's auto-pan moves the map. */
const expectFocusedOn = (lat: number, lng: number) => {
  const { lat: atLat, lng: atLng, zoom } = view();
  expect(zoom).toBe(9);
  expect(Math.abs(atLat - lat)).toBeLessThan(0.03);
  expect(Math.abs(atLng - lng)).toBeLessThan(0.03);
};
const openPopup = () => document.querySelector<HTMLElement>('.leaflet-popup-content');

let setView: jest.SpyInstance;
let tileLayer: jest.SpyInstance;
beforeEach(() => {
  signIn('CellwiseOS', 7);
  setView = jest.spyOn(L.Map.prototype, 'setView');
  // leaflet's classes build through initialize(), which its type declarations leave out.
  tileLayer = jest.spyOn(L.TileLayer.prototype as unknown as { initialize: (url: string, options: L.TileLayerOptions) => void }, 'initialize');
});
afterEach(() => {
  mapSized = true;
  setView.mockRestore();
  tileLayer.mockRestore();
});

describe('site map rules', () => {
  test('a site is in the layer of each of its technologies once, and drawn once while any of them is on; sites without one get a layer of their own', () => {
    const layers = layersOf([...SITES, site('LX0005', ['5G', '5G'])]);
    expect([...layers.keys()]).toEqual(['2G', '3G', '4G', '5G', 'Other']);
    expect(layers.get('4G')!.map((s) => s.id)).toEqual(['LX0001', 'LX0002', 'LX0003']);
    expect(layers.get('5G')!.map((s) => s.id)).toEqual(['LX0001', 'LX0005']);
    expect(layers.get('2G')!.map((s) => s.id)).toEqual(['LX0002']);
    expect(layers.get('Other')!.map((s) => s.id)).toEqual(['LX0004']);
    expect(layersOf(SITES.slice(0, 2)).has('Other')).toBe(false);
    // Drawn once, while any of its layers is on.
    const shownWith = (...names: LayerName[]) => SITES.filter((s) => isShown(s, new Set(names))).map((s) => s.id);
    expect(shownWith('4G', '5G')).toEqual(['LX0001', 'LX0002', 'LX0003']);
    expect(shownWith('5G')).toEqual(['LX0001']);
    expect(shownWith('2G', '3G')).toEqual(['LX0002']);
    expect(shownWith('Other')).toEqual(['LX0004']);
    expect(shownWith()).toEqual([]);
  });

  test('the bounds to fit are the corners around every site; none without sites', () => {
    expect(sitesBounds(SITES)).toEqual([
      [38.5, -9.3],
      [38.9, -8.9],
    ]);
    expect(sitesBounds([{ lat: 41.1, lon: -8.6 }])).toEqual([
      [41.1, -8.6],
      [41.1, -8.6],
    ]);
    expect(sitesBounds([])).toBeNull();
  });

  test("a group of sites shows its count and its worst status's colour, and says its breakdown", () => {
    expect(clusterSummary(['OK', 'OK', 'NOK', 'NO_DATA'])).toEqual({ count: 4, status: 'NOK', label: '4 sites: 1 NOK, 1 No data, 2 OK. Zoom in to see them.' });
    expect(clusterSummary(['OK', 'NO_DATA'])).toMatchObject({ status: 'NO_DATA' });
    expect(clusterSummary(['OK', 'OK'])).toMatchObject({ status: 'OK', label: '2 sites: 2 OK. Zoom in to see them.' });
  });

  test("the legend is the map state's title and one element per overall status, in its colour", () => {
    const legend = mapLegend(COLOURS);
    expect(legend.title).toBe('Overall site status');
    expect(legend.legendElements.map((e) => [e.status, e.label, e.colour])).toEqual([
      ['OK', 'OK', 'green'],
      ['NOK', 'NOK', 'red'],
      ['NO_DATA', 'No data', 'grey'],
    ]);
    const element = legendContent(legend);
    expect(element.getAttribute('aria-label')).toBe('Overall site status');
    expect(Array.from(element.querySelectorAll('[data-status]')).map((row) => [row.textContent, (row.firstChild as HTMLElement).style.background])).toEqual([
      ['OK', 'green'],
      ['NOK', 'red'],
      ['No data', 'grey'],
    ]);
  });

  test('a popup names the site (as text, never HTML), its technologies and statuses, and links to its site report and tracker row', () => {
    const popup = popupContent(SITES[0]!, COLOURS);
    expect(popup.querySelector('strong')!.textContent).toBe('LX0001 – Lisboa <b>Centro</b>');
    expect(popup.querySelector('b')).toBeNull();
    const details = Array.from(popup.querySelectorAll('dt')).map((dt) => [dt.textContent, dt.nextElementSibling!.textContent]);
    expect(details).toEqual([
      ['Technologies', '4G, 5G'],
      ['Overall status', 'NOK'],
      ['Alarm status', 'NOK'],
      ['Radio status', 'OK'],
      ['Core status', 'No data'],
    ]);
    expect(Array.from(popup.querySelectorAll('a')).map((a) => [a.textContent, a.getAttribute('href')])).toEqual([
      ['Site report', '/monitoring/siteReport?siteId=LX0001'],
      ['Tracker row', `/tracking/tracker?${new URLSearchParams({ filters: JSON.stringify({ localId: 'LX0001' }) }).toString()}`],
    ]);
    // Not in the tracker: no tracker link.
    expect(Array.from(popupContent(SITES[2]!, COLOURS).querySelectorAll('a')).map((a) => a.textContent)).toEqual(['Site report']);
  });

  test("a shared site's popup says whom it is shared with, under its name; a site not shared says nothing of it", () => {
    const shared = popupContent(site('LX0016', ['4G'], { name: 'Odivelas', sharedWith: 'NOS', shareMode: 'MORAN' }), COLOURS);
    expect(shared.querySelector('strong')!.nextElementSibling!.textContent).toBe('shared with NOS (MORAN)');
    expect(shared.querySelector('.cellwise-site-shared')!.textContent).toBe('shared with NOS (MORAN)');
    const own = popupContent(SITES[1]!, COLOURS);
    expect(own.querySelector('.cellwise-site-shared')).toBeNull();
    expect(own.textContent).not.toContain('shared with');
  });
});

describe('SiteMap', () => {
  test('opens fitted to the sites and draws every site with coordinates, with layers 2G–5G and the legend', async () => {
    const api = fakeApi({ 'Monitoring/GetSiteMap': ANSWER });
    await renderPage(mapPage(), '/dashboards/dashboardRollout');
    expect(await drawnCount()).toBe(4);
    expect(api.to('Monitoring/GetSiteMap')).toHaveLength(1);
    // The four sites span 0.4°: at zoom 10 they fill 800 × 520 px best, centred on them.
    const { lat, lng, zoom } = view();
    expect(zoom).toBe(10);
    expect(mapElement().dataset.zoom).toBe('10');
    expect(Math.abs(lat - 38.7)).toBeLessThan(0.01);
    expect(Math.abs(lng - -9.1)).toBeLessThan(0.01);
    for (const s of SITES) expect(theMap().getBounds().contains([s.lat, s.lon])).toBe(true);
    expect(Array.from(document.querySelectorAll('.leaflet-control-layers-overlays label')).map((l) => l.textContent?.trim())).toEqual([
      '2G',
      '3G',
      '4G',
      '5G',
      'Other',
    ]);
    expect(document.querySelector('.cellwise-map-legend')!.textContent).toBe('Overall site statusOKNOKNo data');
    expect(screen.getByText('4 sites on the map, 2 without coordinates')).toBeInTheDocument();
    // Keyboard: leaflet's keyboard handler makes the map focusable.
    expect(mapElement().tabIndex).toBe(0);
    // The tiles come from the answer's URL; a tile that fails is a blank image, so the sites draw on the plain background.
    expect(tileLayer).toHaveBeenCalledWith(ANSWER.tileUrl, expect.objectContaining({ errorTileUrl: expect.stringMatching(/^data:image\/gif;base64,/) }));
  });

  test('turning layers off and on counts each site once while any of its layers shows', async () => {
    fakeApi({ 'Monitoring/GetSiteMap': ANSWER });
    await renderPage(mapPage(), '/dashboards/dashboardRollout');
    expect(await drawnCount()).toBe(4);
    act(() => fireEvent.click(layerCheckbox('4G')));
    // LX0003 is 4G only; LX0001 stays through 5G, LX0002 through 2G and 3G.
    await waitFor(() => expect(Number(mapElement().dataset.drawnSites)).toBe(3));
    act(() => fireEvent.click(layerCheckbox('5G')));
    await waitFor(() => expect(Number(mapElement().dataset.drawnSites)).toBe(2));
    act(() => fireEvent.click(layerCheckbox('4G')));
    await waitFor(() => expect(Number(mapElement().dataset.drawnSites)).toBe(4));
  });

  test('focusSiteId centres on the site at zoom 9 with its popup open; its site report link goes through the router', async () => {
    fakeApi({ 'Monitoring/GetSiteMap': ANSWER });
    await renderPage(mapPage({ focusSiteId: 'LX0002' }), '/monitoring/siteReport');
    await waitFor(() => expect(openPopup()?.textContent).toContain('LX0002 – Name LX0002'));
    expectFocusedOn(38.72, -9.15);
    expect(openPopup()!.textContent).toContain('2G, 3G, 4G');
    const link = Array.from(openPopup()!.querySelectorAll('a')).find((a) => a.textContent === 'Site report')!;
    act(() => fireEvent.click(link));
    await waitFor(() => expect(locationNow()).toBe('/monitoring/siteReport?siteId=LX0002'));
  });

  test("a click on a site's marker opens its popup; each site is one marker", async () => {
    fakeApi({ 'Monitoring/GetSiteMap': ANSWER });
    await renderPage(mapPage(), '/dashboards/dashboardRollout');
    await drawnCount();
    const markers: L.CircleMarker[] = [];
    theMap().eachLayer((layer) => {
      if (layer instanceof L.CircleMarker) markers.push(layer);
    });
    expect(markers.map((m) => [m.getLatLng().lat, m.getLatLng().lng])).toEqual(SITES.map((s) => [s.lat, s.lon]));
    // What leaflet's canvas renderer does for a click on a marker's pixels: the marker fires, and its group hears it.
    act(() => {
      markers[0]!.fire('click', { latlng: markers[0]!.getLatLng() }, true);
    });
    await waitFor(() => expect(openPopup()?.textContent).toContain('LX0001 – Lisboa <b>Centro</b>'));
    // Coloured by overall status from the theme: NOK error red, OK success green, no data grey.
    expect(markers.map((m) => m.options.fillColor)).toEqual([cellwiseTheme.token!.colorError, '#52c41a', '#8c8c8c', '#52c41a']);
  });

  test('choosing a site in the select zooms to it and opens its popup', async () => {
    fakeApi({ 'Monitoring/GetSiteMap': ANSWER });
    await renderPage(mapPage(), '/dashboards/dashboardRollout');
    await drawnCount();
    const select = screen.getByLabelText('Find a site on the map');
    fireEvent.mouseDown(select);
    fireEvent.change(select, { target: { value: 'LX0003' } });
    const option = await waitFor(() => {
      const found = Array.from(document.querySelectorAll<HTMLElement>('.ant-select-item-option')).find((o) => o.textContent === 'LX0003 – Name LX0003');
      if (!found) throw new Error('no option yet');
      return found;
    });
    act(() => fireEvent.click(option));
    await waitFor(() => expect(openPopup()?.textContent).toContain('LX0003 – Name LX0003'));
    expectFocusedOn(38.9, -9.3);
    expect(openPopup()!.textContent).toContain('Overall statusNo data');
    expect(Array.from(openPopup()!.querySelectorAll('a')).map((a) => a.textContent)).toEqual(['Site report']);
  });

  test("a Client sees the sites and their statuses, without the 'Site report' and 'Tracker row' links", async () => {
    signIn('Client', 9, { id: 2, name: 'NOS' });
    fakeApi({ 'Monitoring/GetSiteMap': ANSWER });
    await renderPage(mapPage(), '/dashboards/dashboardRollout');
    expect(await drawnCount()).toBe(4);
    const markers: L.CircleMarker[] = [];
    theMap().eachLayer((layer) => {
      if (layer instanceof L.CircleMarker) markers.push(layer);
    });
    act(() => {
      markers[0]!.fire('click', { latlng: markers[0]!.getLatLng() }, true);
    });
    await waitFor(() => expect(openPopup()?.textContent).toContain('LX0001 – Lisboa <b>Centro</b>'));
    expect(openPopup()!.textContent).toContain('Alarm statusNOK');
    expect(openPopup()!.querySelectorAll('a')).toHaveLength(0);
    expect(openPopup()!.textContent).not.toMatch(/Site report|Tracker row/);
  });

  test('each link is for whom may open its page', () => {
    const linksOf = (allowed: { siteReport: boolean; tracker: boolean }) =>
      Array.from(popupContent(SITES[0]!, COLOURS, allowed).querySelectorAll('a')).map((a) => a.textContent);
    expect(linksOf({ siteReport: true, tracker: true })).toEqual(['Site report', 'Tracker row']);
    expect(linksOf({ siteReport: true, tracker: false })).toEqual(['Site report']);
    expect(linksOf({ siteReport: false, tracker: true })).toEqual(['Tracker row']);
    expect(linksOf({ siteReport: false, tracker: false })).toEqual([]);
  });

  test('a focused site without coordinates is said, and the map shows the sites that have them', async () => {
    fakeApi({ 'Monitoring/GetSiteMap': ANSWER });
    await renderPage(mapPage({ focusSiteId: 'XX9' }), '/monitoring/siteReport');
    expect(await screen.findByText('Site XX9 has no coordinates, so it is not on the map.')).toBeInTheDocument();
    await drawnCount();
    for (const s of SITES) expect(theMap().getBounds().contains([s.lat, s.lon])).toBe(true);
    expect(openPopup()).toBeNull();
  });

  test('one site opens at the zoom-to level, centred on it', async () => {
    fakeApi({ 'Monitoring/GetSiteMap': { ...ANSWER, sites: [SITES[1]!] } });
    await renderPage(mapPage(), '/dashboards/dashboardRollout');
    expect(await drawnCount()).toBe(1);
    expect(view()).toEqual({ lat: 38.72, lng: -9.15, zoom: 9 });
  });

  test("with no site to fit, or no size to fit them to yet, it opens at the specification's default view", async () => {
    fakeApi({ 'Monitoring/GetSiteMap': { ...ANSWER, sites: [] } });
    await renderPage(mapPage(), '/dashboards/dashboardRollout');
    expect(await drawnCount()).toBe(0);
    expect(view()).toEqual({ lat: 38.74, lng: -9.2, zoom: 6 });
    cleanup();

    mapSized = false;
    fakeApi({ 'Monitoring/GetSiteMap': ANSWER });
    await renderPage(mapPage(), '/dashboards/dashboardRollout');
    expect(await drawnCount()).toBe(4);
    expect(view()).toEqual({ lat: 38.74, lng: -9.2, zoom: 6 });
  });

  test("below the zoom-to level close sites are one group's marker, in the worst status's colour, named for a screen reader; a click zooms in to the sites themselves", async () => {
    // 30 sites within 2 km of each other in Lisbon (one NOK) and one in Porto: fitted at zoom 7, Lisbon is one group.
    const lisbon = Array.from({ length: 30 }, (_, i) =>
      site(`LX1${String(i).padStart(3, '0')}`, ['4G'], { lat: 38.7 + (i % 6) * 0.003, lon: -9.14 + Math.floor(i / 6) * 0.003, status: i === 7 ? 'NOK' : 'OK' }),
    );
    const porto = site('PO0001', ['4G'], { lat: 41.15, lon: -8.61 });
    fakeApi({ 'Monitoring/GetSiteMap': { ...ANSWER, sites: [...lisbon, porto] } });
    await renderPage(mapPage(), '/dashboards/dashboardRollout');
    expect(await drawnCount()).toBe(31);
    expect(theMap().getZoom()).toBeLessThan(9);
    const groups = () => Array.from(document.querySelectorAll<HTMLElement>('.cellwise-site-cluster'));
    await waitFor(() => expect(groups()).toHaveLength(1));
    const group = groups()[0]!;
    expect(group.textContent).toBe('30');
    expect(group.getAttribute('role')).toBe('button');
    expect(group.tabIndex).toBe(0);
    expect(group.getAttribute('aria-label')).toBe('30 sites: 1 NOK, 29 OK. Zoom in to see them.');
    expect((group.firstElementChild as HTMLElement).dataset.status).toBe('NOK');
    const errorRed = document.createElement('span').style;
    errorRed.color = cellwiseTheme.token!.colorError!;
    expect((group.firstElementChild as HTMLElement).style.borderColor).toBe(errorRed.color);
    // Porto is alone: its own circle, no group.
    const circles = () => {
      const found: L.CircleMarker[] = [];
      theMap().eachLayer((layer) => {
        if (layer instanceof L.CircleMarker) found.push(layer);
      });
      return found;
    };
    expect(circles().map((m) => m.getLatLng().lat)).toEqual([41.15]);

    // What leaflet does for a click on the group's marker: the marker fires, and its group hears it.
    let cluster: L.MarkerCluster | undefined;
    theMap().eachLayer((layer) => {
      if ('getChildCount' in layer) cluster = layer as L.MarkerCluster;
    });
    expect(cluster!.getChildCount()).toBe(30);
    act(() => {
      cluster!.fire('click', { latlng: cluster!.getLatLng() }, true);
    });
    await waitFor(() => expect(theMap().getZoom()).toBeGreaterThanOrEqual(9));
    expect(groups()).toHaveLength(0);
    expect(circles()).toHaveLength(30);
  });

  test('a refusal is shown with Retry, which asks again', async () => {
    let calls = 0;
    fakeApi({
      'Monitoring/GetSiteMap': () => {
        calls += 1;
        if (calls === 1) return Promise.reject(refusal(403, 'Not allowed.'));
        return { ...ANSWER, sites: [] };
      },
    });
    await renderPage(mapPage(), '/dashboards/dashboardRollout');
    expect(await screen.findByText('The site map could not be loaded.')).toBeInTheDocument();
    expect(screen.getByText('Not allowed.')).toBeInTheDocument();
    act(() => fireEvent.click(screen.getByRole('button', { name: 'Retry' })));
    expect(await screen.findByText('No site of the network has coordinates yet: import a dump with them.')).toBeInTheDocument();
    expect(await drawnCount()).toBe(0);
    expect(view()).toEqual({ lat: 38.74, lng: -9.2, zoom: 6 });
  });
});
