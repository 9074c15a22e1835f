import type { IncomingMessage, ServerResponse } from 'node:http';
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
import { LongPollingTransport, ServerSentEventsTransport, WebSocketTransport, type PollAnswer, type Transport, type TransportName } from './transports';

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
  /** How long a negotiated connection token may wait for its first transport request. */
  connectionTokenTtlMs: number;
  /** How often live connections' tokens are checked again (deactivation, password change). */
  revalidateIntervalMs: number;
  /** A client this far behind on reading is dropped rather than buffered for without bound. */
  maxBufferedBytes: number;
  /**
   * How long a long poll with nothing to take is held before it is answered empty (the client polls
   * again). The server's pings answer a poll every `pingIntervalMs` anyway; this bounds the wait when
   * pings are sparser, below the 60 s after which common proxies (nginx, cloud load balancers) cut a
   * silent upstream response and far inside the official client's 100 s poll timeout.
   */
  pollTimeoutMs: number;
}

export const DEFAULT_HUB_TIMINGS: HubTimings = {
  pingIntervalMs: 15_000,
  clientTimeoutMs: 30_000,
  handshakeTimeoutMs: 15_000,
  connectionTokenTtlMs: 30_000,
  revalidateIntervalMs: 60_000,
  maxBufferedBytes: 1024 * 1024,
  pollTimeoutMs: 30_000,
};

/** How long a long-polling connection the server ended keeps what it still has to say for the client's next poll. */
const POLL_LINGER_MS = 5000;

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
  wrongTransport: 'Cannot change transports mid-connection.',
  alreadyStreaming: 'This connection already has an event stream.',
} as const;

/** An HTTP request of the two half-transports (Server-Sent Events and Long Polling, with their POSTs). */
export interface HubHttpRequest {
  /** The `id` of the query: the connection token negotiate gave. */
  connectionToken: string;
  /** The session the access hook accepted, and the token it came with. */
  userId: number;
  sessionToken: string;
}

/** A request the hub answers with a 4xx/503 and `{ message }`. */
export interface HubRefusal {
  status: number;
  message: string;
}

class HubConnection {
  handshaken = false;
  lastReceivedAt: number;
  readonly reader = new RecordReader();
  handshakeTimer: ReturnType<typeof setTimeout> | undefined;
  /** Settles once the transport is gone and the hub has forgotten the connection. */
  readonly closed: Promise<void>;
  markClosed: () => void = () => undefined;

  constructor(
    readonly transport: Transport,
    readonly connectionId: string,
    readonly userId: number,
    /** Kept to check it again later; never logged. An HTTP transport's later requests may bring a newer one. */
    public token: string,
    public expiresAt: number,
    private readonly maxBufferedBytes: number,
    now: number,
  ) {
    this.lastReceivedAt = now;
    this.closed = new Promise((resolve) => (this.markClosed = resolve));
  }

  send(text: string): void {
    this.transport.send(text);
    // Dropped rather than buffered for without bound: a client that does not read (or poll) cannot hold memory.
    if (this.transport.bufferedBytes > this.maxBufferedBytes) this.transport.terminate();
  }

  /** Says why in a close message (the client reports it) and then closes the transport. */
  close(error: string | undefined, allowReconnect: boolean): void {
    if (this.handshaken) this.send(closeFrame(error, allowReconnect));
    this.transport.end('normal');
  }
}

function isHubPath(pathname: string): boolean {
  return pathname.replace(/\/+$/, '').toLowerCase() === HUB_PATH;
}

/**
 * The bearer header (the Node client, and the official client's POSTs and polls) or the `access_token`
 * query parameter (browsers cannot set headers on WebSockets or EventSource).
 */
