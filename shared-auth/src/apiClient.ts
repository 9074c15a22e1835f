/**
 * The console's one HTTP client: an axios instance (the product's stack names axios), shared as a
 * federation singleton with shared-auth, so every area's calls pass the same interceptors: the bearer
 * token (to the console's own API only), the loading counter (specification §4) and the error mapping
 * (specification §8).
 */
import axios, { AxiosError, AxiosHeaders, type AxiosProgressEvent, type AxiosRequestConfig, type AxiosResponse, type InternalAxiosRequestConfig } from 'axios';
import { clearSession, sessionStore } from './session';
import { bodyMessage } from './handoff';
import { pageSignal } from './pageScope';

declare module 'axios' {
  interface AxiosRequestConfig {
    /** Background calls (notifications, mark-as-read) must not raise the full-screen loading overlay. */
    skipLoading?: boolean;
    /** Calls whose failure the caller handles itself (login forms) or ignores (user info, notifications). */
    skipErrorHandling?: boolean;
    /**
     * A read the user still wants after leaving its page (a download they asked for, the shell's own
     * notification list). Other reads are cancelled when their page is left (`pageScope`).
     */
    outlivesPage?: boolean;
    /** The call that replaces the session's token (see {@link replacingSession}): it alone is not held back. */
    replacesSession?: boolean;
  }
}

export type ApiResponse<T = unknown> = AxiosResponse<T>;
export type RequestConfig = AxiosRequestConfig;
export type UploadProgress = AxiosProgressEvent;
/** A call that did not answer 2xx: `response` holds the answer when there was one. */
export type ApiError<T = unknown> = AxiosError<T>;
export const ApiError = AxiosError;
export const isApiError = axios.isAxiosError;

export type Variant = 'error' | 'warning' | 'success' | 'info';
export type Notifier = (message: string, variant: Variant) => void;
export type Navigator = (path: string) => void;

let notify: Notifier = () => undefined;
let navigate: Navigator = (path) => {
  globalThis.location?.assign(path);
};

/** The shell plugs its toast and router in; remotes only ever call the client. */
export function connectApiClient(options: { notify?: Notifier; navigate?: Navigator }): void {
  if (options.notify) notify = options.notify;
  if (options.navigate) navigate = options.navigate;
}

export const API_BASE = '/api';

/**
 * A call that has not answered in this long fails as a network error, so the loading overlay never
 * stays up for a server that will not answer. Every list and run start answers well within it: long
 * work is a job the page follows with short calls.
 */
export const API_TIMEOUT_MS = 30_000;
/** Uploads and downloads carry up to 10,000,000 bytes (specification §9), on whatever link the user has. */
export const TRANSFER_TIMEOUT_MS = 10 * 60_000;

/** `key=value&…` as the API's query parser reads it: dates in ISO form, arrays as repeated keys, objects as JSON. */
export function queryOf(params: object | undefined): string {
  if (!params) return '';
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    for (const item of Array.isArray(value) ? value : [value]) {
      if (item === undefined || item === null) continue;
      query.append(key, item instanceof Date ? item.toISOString() : typeof item === 'object' ? JSON.stringify(item) : String(item));
    }
  }
  return query.toString();
}

export const api = axios.create({
  baseURL: API_BASE,
  // XMLHttpRequest reports upload progress; the browser builds carry no other adapter (tools/webpack/axios.js).
  adapter: 'xhr',
  timeout: API_TIMEOUT_MS,
  // A timeout is ETIMEDOUT, not the ECONNABORTED of a connection the browser dropped.
  transitional: { clarifyTimeoutError: true },
  // axios writes arrays as `ids[]=1`; the API reads repeated keys and JSON filters.
  paramsSerializer: { serialize: (params) => queryOf(params) },
});

/** What the client rejects with when the API answers `status` with `data` (tests build refusals with it). */
export function apiRefusal<T>(status: number, data: T, config: RequestConfig = {}, headers: Record<string, string> = {}): ApiError<T> {
  const internal = { ...config, headers: new AxiosHeaders(config.headers as Record<string, string> | undefined) } as InternalAxiosRequestConfig;
  const response: AxiosResponse<T> = { data, status, statusText: '', headers, config: internal };
  return new AxiosError<T>(
    `Request failed with status code ${status}`,
    status >= 500 ? AxiosError.ERR_BAD_RESPONSE : AxiosError.ERR_BAD_REQUEST,
    internal,
    undefined,
    response,
  );
}

/**
 * Whether a URL goes to the console's own API. Only a URL with a scheme (or `//`) leaves axios's
 * base; one that still names this page's origin and the API's path is the console's too.
 */
