import type * as PowerBiClient from 'powerbi-client';
import type { models, Report, service as pbiService } from 'powerbi-client';
import type { CreateEmbed, EmbedAdapter, EmbedRequest, EmbedToken } from './adapter';

/** Refresh this long before the embed token expires (an hour-long token is renewed at 57 min). */
export const TOKEN_REFRESH_LEAD_MS = 3 * 60_000;
/** Never sooner than this, so a token that arrives already expired (a skewed clock) cannot spin. */
export const MIN_REFRESH_DELAY_MS = 5_000;
/** After a failed renewal, try again this much later while the current token still works. */
export const RETRY_REFRESH_DELAY_MS = 30_000;

/**
 * How long to wait before renewing a token that expires at `expiresAt`: the lead before expiry, or
 * half its remaining life when that is shorter than twice the lead; null when the expiry is unknown.
 */
export function refreshDelay(expiresAt: string | null, now = Date.now()): number | null {
  if (expiresAt === null) return null;
  const expires = Date.parse(expiresAt);
  if (Number.isNaN(expires)) return null;
  const left = expires - now;
  return Math.max(MIN_REFRESH_DELAY_MS, left - TOKEN_REFRESH_LEAD_MS, left / 2);
}

/** The report id of a Power BI embed URL (`…/reportEmbed?reportId=…&groupId=…`). */
export function reportIdOf(embedUrl: string): string | undefined {
  try {
    return new URL(embedUrl).searchParams.get('reportId') ?? undefined;
  } catch {
    return undefined;
  }
}

function errorText(detail: models.IError | undefined): string {
  const parts = [detail?.message, detail?.detailedMessage].filter((p): p is string => typeof p === 'string' && p.trim() !== '');
  return parts.length > 0 ? `Power BI reported an error: ${parts.join(' – ')}` : 'Power BI reported an error.';
}

type PowerBiModule = typeof PowerBiClient;

// One service for the page's lifetime: each service listens to the window's messages for good.
let shared: { module: PowerBiModule; service: pbiService.Service } | null = null;

async function powerBi(): Promise<{ module: PowerBiModule; service: pbiService.Service }> {
  if (!shared) {
    const module = await import('powerbi-client');
    shared = { module, service: new module.service.Service(module.factories.hpmFactory, module.factories.wpmpFactory, module.factories.routerFactory) };
  }
  return shared;
}

/**
 * Embeds a Power BI report with its embed token. The report's `loaded` and `error` events reach the
 * page; the token is renewed in place (`setAccessToken`, never a reload) a few minutes before it
 * expires, and at once when the tab comes back into view after the renewal fell due while hidden
 * (background tabs throttle timers).
 */
export const createPowerBiEmbed: CreateEmbed = async (request: EmbedRequest): Promise<EmbedAdapter> => {
  const { module, service } = await powerBi();
  const { container } = request;
  const report = service.embed(container, {
    type: 'report',
    tokenType: module.models.TokenType.Embed,
    accessToken: request.token.accessToken,
    embedUrl: request.url,
    id: reportIdOf(request.url),
  }) as Report;
  const frame = container.querySelector('iframe');
  if (frame) {
    frame.title = request.title;
    // The library sizes its frame to 100 % and leaves the browser's inset border, which then overflows.
    frame.style.border = '0';
    frame.style.display = 'block';
  }

  let disposed = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let refreshAt: number | null = null;
  let expiresAt: number | null = null;
  let renewing = false;

  report.on('loaded', () => {
    if (!disposed) request.onLoaded();
  });
  report.on<models.IError>('error', (event) => {
    const detail = event.detail;
    // Warnings and information are Power BI's own business; errors and worse are the user's.
    if (disposed || (typeof detail?.level === 'number' && detail.level < module.models.TraceType.Error)) return;
    request.onError(errorText(detail));
  });

  const schedule = (delay: number) => {
    clearTimeout(timer);
    refreshAt = Date.now() + delay;
    timer = setTimeout(() => void renew(), delay);
  };

  const follow = (token: EmbedToken) => {
    const parsed = token.expiresAt === null ? NaN : Date.parse(token.expiresAt);
    expiresAt = Number.isNaN(parsed) ? null : parsed;
    const delay = refreshDelay(token.expiresAt);
    if (delay === null) {
      clearTimeout(timer);
      refreshAt = null;
    } else schedule(delay);
  };

  async function renew(): Promise<void> {
    if (disposed || renewing) return;
    renewing = true;
    try {
      const token = await request.refreshToken();
      if (disposed) return;
      await report.setAccessToken(token.accessToken);
      follow(token);
    } catch (error) {
      if (disposed) return;
      const left = expiresAt === null ? Infinity : expiresAt - Date.now();
      if (left > 0) schedule(Math.min(RETRY_REFRESH_DELAY_MS, Math.max(MIN_REFRESH_DELAY_MS, left / 2)));
      else request.onError(`The dashboard's access could not be renewed: ${error instanceof Error ? error.message : 'Something went wrong!'}`);
    } finally {
      renewing = false;
    }
  }

  const onVisibility = () => {
    if (document.visibilityState === 'visible' && refreshAt !== null && Date.now() >= refreshAt) void renew();
  };
  document.addEventListener('visibilitychange', onVisibility);
  follow(request.token);

  return {
    fullscreen: () => report.fullscreen(),
    dispose: () => {
      disposed = true;
      clearTimeout(timer);
      document.removeEventListener('visibilitychange', onVisibility);
      service.reset(container);
    },
  };
};
