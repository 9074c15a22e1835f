import type { IncomingMessage } from 'node:http';
import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import type { FastifyBaseLogger } from 'fastify';
import { WebSocketServer, type RawData, type WebSocket } from 'ws';
import { settledWithin } from '../lib/settled-within';
import type { ConnectionTokens, NegotiatedConnection } from './connection-tokens';
import {
  closeFrame,
  completionErrorFrame,
  frame,
  handshakeAnswer,
  invocationFrame,
  MessageType,
  parseMessage,
  PING_FRAME,
  ProtocolError,
  RecordReader,
  type HubMessage,
} from './protocol';

/** Who a token belongs to, and until when it may be used. */
export interface HubIdentity {
  userId: number;
  /** Epoch milliseconds. */
  expiresAt: number;
}

/** Checks a session token exactly as the HTTP API does; null for a token the API would refuse. */
export type VerifyToken = (token: string) => Promise<HubIdentity | null>;

export interface HubTimings {
  /** How often the server pings (the official client gives up after 30 s of silence). */
  pingIntervalMs: number;
  /** A client that sends nothing for this long (it pings every 15 s) is gone. */
  clientTimeoutMs: number;
  /** Time allowed between the WebSocket opening and the handshake request. */
  handshakeTimeoutMs: number;
  /** How long a negotiated connection token may wait for its WebSocket. */
  connectionTokenTtlMs: number;
  /** How often live connections' tokens are checked again (deactivation, password change). */
  revalidateIntervalMs: number;
  /** A client this far behind on reading is dropped rather than buffered for without bound. */
  maxBufferedBytes: number;
}

export const DEFAULT_HUB_TIMINGS: HubTimings = {
  pingIntervalMs: 15_000,
  clientTimeoutMs: 30_000,
  handshakeTimeoutMs: 15_000,
  connectionTokenTtlMs: 30_000,
  revalidateIntervalMs: 60_000,
  maxBufferedBytes: 1024 * 1024,
};

export interface HubListener {
  /** A connection finished its handshake: it now receives messages. */
  connected?(userId: number, connectionId: string): void;
  /** A connection that had finished its handshake closed. */
  disconnected?(userId: number, connectionId: string): void;
}

export const HUB_PATH = '/api/notificationhub';

export const HUB_MESSAGES = {
  unauthenticated: 'Please sign in to continue.',
  expired: 'Your session has expired or is no longer valid. Please sign in again.',
  unknownConnection: 'No connection with that ID.',
  missingConnection: 'Connection ID required.',
  shuttingDown: 'Server is shutting down.',
  clientTimeout: 'Connection closed: the client sent nothing for too long.',
  lagging: 'Connection closed: the client is not reading its messages.',
  sessionEnded: 'Your session has ended. Please sign in again.',
} as const;

class HubConnection {
  handshaken = false;
  lastReceivedAt: number;
  readonly reader = new RecordReader();
  handshakeTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    readonly ws: WebSocket,
    readonly connectionId: string,
    readonly userId: number,
    /** Kept to check it again later; never logged. */
    readonly token: string,
    readonly expiresAt: number,
    now: number,
  ) {
    this.lastReceivedAt = now;
  }

  send(text: string): void {
    if (this.ws.readyState === this.ws.OPEN) this.ws.send(text);
  }

  /** Says why in a close message (the client reports it) and then closes the socket. */
  close(error: string | undefined, allowReconnect: boolean): void {
    if (this.handshaken) this.send(closeFrame(error, allowReconnect));
    if (this.ws.readyState === this.ws.OPEN || this.ws.readyState === this.ws.CONNECTING) this.ws.close(1000);
  }
}

function isHubPath(pathname: string): boolean {
  return pathname.replace(/\/+$/, '').toLowerCase() === HUB_PATH;
}

/** The bearer header (the Node client) or the `access_token` query parameter (browsers cannot set headers on WebSockets). */
function tokenOfUpgrade(request: IncomingMessage, query: URLSearchParams): string | null {
  const header = request.headers.authorization;
  if (typeof header === 'string') {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
    if (match?.[1]) return match[1];
  }
  const fromQuery = query.get('access_token');
  return fromQuery ? fromQuery : null;
}

function refuse(socket: Duplex, status: number, message: string): void {
  const body = JSON.stringify({ message });
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ''}\r\n` +
      'Connection: close\r\n' +
      'Content-Type: application/json; charset=utf-8\r\n' +
      `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
  );
}

function textOf(data: RawData): string {
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8');
  if (data instanceof ArrayBuffer) return Buffer.from(data).toString('utf8');
  return data.toString('utf8');
}

export interface HubServerOptions {
  verifyToken: VerifyToken;
  tokens: ConnectionTokens;
  timings: HubTimings;
  log: FastifyBaseLogger;
  listener?: HubListener;
  /** Judges token expiry; the auth clock, so tests can move it. Liveness timing always uses real time. */
  clock?: () => number;
}