export function isApiUrl(url: string | undefined): boolean {
  if (!url || !/^([a-z][a-z\d+\-.]*:)?\/\//i.test(url)) return true;
  const origin = globalThis.location?.origin;
  if (!origin) return false;
  try {
    const target = new URL(url, origin);
    return target.origin === origin && (target.pathname === API_BASE || target.pathname.startsWith(`${API_BASE}/`));
  } catch {
    return false;
  }
}

function changeLoading(delta: number): void {
  sessionStore.setState((s) => ({ loadingCount: Math.max(0, s.loadingCount + delta) }));
}

/** Whether a call raised the overlay; a call the request hook refused never did. */
const COUNTED = Symbol('counted');
type Counted = InternalAxiosRequestConfig & { [COUNTED]?: boolean };

/** The token change in progress, if any: calls made meanwhile wait for the token it brings. */
let sessionReplacement: Promise<unknown> | null = null;

/**
 * Runs a change that makes the server refuse the current token and hands back its successor (a password
 * change), holding every other call until `change` has stored the new token. Without it a call sent in
 * between, such as the notification fetch the change's own hub message sets off, went with the refused
 * token and was answered 401 (issue 47). Calls `change` makes must say `replacesSession: true`.
 */
export function replacingSession<T>(change: () => Promise<T>): Promise<T> {
  const done = change();
  const replacement = done.then(
    () => undefined,
    () => undefined,
  );
  sessionReplacement = replacement;
  void replacement.then(() => {
    if (sessionReplacement === replacement) sessionReplacement = null;
  });
  return done;
}

api.interceptors.request.use(async (config: Counted) => {
  if (sessionReplacement && !config.replacesSession) await sessionReplacement;
  const { token } = sessionStore.getState();
  // The token is the user's whole session: it goes to the console's API and nowhere else.
  if (token && isApiUrl(config.url)) config.headers.set('Authorization', `Bearer ${token}`);
  // A read nobody will see once its page is gone is cancelled with it; writes always finish.
  if (!config.signal && !config.outlivesPage && (config.method ?? 'get').toLowerCase() === 'get') config.signal = pageSignal();
  if (!config.skipLoading) {
    config[COUNTED] = true;
    changeLoading(1);
  }
  return config;
});

/** The text a user sees for a failed call (specification §8). */
export function errorMessage(error: unknown): string {
  if (!(error instanceof AxiosError)) return error instanceof Error ? error.message : 'Something went wrong!';
  if (!error.response) return 'Network error!';
  return bodyMessage(error.response.data);
}

/** Where a status sends the user, if anywhere (specification §8). */
export function errorRoute(status: number | undefined): string | null {
  if (status === 401) return '/errors/error-401';
  if (status === 404) return '/errors/error-404';
  if (status !== undefined && status >= 500 && status <= 598) return '/errors/error-500';
  return null;
}

let sessionCheck: { token: string; accepted: Promise<boolean> } | null = null;

/** Whether the server still accepts this token; one question per token however many calls were refused. */
function sessionAccepted(token: string): Promise<boolean> {
  if (sessionCheck?.token !== token) {
    const accepted = api
      .post('account/GetUserInfo', undefined, { skipErrorHandling: true, skipLoading: true })
      .then(
        () => true,
        // Only the server's own 401 ends the session; a network failure is no proof of anything.
        (failure: unknown) => !(failure instanceof AxiosError && failure.response?.status === 401),
      )
      .finally(() => {
        if (sessionCheck?.token === token) sessionCheck = null;
      });
    sessionCheck = { token, accepted };
  }
  return sessionCheck.accepted;
}

/**
 * A 401 is either this call refused to a live session (the §8 error page) or the server saying the session
 * itself has ended: the user was deactivated or deleted, or the password changed elsewhere. The hub signs
 * such a console out, but a page call answered first would move the user to the error page, where the
 * sign-out no longer reaches them. So the session is asked about first: an ended one is cleared, and the
 * route guard then opens the login page; a call sent under a session that has since been cleared or
 * replaced leaves the way to whoever ended it.
 */
async function afterUnauthorized(sentAuthorization: string): Promise<void> {
  const { token } = sessionStore.getState();
  if (!token || sentAuthorization !== `Bearer ${token}`) return;
  const accepted = await sessionAccepted(token);
  if (sessionStore.getState().token !== token) return;
  if (accepted) navigate('/errors/error-401');
  else clearSession();
}

api.interceptors.response.use(
  (response) => {
    if ((response.config as Counted)[COUNTED]) changeLoading(-1);
    return response;
  },
  (error: unknown) => {
    const config = (error instanceof AxiosError ? error.config : undefined) as Counted | undefined;
    if (config?.[COUNTED]) changeLoading(-1);
    // A call cancelled because its page was left (or by its caller) is nobody's error.
    if (axios.isCancel(error) || config?.skipErrorHandling) return Promise.reject(error);
    const status = error instanceof AxiosError ? error.response?.status : undefined;
    const authorization = config?.headers.get('Authorization');
    if (status === 401 && typeof authorization === 'string') {
      void afterUnauthorized(authorization);
      return Promise.reject(error);
    }
    const route = errorRoute(status);
    if (route) navigate(route);
    else notify(errorMessage(error), status === 599 ? 'warning' : 'error');
    return Promise.reject(error);
  },
);
