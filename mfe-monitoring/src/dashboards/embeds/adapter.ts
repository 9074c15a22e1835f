/**
 * One small adapter per BI product behind one interface, so the dashboard page never speaks a BI
 * library itself. Each adapter loads its library with a dynamic `import()` when it is created: the
 * libraries (powerbi-client, tableau-api-js) are downloaded only when a dashboard of that type shows.
 */

/** What the page can do with a dashboard once it is embedded. */
export interface EmbedAdapter {
  /** Tableau only (specification: PowerBI-type dashboards offer fullscreen only). */
  exportPdf?(): void;
  fullscreen(): void;
  /** Removes the frame, its listeners and timers. */
  dispose(): void;
}

/** A short-lived embed token minted by the API for one `Dashboard/Inspect` call. */
export interface EmbedToken {
  accessToken: string;
  /** ISO-8601 UTC; null when the server does not say. */
  expiresAt: string | null;
}

export interface EmbedRequest {
  /** The element the dashboard's frame goes into; it keeps its size while the frame loads. */
  container: HTMLElement;
  /** The dashboard record's URL (Power BI: the report's embed URL; Tableau: the view's URL). */
  url: string;
  /** The dashboard's name, given to the frame as its accessible title. */
  title: string;
  token: EmbedToken;
  /** The dashboard has loaded and can be used. */
  onLoaded: () => void;
  /** The dashboard reported a failure; the text is for the user. */
  onError: (message: string) => void;
  /** A new token for the same dashboard (a new `Dashboard/Inspect` call), for refreshing in place. */
  refreshToken: () => Promise<EmbedToken>;
}

export type CreateEmbed = (request: EmbedRequest) => Promise<EmbedAdapter>;
