import { ApiError, HttpClient, type ApiRequest } from './http';
import { clearSession, sessionStore } from './session';
import { bodyMessage } from './handoff';

export { ApiError, apiRefusal, isApiError, type ApiResponse, type RequestConfig, type UploadProgress } from './http';

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

export const api = new HttpClient(API_BASE);

function changeLoading(delta: number): void {
  sessionStore.setState((s) => ({ loadingCount: Math.max(0, s.loadingCount + delta) }));
}

api.interceptors.request.use((request: ApiRequest) => {
  const { token } = sessionStore.getState();
  if (token) request.headers.Authorization = `Bearer ${token}`;
  if (!request.skipLoading) changeLoading(1);
  return request;
});

/** The text a user sees for a failed call (specification §8). */
export function errorMessage(error: unknown): string {
  if (!(error instanceof ApiError)) return error instanceof Error ? error.message : 'Something went wrong!';
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
        (failure: unknown) => !(failure instanceof ApiError && failure.response?.status === 401),
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
    if (!response.config.skipLoading) changeLoading(-1);
    return response;
  },
  (error: unknown) => {
    const config = error instanceof ApiError ? error.config : undefined;
    if (!config?.skipLoading) changeLoading(-1);
    if (config?.skipErrorHandling) return Promise.reject(error);
    const status = error instanceof ApiError ? error.response?.status : undefined;
    if (status === 401 && config?.headers.Authorization) {
      void afterUnauthorized(config.headers.Authorization);
      return Promise.reject(error);
    }
    const route = errorRoute(status);
    if (route) navigate(route);
    else notify(errorMessage(error), status === 599 ? 'warning' : 'error');
    return Promise.reject(error);
  },
);
