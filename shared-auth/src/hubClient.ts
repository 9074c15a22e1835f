/**
 * The browser's side of the notification hub: the SignalR JSON hub protocol over the WebSockets
 * transport, as far as the console needs it (server-to-client invocations, pings, close). The API's
 * hub speaks nothing else (api/src/hub), so the official client (≈ 14 KB gzipped on every signed-in
 * page, with transports, streaming and reconnect policies the console never uses) is not shipped.
 * https://github.com/dotnet/aspnetcore/blob/main/src/SignalR/docs/specs/HubProtocol.md
 */

const RECORD_SEPARATOR = '\x1e';
const INVOCATION = 1;
const PING = 6;
const CLOSE = 7;

/** The client pings this often, so the server (which drops clients silent for 30 s) keeps it. */
export const HUB_KEEP_ALIVE_MS = 15_000;
/** The server pings every 15 s: this long without a word means the connection is dead. */
export const HUB_SERVER_TIMEOUT_MS = 30_000;

export interface HubClientOptions {
  /** The hub's URL (`/api/notificationhub`), relative to the page or absolute. */
  url: string;
  accessToken: () => string;
  /** Server-to-client methods by name. */
  handlers: Record<string, (...args: unknown[]) => void>;
  /** The connection ended after it had started (not called for {@link HubClient.stop}). */
  onClose: (error?: Error) => void;
}

export interface HubClient {
  stop: () => void;
}

export class HubError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'HubError';
  }
}

function socketUrl(url: string, connectionToken: string, accessToken: string): string {
  const target = new URL(url, globalThis.location?.href);
  target.protocol = target.protocol === 'https:' ? 'wss:' : 'ws:';
  target.searchParams.set('id', connectionToken);
  // Browsers cannot set headers on a WebSocket: the hub reads the token from the query (specification §7).
  target.searchParams.set('access_token', accessToken);
  return target.toString();
}

async function negotiate(url: string, accessToken: string): Promise<string> {
  const response = await fetch(`${url}/negotiate?negotiateVersion=1`, {
    method: 'POST',
    headers: accessToken ? { Authorization: `Bearer ${accessToken}` } : {},
  });
  if (!response.ok) throw new HubError(`The hub refused to negotiate (${response.status}).`);
  const answer = (await response.json()) as { connectionToken?: unknown };
  if (typeof answer.connectionToken !== 'string') throw new HubError('The hub answered negotiate without a connection token.');
  return answer.connectionToken;
}

/**
 * Negotiates, opens the WebSocket and completes the handshake; resolves once the server has accepted
 * it. A failure before that rejects (and `onClose` is not called).
 */
export async function startHubClient(options: HubClientOptions): Promise<HubClient> {
  const token = options.accessToken();
  const connectionToken = await negotiate(options.url, token);
  const ws = new WebSocket(socketUrl(options.url, connectionToken, token));
  let pending = '';
  let started = false;
  let ended = false;
  let lastHeard = Date.now();
  let resolveStart: (client: HubClient) => void = () => undefined;
  let rejectStart: (error: Error) => void = () => undefined;
  const startup = new Promise<HubClient>((resolve, reject) => {
    resolveStart = resolve;
    rejectStart = reject;
  });

  const send = (message: object) => {
    if (ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify(message) + RECORD_SEPARATOR);
  };
  const timer = setInterval(() => {
    if (Date.now() - lastHeard > HUB_SERVER_TIMEOUT_MS) end(new HubError('The hub went silent.'));
    else send({ type: PING });
  }, HUB_KEEP_ALIVE_MS);

  /** Ends the connection once: before the handshake the start fails, after it `onClose` is told. */
  function end(error?: Error, byCaller = false): void {
    if (ended) return;
    ended = true;
    clearInterval(timer);
    if (ws.readyState === WebSocket.OPEN || ws.readyState === WebSocket.CONNECTING) ws.close(1000);
    if (!started) rejectStart(error ?? new HubError('The hub closed the connection during the handshake.'));
    else if (!byCaller) options.onClose(error);
  }

  const client: HubClient = { stop: () => end(undefined, true) };

  function receive(message: { type?: unknown; target?: unknown; arguments?: unknown; error?: unknown }): void {
    if (!started) {
      // The handshake answer: `{}` accepts, `{ error }` refuses.
      if (typeof message.error === 'string') return end(new HubError(message.error));
      started = true;
      resolveStart(client);
      return;
    }
    if (message.type === INVOCATION && typeof message.target === 'string') {
      const handler = options.handlers[message.target];
      try {
        handler?.(...(Array.isArray(message.arguments) ? (message.arguments as unknown[]) : []));
      } catch (error) {
        // A handler's fault is the page's, not the connection's: reported, and the connection lives on.
        setTimeout(() => {
          throw error;
        });
      }
    } else if (message.type === CLOSE) {
      end(typeof message.error === 'string' ? new HubError(message.error) : undefined);
    }
    // Pings only prove the server is alive (noted on arrival); the server sends nothing else unasked.
  }

  ws.onopen = () => ws.send(JSON.stringify({ protocol: 'json', version: 1 }) + RECORD_SEPARATOR);
  ws.onmessage = (event: MessageEvent) => {
    lastHeard = Date.now();
    if (typeof event.data !== 'string') return end(new HubError('The hub sent a binary frame to a JSON connection.'));
    const records = (pending + event.data).split(RECORD_SEPARATOR);
    pending = records.pop() ?? '';
    for (const record of records) {
      if (ended) return;
      let message: unknown;
      try {
        message = JSON.parse(record);
      } catch {
        return end(new HubError('The hub sent a record that is not JSON.'));
      }
      if (typeof message !== 'object' || message === null) return end(new HubError('The hub sent a record that is not an object.'));
      receive(message);
    }
  };
  ws.onclose = (event: CloseEvent) => end(event.code === 1000 ? undefined : new HubError(`The hub connection closed (${event.code}).`));
  ws.onerror = () => end(new HubError('The hub connection failed.'));
  return startup;
}