export function sessionTokenOf(request: IncomingMessage, query: URLSearchParams): string | null {
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
 * A SignalR server for the official client: negotiate (version 1), the three transports (WebSockets;
 * Server-Sent Events and Long Polling, each with HTTP POST for what the client sends) and the JSON hub
 * protocol. It only pushes: clients call no hub methods, so every invocation they make is answered with
 * an error completion.
 *
 * A connection of the HTTP transports lives on the instance its first request reached: its later
 * requests (same `id`) must reach that instance too. Elsewhere they are answered 404, as for an
 * ended connection, and the client reconnects. Behind several instances the load balancer routes by
 * the `id` query parameter (or sticky sessions); WebSockets need nothing of the sort.
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
  /** Every live connection by id, so the HTTP transports' later requests find theirs. */
  private readonly byId = new Map<string, HubConnection>();
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

  /** Negotiate: a token for one connection of this user (any transport), soon. */
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
    const token = sessionTokenOf(request, query);
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
    const connection = this.register(new WebSocketTransport(ws), connectionId, identity, token);
    ws.on('message', (data) => this.receive(connection, textOf(data)));
    ws.on('error', (error) => this.options.log.debug({ err: error, connectionId }, 'hub connection error'));
  }

  /** A connection of any transport, known to the hub from now until its transport closes. */
  private register(transport: Transport, connectionId: string, identity: HubIdentity, token: string): HubConnection {
    const { timings } = this.options;
    const connection = new HubConnection(transport, connectionId, identity.userId, token, identity.expiresAt, timings.maxBufferedBytes, Date.now());
    this.all.add(connection);
    this.byId.set(connectionId, connection);
    connection.handshakeTimer = setTimeout(() => {
      if (!connection.handshaken) transport.end('policy');
    }, timings.handshakeTimeoutMs);
    transport.onClosed = () => this.forget(connection);
    return connection;
  }

  /** Text from the client; answers the reason when it broke the protocol (the connection is then closing). */
  private receive(connection: HubConnection, text: string): string | undefined {
    connection.lastReceivedAt = Date.now();
    try {
      for (const record of connection.reader.push(text)) {
        if (connection.handshaken) this.dispatch(connection, parseMessage(record));
        else {
          const refused = this.handshake(connection, record);
          if (refused) return refused;
        }
      }
    } catch (error) {
      if (!(error instanceof ProtocolError)) throw error;
      connection.close(error.message, false);
      return error.message;
    }
    return undefined;
  }

  /** Answers the refusal's reason, or undefined once the connection is handshaken. */
  private handshake(connection: HubConnection, record: string): string | undefined {
    clearTimeout(connection.handshakeTimer);
    const answer = handshakeAnswer(record);
    if (!answer.ok) {
      connection.send(frame({ error: answer.error }));
      connection.transport.end('normal');
      return answer.error;
    }
    connection.send(frame({}));
    connection.handshaken = true;
    let mine = this.byUser.get(connection.userId);
    if (!mine) this.byUser.set(connection.userId, (mine = new Set()));
    mine.add(connection);
    this.options.listener?.connected?.(connection.userId, connection.connectionId);
    return undefined;
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
        connection.transport.end('normal');
        return;
      default:
        // Pings only prove liveness (already noted); stream items, cancellations, client results and
        // stateful-reconnect messages refer to nothing this server started.
        return;
    }
  }

  private forget(connection: HubConnection): void {
    clearTimeout(connection.handshakeTimer);
    if (!this.all.delete(connection)) return;
    if (this.byId.get(connection.connectionId) === connection) this.byId.delete(connection.connectionId);
    connection.markClosed();
    if (!connection.handshaken) return;
    const mine = this.byUser.get(connection.userId);
    mine?.delete(connection);
    if (mine?.size === 0) this.byUser.delete(connection.userId);
    this.options.listener?.disconnected?.(connection.userId, connection.connectionId);
  }

  // -------------------------------------------------------------------------------------------
  // The HTTP transports. The access hook has judged each request's session before it gets here.

  /**
   * The live connection a request names, if it is this user's and uses one of `transports`; `unknown`
   * when the token is genuine and the user's but no connection here has it (yet, or any more).
   */
  private async find(
    request: HubHttpRequest,
    transports: readonly TransportName[],
  ): Promise<{ connection: HubConnection } | { refusal: HubRefusal } | { unknown: true }> {
    if (!request.connectionToken) return { refusal: { status: 400, message: HUB_MESSAGES.missingConnection } };
    const named = this.options.tokens.identify(request.connectionToken);
    // Another user's connection token is as unknown to this user as a made-up one.
    if (!named || named.userId !== request.userId) return { refusal: { status: 404, message: HUB_MESSAGES.unknownConnection } };
    const connection = this.byId.get(named.connectionId);
    if (!connection) return { unknown: true };
    if (!transports.includes(connection.transport.name)) return { refusal: { status: 400, message: HUB_MESSAGES.wrongTransport } };
    if (request.sessionToken !== connection.token) await this.adoptSessionToken(connection, request.sessionToken);
    return { connection };
  }

  /**
   * A later request came with another token of the same user (the console signed in again): the
   * connection is judged by it from now on, so it outlives the older one's expiry.
   */
  private async adoptSessionToken(connection: HubConnection, token: string): Promise<void> {
    const identity = await this.options.verifyToken(token);
    if (!identity || identity.userId !== connection.userId || identity.expiresAt < connection.expiresAt) return;
    connection.token = token;
    connection.expiresAt = identity.expiresAt;
  }

  /** The first request of an HTTP transport: redeems the connection token (once, before it expires). */
  private async open(request: HubHttpRequest, create: () => Transport): Promise<HubConnection | HubRefusal> {
    if (this.closing) return { status: 503, message: HUB_MESSAGES.shuttingDown };
    const redeemed = await this.options.tokens.redeem(request.connectionToken);
    if (!redeemed || redeemed.userId !== request.userId) return { status: 404, message: HUB_MESSAGES.unknownConnection };
    const identity = await this.options.verifyToken(request.sessionToken);
    // The access hook accepted this session a moment ago; it ended in between.
    if (!identity || identity.userId !== request.userId) return { status: 401, message: HUB_MESSAGES.expired };
    if (this.closing) return { status: 503, message: HUB_MESSAGES.shuttingDown };
    return this.register(create(), redeemed.connectionId, identity, request.sessionToken);
  }

  /**
   * `GET` with `Accept: text/event-stream`: opens the connection's event stream. `begin` takes the
   * response over from the framework (called only when the stream opens); a refusal is the caller's to send.
   */
  async openEventStream(request: HubHttpRequest, requestId: string, begin: () => ServerResponse): Promise<HubRefusal | null> {
    const found = await this.find(request, ['ServerSentEvents']);
    if ('refusal' in found) return found.refusal;
    // A connection token opens one stream: a second request for it is refused, the first keeps going.
    if ('connection' in found) return { status: 409, message: HUB_MESSAGES.alreadyStreaming };
    let transport: ServerSentEventsTransport | undefined;
    const opened = await this.open(request, () => (transport = new ServerSentEventsTransport(begin())));
    if (!(opened instanceof HubConnection)) return opened;
    transport?.start(requestId);
    return null;
  }

  /**
   * `GET` otherwise: a long poll. The first opens the connection and is answered at once (empty);
   * later ones take what is queued, or wait for it. `res` going away unanswered withdraws the poll.
   */
  async poll(request: HubHttpRequest, res: ServerResponse): Promise<HubRefusal | PollAnswer> {
    const found = await this.find(request, ['LongPolling']);
    if ('refusal' in found) return found.refusal;
    if ('unknown' in found) {
      const opened = await this.open(request, () => new LongPollingTransport(this.options.timings.pollTimeoutMs, POLL_LINGER_MS));
      return opened instanceof HubConnection ? { status: 200, body: '' } : opened;
    }
    const transport = found.connection.transport as LongPollingTransport;
    // The official client sends no pings over long polling (its polls keep the connection alive), so
    // polls are what tells the hub it is still there.
    found.connection.lastReceivedAt = Date.now();
    // Gone while its session was checked: it must not become the poll that messages are handed to.
    if (res.destroyed) return { status: 204 };
    const { answer, abandon } = transport.poll();
    const onClose = () => {
      if (!res.writableFinished) abandon();
    };
    res.once('close', onClose);
    try {
      return await answer;
    } finally {
      res.off('close', onClose);
    }
  }

  /** `POST`: messages from a client of the HTTP transports. A body that breaks the protocol is refused (400) and ends the connection. */
  async post(request: HubHttpRequest, body: string): Promise<HubRefusal | null> {
    const found = await this.find(request, ['ServerSentEvents', 'LongPolling']);
    if ('refusal' in found) return found.refusal;
    if ('unknown' in found) return { status: 404, message: HUB_MESSAGES.unknownConnection };
    const broken = this.receive(found.connection, body);
    return broken === undefined ? null : { status: 400, message: broken };
  }

  /** `DELETE`: a long-polling client is done; its waiting poll is answered 204 and the connection ends. */
  async remove(request: HubHttpRequest): Promise<HubRefusal | null> {
    const found = await this.find(request, ['LongPolling']);
    if ('refusal' in found) return found.refusal;
    if ('unknown' in found) return { status: 404, message: HUB_MESSAGES.unknownConnection };
    found.connection.transport.terminate();
    return null;
  }

  private tick(): void {
    const now = Date.now();
    const tokenNow = this.clock();
    const { clientTimeoutMs, maxBufferedBytes } = this.options.timings;
    for (const connection of this.all) {
      if (!connection.handshaken) continue;
      if (connection.transport instanceof LongPollingTransport && connection.transport.holdsPoll) connection.lastReceivedAt = now;
      if (connection.expiresAt <= tokenNow) connection.close(HUB_MESSAGES.expired, false);
      else if (now - connection.lastReceivedAt > clientTimeoutMs) connection.close(HUB_MESSAGES.clientTimeout, true);
      else if (connection.transport.bufferedBytes > maxBufferedBytes) connection.transport.terminate();
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
    const closed = [...this.all].map((connection) => {
      connection.close(HUB_MESSAGES.shuttingDown, true);
      return connection.closed;
    });
    await settledWithin(Promise.all(closed), graceMs);
    for (const connection of this.all) connection.transport.terminate();
    await new Promise<void>((resolve) => this.wss.close(() => resolve()));
  }
}
