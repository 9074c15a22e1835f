/**
 * The console's HTTP client: what the pages asked of axios (JSON in and out, query parameters, blobs,
 * upload progress, request and response hooks), on XMLHttpRequest. axios cost ≈ 14 KB gzipped on every
 * signed-in page for adapters, transforms and options the console never used; XMLHttpRequest rather
 * than fetch because uploads report progress.
 */

export interface UploadProgress {
  loaded: number;
  total?: number;
  /** loaded / total, when the total is known. */
  progress?: number;
}

export interface RequestConfig {
  /** Query parameters; null and undefined ones are left out. */
  params?: object;
  headers?: Record<string, string>;
  /** `blob` for files; otherwise a JSON body is parsed and any other is handed over as text. */
  responseType?: 'json' | 'blob' | 'text';
  onUploadProgress?: (event: UploadProgress) => void;
  /** Background calls (notifications, mark-as-read) must not raise the full-screen loading overlay. */
  skipLoading?: boolean;
  /** Calls whose failure the caller handles itself (login forms) or ignores (user info, notifications). */
  skipErrorHandling?: boolean;
}

export interface ApiRequest extends RequestConfig {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  url: string;
  data?: unknown;
  headers: Record<string, string>;
}

export interface ApiResponse<T = unknown> {
  data: T;
  status: number;
  /** Response headers, names in lower case. */
  headers: Record<string, string>;
  config: ApiRequest;
}

/**
 * A call that did not answer 2xx: `response` holds the answer when there was one (none for a network
 * failure or an aborted call).
 */
export class ApiError<T = unknown> extends Error {
  constructor(
    message: string,
    readonly config: ApiRequest,
    readonly response?: ApiResponse<T>,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

/** What the client rejects with when the API answers `status` with `data`. */
export function apiRefusal<T>(
  status: number,
  data: T,
  config: ApiRequest = { method: 'GET', url: '', headers: {} },
  headers: Record<string, string> = {},
): ApiError<T> {
  return new ApiError(`Request failed with status code ${status}`, config, { data, status, headers, config });
}

export function isApiError(error: unknown): error is ApiError {
  return error instanceof ApiError;
}

type RequestHook = (request: ApiRequest) => ApiRequest;
type ResponseHook = (response: ApiResponse) => ApiResponse;
type FailureHook = (error: unknown) => ApiResponse | Promise<ApiResponse>;

/** `key=value&…` as the API's query parser reads it: dates in ISO form, arrays as repeated keys. */
export function queryOf(params: object | undefined): string {
  if (!params) return '';
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    for (const item of Array.isArray(value) ? value : [value]) {
      if (item === undefined || item === null) continue;
      query.append(key, item instanceof Date ? item.toISOString() : typeof item === 'object' ? JSON.stringify(item) : String(item));
    }
  }
  const text = query.toString();
  return text ? `?${text}` : '';
}

function headersOf(xhr: XMLHttpRequest): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const line of xhr
    .getAllResponseHeaders()
    .trim()
    .split(/[\r\n]+/)) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  return headers;
}

/** A text answer is JSON when it reads as JSON (error bodies of proxies may be plain text). */
function dataOf(xhr: XMLHttpRequest, request: ApiRequest): unknown {
  if (request.responseType === 'blob') return xhr.response as Blob;
  const text = xhr.responseText;
  if (request.responseType === 'text' || text === '') return text;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

function bodyOf(request: ApiRequest): XMLHttpRequestBodyInit | null {
  const { data } = request;
  if (data === undefined) return null;
  if (data instanceof FormData || data instanceof Blob || data instanceof URLSearchParams || typeof data === 'string') return data;
  if (!Object.keys(request.headers).some((name) => name.toLowerCase() === 'content-type')) request.headers['Content-Type'] = 'application/json';
  return JSON.stringify(data);
}

function send(request: ApiRequest, baseURL: string): Promise<ApiResponse> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    // As axios did: only a URL with a scheme (or `//`) leaves the base; `/x` and `x` are both under it.
    const url = /^([a-z][a-z\d+\-.]*:)?\/\//i.test(request.url) ? request.url : `${baseURL.replace(/\/+$/, '')}/${request.url.replace(/^\/+/, '')}`;
    xhr.open(request.method, url + queryOf(request.params));
    if (request.responseType === 'blob') xhr.responseType = 'blob';
    const body = bodyOf(request);
    xhr.setRequestHeader('Accept', 'application/json, text/plain, */*');
    for (const [name, value] of Object.entries(request.headers)) xhr.setRequestHeader(name, value);
    const onUploadProgress = request.onUploadProgress;
    if (onUploadProgress && xhr.upload) {
      xhr.upload.onprogress = (event) => {
        const total = event.lengthComputable ? event.total : undefined;
        onUploadProgress({ loaded: event.loaded, total, progress: total ? event.loaded / total : undefined });
      };
    }
    xhr.onload = () => {
      const data = dataOf(xhr, request);
      if (xhr.status >= 200 && xhr.status < 300) resolve({ data, status: xhr.status, headers: headersOf(xhr), config: request });
      else reject(apiRefusal(xhr.status, data, request, headersOf(xhr)));
    };
    xhr.onerror = () => reject(new ApiError('Network Error', request));
    xhr.onabort = () => reject(new ApiError('Request aborted', request));
    xhr.send(body);
  });
}

/** The calls the pages make; hooks run in the order they were added, as the shell's session needs. */
export class HttpClient {
  private readonly requestHooks: RequestHook[] = [];
  private readonly responseHooks: Array<[ResponseHook, FailureHook]> = [];

  constructor(private readonly baseURL: string) {}

  readonly interceptors = {
    request: { use: (hook: RequestHook) => void this.requestHooks.push(hook) },
    response: { use: (onAnswer: ResponseHook, onFailure: FailureHook) => void this.responseHooks.push([onAnswer, onFailure]) },
  };

  async request<T>(request: ApiRequest): Promise<ApiResponse<T>> {
    const ready = this.requestHooks.reduce((r, hook) => hook(r), request);
    let answer: Promise<ApiResponse> = send(ready, this.baseURL);
    for (const [onAnswer, onFailure] of this.responseHooks) answer = answer.then(onAnswer, onFailure);
    return answer as Promise<ApiResponse<T>>;
  }

  get<T = unknown>(url: string, config: RequestConfig = {}): Promise<ApiResponse<T>> {
    return this.request<T>({ ...config, method: 'GET', url, headers: { ...config.headers } });
  }

  /** The API reads some deletes' subject from a JSON body (`config.data`). */
  delete<T = unknown>(url: string, config: RequestConfig & { data?: unknown } = {}): Promise<ApiResponse<T>> {
    return this.request<T>({ ...config, method: 'DELETE', url, headers: { ...config.headers } });
  }

  post<T = unknown>(url: string, data?: unknown, config: RequestConfig = {}): Promise<ApiResponse<T>> {
    return this.request<T>({ ...config, method: 'POST', url, data, headers: { ...config.headers } });
  }

  put<T = unknown>(url: string, data?: unknown, config: RequestConfig = {}): Promise<ApiResponse<T>> {
    return this.request<T>({ ...config, method: 'PUT', url, data, headers: { ...config.headers } });
  }

  patch<T = unknown>(url: string, data?: unknown, config: RequestConfig = {}): Promise<ApiResponse<T>> {
    return this.request<T>({ ...config, method: 'PATCH', url, data, headers: { ...config.headers } });
  }
}
