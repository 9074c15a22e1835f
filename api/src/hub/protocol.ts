/**
 * The SignalR JSON hub protocol, as far as this server speaks it: records are JSON texts each ending
 * with the 0x1E record separator, and a WebSocket frame may carry several of them (or, in principle,
 * a record may span frames, so the parser keeps the unfinished tail).
 * https://github.com/dotnet/aspnetcore/blob/main/src/SignalR/docs/specs/HubProtocol.md
 */

export const RECORD_SEPARATOR = '\x1e';

export const MessageType = {
  Invocation: 1,
  StreamItem: 2,
  Completion: 3,
  StreamInvocation: 4,
  CancelInvocation: 5,
  Ping: 6,
  Close: 7,
  Ack: 8,
  Sequence: 9,
} as const;

export const SUPPORTED_PROTOCOL = 'json';
export const SUPPORTED_VERSION = 1;

/** A record as received: an object with a numeric `type`, anything else is a protocol violation. */
export interface HubMessage {
  type: number;
  invocationId?: unknown;
  target?: unknown;
  [field: string]: unknown;
}

export class ProtocolError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ProtocolError';
  }
}

/**
 * Splits incoming text into complete records. A client only ever sends small messages (handshake,
 * pings, the odd invocation), so an unfinished tail beyond `maxPending` characters is an abuse, not a
 * message worth waiting for.
 */
export class RecordReader {
  private pending = '';

  constructor(private readonly maxPending = 64 * 1024) {}

  push(chunk: string): string[] {
    const text = this.pending + chunk;
    const parts = text.split(RECORD_SEPARATOR);
    this.pending = parts.pop() ?? '';
    if (this.pending.length > this.maxPending) throw new ProtocolError('Message too large.');
    return parts;
  }
}

export function frame(message: object): string {
  return JSON.stringify(message) + RECORD_SEPARATOR;
}

/** The handshake request's answer: `{}` accepts, `{ error }` refuses (and the server then closes). */
export function handshakeAnswer(record: string): { ok: true } | { ok: false; error: string } {
  let request: unknown;
  try {
    request = JSON.parse(record);
  } catch {
    return { ok: false, error: 'Handshake request is not valid JSON.' };
  }
  if (typeof request !== 'object' || request === null) return { ok: false, error: 'Handshake request must be an object.' };
  const { protocol, version } = request as { protocol?: unknown; version?: unknown };
  if (protocol !== SUPPORTED_PROTOCOL) {
    return {
      ok: false,
      error: `The protocol '${String(protocol)}' is not supported: this server speaks '${SUPPORTED_PROTOCOL}' version ${SUPPORTED_VERSION}.`,
    };
  }
  if (version !== SUPPORTED_VERSION) {
    return { ok: false, error: `The server does not support version ${String(version)} of the '${SUPPORTED_PROTOCOL}' protocol.` };
  }
  return { ok: true };
}

export function parseMessage(record: string): HubMessage {
  let message: unknown;
  try {
    message = JSON.parse(record);
  } catch {
    throw new ProtocolError('Message is not valid JSON.');
  }
  if (typeof message !== 'object' || message === null || Array.isArray(message)) throw new ProtocolError('Message must be a JSON object.');
  const { type } = message as { type?: unknown };
  if (typeof type !== 'number' || !Number.isInteger(type)) throw new ProtocolError('Message has no type.');
  return message as HubMessage;
}

export const PING_FRAME = frame({ type: MessageType.Ping });

export function invocationFrame(target: string, args: unknown[]): string {
  return frame({ type: MessageType.Invocation, target, arguments: args });
}

export function completionErrorFrame(invocationId: string, error: string): string {
  return frame({ type: MessageType.Completion, invocationId, error });
}

/** `allowReconnect` tells a client using automatic reconnect whether trying again can help. */
export function closeFrame(error: string | undefined, allowReconnect: boolean): string {
  return frame({ type: MessageType.Close, ...(error ? { error } : {}), allowReconnect });
}