/**
 * A SignalR server for the official client: negotiate (version 1), the WebSockets transport and the
 * JSON hub protocol. It only pushes: clients call no hub methods, so every invocation they make is
 * answered with an error completion.
 */
export class HubServer {
  private readonly wss = new WebSocketServer({
    noServer: true,
    // Clients only send handshakes and pings; nothing legitimate comes near this.
    maxPayload: 64 * 1024,
    perMessageDeflate: false,
    clientTracking: false,
  });
  private readonly all = new Set<HubConnection>();
  private readonly byUser = new Map<number, Set<HubConnection>>();
  private readonly timers: Array<ReturnType<typeof setInterval>> = [];
  private readonly clock: () => number;
  private closing = false;
  private revalidating = false;

  constructor(private readonly options: HubServerOptions) {
    this.clock = options.clock ?? Date.now;
    const { timings } = options;
    const every = (ms: number, task: () => void) => {
      const timer = setInterval(task, ms);
      // Timers must not keep a process alive that has nothing else to do.
      timer.unref();
      this.timers.push(timer);
    };
    every(timings.pingIntervalMs, () => this.tick());
    every(timings.revalidateIntervalMs, () => void this.revalidate());
  }

  /** Negotiate: a token for one WebSocket request of this user, soon. */
  negotiate(userId: number): NegotiatedConnection {
    return this.options.tokens.issue(userId);
  }

  /** Handles an HTTP upgrade if it is for the hub; answers false for other paths, which are someone else's. */
  handleUpgrade(request: IncomingMessage, socket: Duplex, head: Buffer): boolean {
    let url: URL;
    try {
      url = new URL(request.url ?? '/', 'http://hub.invalid');
    } catch {
      return false;
    }
    if (!isHubPath(url.pathname)) return false;
    // The HTTP server stops watching a socket once it is upgraded: an error on it (a client vanishing
    // while refused or mid-check) must not be unhandled. Kept after `ws` takes over, where it agrees.
    socket.on('error', () => socket.destroy());
    void this.upgrade(request, socket, head, url.searchParams).catch((error: unknown) => {
      this.options.log.error({ err: error }, 'hub upgrade failed');
      if (!socket.destroyed) refuse(socket, 500, 'Something went wrong!');
    });
    return true;
  }

  private async upgrade(request: IncomingMessage, socket: Duplex, head: Buffer, query: URLSearchParams): Promise<void> {
    if (this.closing) return refuse(socket, 503, HUB_MESSAGES.shuttingDown);
    const token = tokenOfUpgrade(request, query);
    if (!token) return refuse(socket, 401, HUB_MESSAGES.unauthenticated);
    const identity = await this.options.verifyToken(token);
    if (!identity) return refuse(socket, 401, HUB_MESSAGES.expired);
    const connectionToken = query.get('id');
    if (!connectionToken) return refuse(socket, 400, HUB_MESSAGES.missingConnection);
    const redeemed = await this.options.tokens.redeem(connectionToken);
    // Another user's connection token is as unknown to this user as a made-up one.
    if (!redeemed || redeemed.userId !== identity.userId) return refuse(socket, 404, HUB_MESSAGES.unknownConnection);
    if (socket.destroyed) return;
    if (this.closing) return refuse(socket, 503, HUB_MESSAGES.shuttingDown);
    this.wss.handleUpgrade(request, socket, head, (ws) => this.accept(ws, redeemed.connectionId, identity, token));
  }

  private accept(ws: WebSocket, connectionId: string, identity: HubIdentity, token: string): void {
    const connection = new HubConnection(ws, connectionId, identity.userId, token, identity.expiresAt, Date.now());
    this.all.add(connection);
    connection.handshakeTimer = setTimeout(() => {
      if (!connection.handshaken) ws.close(1008, 'Handshake timeout');
    }, this.options.timings.handshakeTimeoutMs);
    ws.on('message', (data) => this.receive(connection, textOf(data)));
    ws.on('error', (error) => this.options.log.debug({ err: error, connectionId }, 'hub connection error'));
    ws.on('close', () => this.forget(connection));
  }

  private receive(connection: HubConnection, text: string): void {
    connection.lastReceivedAt = Date.now();
    try {
      for (const record of connection.reader.push(text)) {
        if (connection.handshaken) this.dispatch(connection, parseMessage(record));
        else if (!this.handshake(connection, record)) return;
      }
    } catch (error) {
      if (!(error instanceof ProtocolError)) throw error;
      connection.close(error.message, false);
    }
  }

  private handshake(connection: HubConnection, record: string): boolean {
    clearTimeout(connection.handshakeTimer);
    const answer = handshakeAnswer(record);
    if (!answer.ok) {
      connection.send(frame({ error: answer.error }));
      connection.ws.close(1000);
      return false;
    }
    connection.send(frame({}));
    connection.handshaken = true;
    let mine = this.byUser.get(connection.userId);
    if (!mine) this.byUser.set(connection.userId, (mine = new Set()));
    mine.add(connection);
    this.options.listener?.connected?.(connection.userId, connection.connectionId);
    return true;
  }

