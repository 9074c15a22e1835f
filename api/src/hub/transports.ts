import type { ServerResponse } from 'node:http';
import type { WebSocket } from 'ws';

/**
 * The three SignalR transports beneath one interface, so the hub (handshake, pings, invocations,
 * timeouts, revalidation, presence) never asks which one a connection uses. What comes from the
 * client arrives at the hub as text whatever the transport (WebSocket messages, or the bodies of
 * HTTP POSTs for the two half-transports); this interface is only the way back.
 * https://github.com/dotnet/aspnetcore/blob/main/src/SignalR/docs/specs/TransportProtocols.md
 */
export type TransportName = 'WebSockets' | 'ServerSentEvents' | 'LongPolling';

export interface Transport {
  readonly name: TransportName;
  /** Queues text (whole hub protocol records) for the client. Ignored once the transport ends. */
  send(text: string): void;
  /** Bytes handed to the transport that the client has not taken yet. */
  readonly bufferedBytes: number;
  /**
   * Ends after what was sent has been offered to the client. `policy`: the client broke the protocol
   * (a WebSocket says so with its close code).
   */
  end(reason: 'normal' | 'policy'): void;
  /** Cuts at once, dropping what is still buffered. */
  terminate(): void;
  /** Called once, when the transport is gone for good (whichever side ended it). */
  onClosed: () => void;
}

export class WebSocketTransport implements Transport {
  readonly name = 'WebSockets';
  onClosed: () => void = () => undefined;

  constructor(private readonly ws: WebSocket) {
    ws.on('close', () => this.onClosed());
  }

  send(text: string): void {
    if (this.ws.readyState === this.ws.OPEN) this.ws.send(text);
  }

  get bufferedBytes(): number {
    return this.ws.bufferedAmount;
  }

  end(reason: 'normal' | 'policy'): void {
    if (this.ws.readyState !== this.ws.OPEN && this.ws.readyState !== this.ws.CONNECTING) return;
    if (reason === 'policy') this.ws.close(1008, 'Handshake timeout');
    else this.ws.close(1000);
  }

  terminate(): void {
    this.ws.terminate();
  }
}

/**
 * One unnamed event per send. Each line of the text becomes a `data:` line (the client joins them
 * with \n); JSON records never hold a raw line break, so what arrives is exactly what was sent.
 */
export function eventOf(text: string): string {
  return `${text
    .split(/\r\n|\r|\n/)
    .map((line) => `data: ${line}`)
    .join('\n')}\n\n`;
}

/** Server-Sent Events: a response that stays open; the client's messages come by POST. */
export class ServerSentEventsTransport implements Transport {
  readonly name = 'ServerSentEvents';
  onClosed: () => void = () => undefined;
  private started = false;

  constructor(private readonly res: ServerResponse) {}

  /** Sends the headers (and a comment, so clients that wait for a first byte report the stream open). */
  start(requestId: string): void {
    if (this.started) return;
    this.started = true;
    const { res } = this;
    // The client may have gone while its session was being checked: then 'close' has been and gone.
    if (res.destroyed) return this.onClosed();
    res.on('close', () => this.onClosed());
    res.writeHead(200, {
      'Content-Type': 'text/event-stream',
      'Cache-Control': 'no-cache, no-transform',
      Connection: 'keep-alive',
      // nginx would otherwise hold events back until its buffer fills: notifications would arrive late.
      'X-Accel-Buffering': 'no',
      'X-Content-Type-Options': 'nosniff',
      'x-request-id': requestId,
    });
    res.write(':\n\n');
  }

  send(text: string): void {
    if (!this.res.writableEnded && !this.res.destroyed) this.res.write(eventOf(text));
  }

  get bufferedBytes(): number {
    return this.res.writableLength;
  }

  end(): void {
    if (!this.res.writableEnded && !this.res.destroyed) this.res.end();
  }

  terminate(): void {
    this.res.destroy();
  }
}

/** What a poll is answered with: 200 with the messages (none when it waited in vain), or 204 once the connection is over. */
export type PollAnswer = { status: 200; body: string } | { status: 204 };

interface WaitingPoll {
  answer: (answer: PollAnswer) => void;
  timer: ReturnType<typeof setTimeout>;
}

/**
 * Long Polling: messages wait here until the client's next GET takes them all. A poll with nothing to
 * take waits for the next message, at most `pollTimeoutMs`, then answers 200 with no body (the client
 * polls again). Ending offers what is left to the current or next poll, for `lingerMs` at most.
 */
export class LongPollingTransport implements Transport {
  readonly name = 'LongPolling';
  onClosed: () => void = () => undefined;
  private queue: string[] = [];
  private queuedBytes = 0;
  private waiting: WaitingPoll | null = null;
  private ending = false;
  private closed = false;
  private lingerTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly pollTimeoutMs: number,
    private readonly lingerMs: number,
  ) {}

  get bufferedBytes(): number {
    return this.queuedBytes;
  }

  /** A poll of the client's is waiting here: the client is there. */
  get holdsPoll(): boolean {
    return this.waiting !== null;
  }

  send(text: string): void {
    if (this.ending || this.closed) return;
    this.queue.push(text);
    this.queuedBytes += Buffer.byteLength(text);
    if (this.waiting) this.answer(this.take());
  }

  /**
   * A GET from the client. The specification lets a new poll replace one the server still holds (the
   * client, or a proxy, gave up on it): the older is answered 204 at once and the newer carries on.
   * `abandon` withdraws the poll when its request goes away unanswered.
   */
  poll(): { answer: Promise<PollAnswer>; abandon: () => void } {
    if (this.waiting) this.answer({ status: 204 });
    if (this.closed) return { answer: Promise.resolve({ status: 204 }), abandon: () => undefined };
    if (this.queue.length > 0) {
      const body = this.take();
      if (this.ending) this.finish();
      return { answer: Promise.resolve(body), abandon: () => undefined };
    }
    if (this.ending) {
      this.finish();
      return { answer: Promise.resolve({ status: 204 }), abandon: () => undefined };
    }
    let waiting: WaitingPoll | undefined;
    const answer = new Promise<PollAnswer>((resolve) => {
      const timer = setTimeout(() => this.answer({ status: 200, body: '' }), this.pollTimeoutMs);
      waiting = { answer: resolve, timer };
    });
    this.waiting = waiting ?? null;
    return {
      answer,
      abandon: () => {
        // Settled too, so nothing waits on a poll that nobody will read.
        if (this.waiting === waiting) this.answer({ status: 204 });
      },
    };
  }

  end(): void {
    if (this.ending || this.closed) return;
    this.ending = true;
    if (this.waiting) {
      this.answer(this.queue.length > 0 ? this.take() : { status: 204 });
      this.finish();
    } else if (this.queue.length === 0) {
      this.finish();
    } else {
      // The client polls again right after each answer; one that does not within this time is gone.
      this.lingerTimer = setTimeout(() => this.finish(), this.lingerMs);
    }
  }

  terminate(): void {
    this.queue = [];
    this.queuedBytes = 0;
    if (this.waiting) this.answer({ status: 204 });
    this.finish();
  }

  private take(): PollAnswer {
    const body = this.queue.join('');
    this.queue = [];
    this.queuedBytes = 0;
    return { status: 200, body };
  }

  private answer(answer: PollAnswer): void {
    const waiting = this.waiting;
    if (!waiting) return;
    this.waiting = null;
    clearTimeout(waiting.timer);
    waiting.answer(answer);
  }

  private finish(): void {
    if (this.closed) return;
    this.closed = true;
    this.ending = true;
    clearTimeout(this.lingerTimer);
    this.onClosed();
  }
}
