/** An XMLHttpRequest the test answers: it records the request and replies when told. */
export class FakeXhr {
  static last: FakeXhr;
  /** Every request since the test began, oldest first. */
  static all: FakeXhr[] = [];
  method = '';
  url = '';
  headers: Record<string, string> = {};
  body: unknown;
  responseType = '';
  status = 0;
  responseText = '';
  response: unknown;
  private responseHeaders = '';
  upload: { onprogress: ((event: { loaded: number; total: number; lengthComputable: boolean }) => void) | null } = { onprogress: null };
  onload: (() => void) | null = null;
  onerror: (() => void) | null = null;
  onabort: (() => void) | null = null;

  constructor() {
    FakeXhr.last = this;
    FakeXhr.all.push(this);
  }

  open(method: string, url: string): void {
    this.method = method;
    this.url = url;
  }

  setRequestHeader(name: string, value: string): void {
    this.headers[name] = value;
  }

  send(body: unknown): void {
    this.body = body;
  }

  getAllResponseHeaders(): string {
    return this.responseHeaders;
  }

  reply(status: number, body: string | Blob, headers = 'Content-Type: application/json\r\n'): void {
    this.status = status;
    if (typeof body === 'string') this.responseText = body;
    this.response = body;
    this.responseHeaders = headers;
    this.onload?.();
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
