type Listener = (event: { loaded: number; total: number; lengthComputable: boolean }) => void;

/**
 * An XMLHttpRequest the test answers, as far as axios's XHR adapter uses one: it records the request
 * and replies, fails, times out or reports upload progress when told. It times out by itself after
 * `timeout` ms (on jest's timers), as a browser does.
 */
export class FakeXhr {
  static last: FakeXhr;
  /** Every request since the test began, oldest first. */
  static all: FakeXhr[] = [];
  method = '';
  url = '';
  headers: Record<string, string> = {};
  body: unknown;
  responseType = '';
  timeout = 0;
  withCredentials = false;
  readyState = 0;
  status = 0;
  statusText = '';
  responseText = '';
  response: unknown;
  aborted = false;
  private responseHeaders = '';
  private timer: ReturnType<typeof setTimeout> | undefined;
  private readonly uploadListeners: Record<string, Listener[]> = {};
  readonly upload = {
    addEventListener: (type: string, listener: Listener) => {
      (this.uploadListeners[type] ??= []).push(listener);
    },
    removeEventListener: () => undefined,
  };
  onloadend: (() => void) | null = null;
  onerror: ((event?: unknown) => void) | null = null;
  onabort: (() => void) | null = null;
  ontimeout: (() => void) | null = null;

  constructor() {
    FakeXhr.last = this;
    FakeXhr.all.push(this);
  }

  open(method: string, url: string): void {
    this.method = method;
    this.url = url;
    this.readyState = 1;
  }

  setRequestHeader(name: string, value: string): void {
    this.headers[name] = value;
  }

  addEventListener(): void {}

  removeEventListener(): void {}

  send(body: unknown): void {
    this.body = body;
    if (this.timeout > 0) this.timer = setTimeout(() => this.finish(() => this.ontimeout?.()), this.timeout);
  }

  abort(): void {
    this.aborted = true;
    this.finish(() => this.onabort?.());
  }

  getAllResponseHeaders(): string {
    return this.responseHeaders;
  }

  /** Header names as sent, case-insensitively. */
  header(name: string): string | undefined {
    const key = Object.keys(this.headers).find((k) => k.toLowerCase() === name.toLowerCase());
    return key === undefined ? undefined : this.headers[key];
  }

  progress(loaded: number, total: number): void {
    for (const listener of this.uploadListeners.progress ?? []) listener({ loaded, total, lengthComputable: total > 0 });
  }

  reply(status: number, body: string | Blob, headers = 'Content-Type: application/json\r\n'): void {
    for (const listener of this.uploadListeners.loadend ?? []) listener({ loaded: 0, total: 0, lengthComputable: false });
    this.finish(() => {
      this.status = status;
      if (typeof body === 'string') this.responseText = body;
      this.response = body;
      this.responseHeaders = headers;
      this.readyState = 4;
      this.onloadend?.();
    });
  }

  /** The network failed: no answer at all. */
  fail(): void {
    this.finish(() => this.onerror?.({}));
  }

  private finish(end: () => void): void {
    clearTimeout(this.timer);
    end();
  }
}

/** Puts FakeXhr in place of XMLHttpRequest around each test of the calling file. */
export function installFakeXhr(): void {
  const realXhr = globalThis.XMLHttpRequest;
  beforeEach(() => {
    FakeXhr.all = [];
    (globalThis as { XMLHttpRequest: unknown }).XMLHttpRequest = FakeXhr;
  });
  afterEach(() => {
    (globalThis as { XMLHttpRequest: unknown }).XMLHttpRequest = realXhr;
  });
}
