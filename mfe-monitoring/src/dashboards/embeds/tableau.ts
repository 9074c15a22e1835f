import type { CreateEmbed, EmbedAdapter, EmbedRequest } from './adapter';

/** The part of the Tableau JavaScript API v2 (`tableau-api-js`) this adapter uses. */
export interface TableauVizOptions {
  hideTabs: boolean;
  width: string;
  height: string;
  onFirstInteractive: () => void;
}

export interface TableauViz {
  showExportPDFDialog(): void;
  dispose(): void;
}

export interface TableauApi {
  Viz: new (container: HTMLElement, url: string, options: TableauVizOptions) => TableauViz;
}

declare global {
  interface Window {
    /** Set by tableau-api-js when it is evaluated: the package exports nothing. */
    tableau?: TableauApi;
  }
}

/**
 * The view's URL carrying the token the way the JavaScript API v2 documents it for trusted
 * authentication: `https://server/trusted/<ticket>/views/<workbook>/<view>` (with a site:
 * `…/trusted/<ticket>/t/<site>/views/…`). The v2 Viz takes no token option; connected-app JWTs
 * are documented for the Embedding API v3 only. A URL copied from the browser's address bar
 * (`#/site/<site>/views/…`) is turned into the path form the Viz loads.
 */
/**
 * A ticket as one path segment: Tableau's tickets (`<base64>==:<random>`) appear unencoded in its
 * documented URLs, and `=`, `:` and `+` are legal in a path segment, so only what is not (a `/` above
 * all) is percent-encoded; gateways in front of Tableau often refuse `%3A` and `%3D` they never expect.
 */
function ticketSegment(ticket: string): string {
  return encodeURIComponent(ticket).replace(/%3D/gi, '=').replace(/%3A/gi, ':').replace(/%2B/gi, '+');
}

export function trustedViewUrl(viewUrl: string, ticket: string): string {
  const url = new URL(viewUrl);
  const fromHash = /^#\/(?:site\/([^/]+)\/)?(views\/.+)$/.exec(url.hash);
  const viewPath = fromHash ? `${fromHash[1] ? `/t/${fromHash[1]}` : ''}/${fromHash[2]}` : url.pathname;
  if (fromHash) url.hash = '';
  url.pathname = `/trusted/${ticketSegment(ticket)}${viewPath}`;
  return url.toString();
}

async function tableauApi(): Promise<TableauApi> {
  await import('tableau-api-js');
  if (!window.tableau) throw new Error('The Tableau JavaScript API did not load.');
  return window.tableau;
}

/**
 * Embeds a Tableau view. `onFirstInteractive` is the only "ready" signal the v2 API gives (it has no
 * error event: a view that never becomes interactive is caught by the page's load timeout). Export
 * PDF opens Tableau's own dialog inside the frame; fullscreen is the browser's, on the container.
 */
export const createTableauEmbed: CreateEmbed = async (request: EmbedRequest): Promise<EmbedAdapter> => {
  const tableau = await tableauApi();
  const { container } = request;
  let disposed = false;
  const viz = new tableau.Viz(container, trustedViewUrl(request.url, request.token.accessToken), {
    hideTabs: true,
    width: '100%',
    height: '100%',
    onFirstInteractive: () => {
      if (!disposed) request.onLoaded();
    },
  });
  container.querySelector('iframe')?.setAttribute('title', request.title);
  return {
    exportPdf: () => viz.showExportPDFDialog(),
    fullscreen: () => {
      // The browser refuses only without a user gesture or where fullscreen is not allowed; the view stays as it was.
      container.requestFullscreen().catch(() => undefined);
    },
    dispose: () => {
      disposed = true;
      viz.dispose();
    },
  };
};
