/**
 * Leaflet's stylesheet, which positions the map's panes, tiles, controls and popups. The remotes ship
 * no CSS files (antd writes its styles at run time), so the stylesheet is emitted beside this remote's
 * chunks as a plain asset (webpack's `new URL(…, import.meta.url)`, relative to wherever the remote is
 * deployed), read once, and written into a <style> element: the console's CSP allows inline styles from
 * any remote's origin, while a <link> would be held to 'self'. Only the map's chunk ever asks for it.
 */
const STYLESHEET = new URL('leaflet/dist/leaflet.css', import.meta.url);

let loading: Promise<void> | null = null;

export function loadLeafletCss(): Promise<void> {
  loading ??= fetch(STYLESHEET)
    .then((response) => {
      if (!response.ok) throw new Error(`leaflet.css: ${response.status}`);
      return response.text();
    })
    .then((css) => {
      const style = document.createElement('style');
      style.dataset.stylesheet = 'leaflet';
      style.textContent = css;
      document.head.appendChild(style);
    })
    .catch((error: unknown) => {
      // Drawn without it the map still shows its sites, if oddly placed; the next map asks again.
      loading = null;
      console.warn('The map stylesheet could not be loaded.', error);
    });
  return loading;
}