  private dispatch(connection: HubConnection, message: HubMessage): void {
    switch (message.type) {
      case MessageType.Invocation:
      case MessageType.StreamInvocation: {
        if (typeof message.target !== 'string') throw new ProtocolError('Invocation has no target.');
        // Without an invocation id the client expects no answer (`send`), so there is no one to tell.
        if (typeof message.invocationId === 'string') connection.send(completionErrorFrame(message.invocationId, `Unknown hub method '${message.target}'`));
        return;
      }
      case MessageType.Close:
        connection.ws.close(1000);
        return;
      default:
        // Pings only prove liveness (already noted); stream items, cancellations, client results and
        // stateful-reconnect messages refer to nothing this server started.
        return;
    }
  }

  private forget(connection: HubConnection): void {
    clearTimeout(connection.handshakeTimer);
    this.all.delete(connection);
    if (!connection.handshaken) return;
    const mine = this.byUser.get(connection.userId);
    mine?.delete(connection);
    if (mine?.size === 0) this.byUser.delete(connection.userId);
    this.options.listener?.disconnected?.(connection.userId, connection.connectionId);
  }

  private tick(): void {
    const now = Date.now();
    const tokenNow = this.clock();
    const { clientTimeoutMs, maxBufferedBytes } = this.options.timings;
    for (const connection of this.all) {
      if (!connection.handshaken) continue;
      if (connection.expiresAt <= tokenNow) connection.close(HUB_MESSAGES.expired, false);
      else if (now - connection.lastReceivedAt > clientTimeoutMs) connection.close(HUB_MESSAGES.clientTimeout, true);
      else if (connection.ws.bufferedAmount > maxBufferedBytes) connection.ws.terminate();
      else connection.send(PING_FRAME);
    }
  }

  /** Closes connections whose token the API would now refuse (user deactivated, password changed). */
  private async revalidate(): Promise<void> {
    if (this.revalidating || this.closing) return;
    this.revalidating = true;
    try {
      const byToken = new Map<string, HubConnection[]>();
      const tokenNow = this.clock();
      for (const connection of this.all) {
        if (!connection.handshaken) continue;
        // Expiry is the tick's to report, with its own message.
        if (connection.expiresAt <= tokenNow) continue;
        const list = byToken.get(connection.token);
        if (list) list.push(connection);
        else byToken.set(connection.token, [connection]);
      }
      const tokens = [...byToken.keys()];
      // A few at a time: thousands of connections must not become thousands of parallel queries.
      const worker = async () => {
        for (let token = tokens.pop(); token !== undefined; token = tokens.pop()) {
          const connections = byToken.get(token) ?? [];
          const identity = await this.options.verifyToken(token).catch((error: unknown) => {
            // Cannot tell: keep the connections rather than drop everyone while the database hiccups.
            this.options.log.warn({ err: error }, 'hub could not revalidate a token');
            return undefined;
          });
          if (identity === undefined) continue;
          for (const connection of connections) {
            if (identity && identity.userId === connection.userId) continue;
            connection.close(connection.expiresAt <= this.clock() ? HUB_MESSAGES.expired : HUB_MESSAGES.sessionEnded, false);
          }
        }
      };
      await Promise.all(Array.from({ length: 4 }, worker));
    } finally {
      this.revalidating = false;
    }
  }

  /** Invokes `target` on every live connection of the user on this instance; answers how many. */
  sendToUser(userId: number, target: string, args: unknown[]): number {
    const connections = this.byUser.get(userId);
    if (!connections || connections.size === 0) return 0;
    const text = invocationFrame(target, args);
    for (const connection of connections) connection.send(text);
    return connections.size;
  }

  /** Users with at least one live connection on this instance, and how many each has. */
  connectionCounts(): Map<number, number> {
    return new Map([...this.byUser].map(([userId, set]) => [userId, set.size]));
  }

  get connectionCount(): number {
    return this.all.size;
  }

  /** Tells every client why it is being closed, then closes; stragglers are cut after `graceMs`. */
  async close(graceMs = 1000): Promise<void> {
    if (this.closing) return;
    this.closing = true;
    for (const timer of this.timers) clearInterval(timer);
    const closed = [...this.all].map(
      (connection) =>
        new Promise<void>((resolve) => {
          if (connection.ws.readyState === connection.ws.CLOSED) return resolve();
          connection.ws.once('close', () => resolve());
          connection.close(HUB_MESSAGES.shuttingDown, true);
        }),
    );
    await settledWithin(Promise.all(closed), graceMs);
    for (const connection of this.all) connection.ws.terminate();
    await new Promise<void>((resolve) => this.wss.close(() => resolve()));
  }
}
