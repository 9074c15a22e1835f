import type { FastifyBaseLogger } from 'fastify';
import type { UsedTokenRegistry } from '../hub';
import { settledWithin } from '../lib/settled-within';
import type { RedisLink } from './redis';

/** Hub invocations for users wherever they are connected: one target, one argument list per user. */
export interface HubBroadcast {
  target: string;
  deliveries: Array<{ userId: number; args: unknown[] }>;
}

/**
 * What travels between instances. The publisher has already delivered the broadcast to its own
 * connections, so every instance skips its own messages.
 */
export interface BackplaneMessage {
  /** The publishing instance. */
  origin: string;
  broadcast?: HubBroadcast;
  /** The broadcast's notifications are still being written: reads of its users wait for `stored` with this id. */
  storing?: string;
  /** The write announced by `storing` with this id has ended. */
  stored?: string;
}

export type BackplaneKind = 'in-process' | 'redis';

/** Carries messages to every API instance, this one included. */
export interface Backplane {
  readonly kind: BackplaneKind;
  subscribe(handler: (message: BackplaneMessage) => void): void;
  /** Rejects when the message could not be handed over (other instances then miss it). */
  publish(message: BackplaneMessage): Promise<void>;
  /**
   * Resolves once every message the backplane took before this call has reached this instance's
   * handler, or after `timeoutMs` (Redis may be down). Never rejects.
   */
  caughtUp(timeoutMs: number): Promise<void>;
  /** Resolves once this instance receives broadcasts, or after `timeoutMs` (Redis may be down). */
  ready(timeoutMs: number): Promise<boolean>;
  reachable(): Promise<boolean>;
  close(): Promise<void>;
}

/** One instance: publishing is delivering. */
export class InProcessBackplane implements Backplane {
  readonly kind = 'in-process' as const;
  private handler: ((message: BackplaneMessage) => void) | undefined;

  subscribe(handler: (message: BackplaneMessage) => void): void {
    this.handler = handler;
  }

  publish(message: BackplaneMessage): Promise<void> {
    this.handler?.(message);
    return Promise.resolve();
  }

  /** Publishing hands the message over synchronously: nothing is ever in flight. */
  caughtUp(): Promise<void> {
    return Promise.resolve();
  }

  ready(): Promise<boolean> {
    return Promise.resolve(true);
  }

  reachable(): Promise<boolean> {
    return Promise.resolve(true);
  }

  close(): Promise<void> {
    return Promise.resolve();
  }
}

function isMessage(value: unknown): value is BackplaneMessage {
  if (typeof value !== 'object' || value === null) return false;
  const m = value as Record<string, unknown>;
  const optionalText = (field: unknown) => field === undefined || typeof field === 'string';
  return typeof m.origin === 'string' && optionalText(m.storing) && optionalText(m.stored) && (m.broadcast === undefined || isBroadcast(m.broadcast));
}

function isBroadcast(value: unknown): value is HubBroadcast {
  if (typeof value !== 'object' || value === null) return false;
  const b = value as Record<string, unknown>;
  return (
    typeof b.target === 'string' &&
    Array.isArray(b.deliveries) &&
    b.deliveries.every((d: unknown) => {
      const delivery = d as Record<string, unknown> | null;
      return typeof delivery === 'object' && delivery !== null && Number.isSafeInteger(delivery.userId) && Array.isArray(delivery.args);
    })
  );
}

/** Redis pub/sub: every instance subscribes to one channel and delivers to its own connections. */
export class RedisBackplane implements Backplane {
  readonly kind = 'redis' as const;
  private readonly channel: string;
  private handler: ((message: BackplaneMessage) => void) | undefined;
  private readonly subscribed: Promise<unknown>;

  constructor(
    private readonly redis: RedisLink,
    private readonly log: FastifyBaseLogger,
  ) {
    this.channel = redis.key('hub');
    this.redis.subscriber.on('message', (channel: string, text: string) => {
      if (channel !== this.channel) return;
      let message: unknown;
      try {
        message = JSON.parse(text);
      } catch {
        message = undefined;
      }
      if (!isMessage(message)) {
        this.log.warn({ channel }, 'ignored a malformed hub broadcast');
        return;
      }
      this.handler?.(message);
    });
    this.subscribed = this.redis.subscriber.subscribe(this.channel).catch((error: unknown) => {
      this.log.error({ err: error }, 'could not subscribe to the hub channel');
    });
  }

  subscribe(handler: (message: BackplaneMessage) => void): void {
    this.handler = handler;
  }

  async publish(message: BackplaneMessage): Promise<void> {
    await this.redis.commands.publish(this.channel, JSON.stringify(message));
  }

  /**
   * A PING on the subscribed connection: Redis answers it after every message it published earlier,
   * on the same connection and in order, and ioredis hands each message to the handler as it reads it,
   * so by the PONG they have all been handled.
   */
  async caughtUp(timeoutMs: number): Promise<void> {
    if (this.redis.subscriber.status === 'ready') await settledWithin(this.redis.subscriber.ping(), timeoutMs);
  }

  async ready(timeoutMs: number): Promise<boolean> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    let onError: (() => void) | undefined;
    const done = await Promise.race([
      this.subscribed.then(() => this.redis.subscriber.status === 'ready'),
      new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), timeoutMs))),
      // A refused connection will not turn into a subscription within the wait: start without it.
      new Promise<false>((resolve) => this.redis.subscriber.once('error', (onError = () => resolve(false)))),
    ]);
    clearTimeout(timer);
    if (onError) this.redis.subscriber.off('error', onError);
    return done;
  }

  reachable(): Promise<boolean> {
    return this.redis.reachable();
  }

  async close(): Promise<void> {
    if (this.redis.subscriber.status === 'ready') await this.redis.subscriber.unsubscribe(this.channel).catch(() => undefined);
  }
}

/**
 * Connection tokens used anywhere count as used everywhere. If Redis cannot answer, this instance's
 * own memory decides: the token is short-lived and the WebSocket request must carry a valid session
 * of the same user anyway, so availability wins over a perfect once-only guarantee.
 */
export class RedisUsedTokenRegistry implements UsedTokenRegistry {
  constructor(
    private readonly redis: RedisLink,
    private readonly fallback: UsedTokenRegistry,
    private readonly log: FastifyBaseLogger,
  ) {}

  async claim(connectionId: string, ttlMs: number): Promise<boolean> {
    const local = await this.fallback.claim(connectionId, ttlMs);
    if (!local) return false;
    try {
      const answer = await this.redis.commands.set(this.redis.key(`hub:used:${connectionId}`), '1', 'PX', Math.ceil(ttlMs), 'NX');
      return answer === 'OK';
    } catch (error) {
      this.log.warn({ err: error }, 'Redis could not record a hub connection token; this instance decided alone');
      return true;
    }
  }
}
