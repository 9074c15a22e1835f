import { ApiError, HttpClient, type ApiRequest } from './http';
import { sessionStore } from './session';
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
    const route = errorRoute(status);
    if (route) navigate(route);
    else notify(errorMessage(error), status === 599 ? 'warning' : 'error');
    return Promise.reject(error);
  },
);
