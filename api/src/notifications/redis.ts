import type { FastifyBaseLogger } from 'fastify';
import { Redis } from 'ioredis';

const COMMON = {
  // ioredis waits this long for a dropped connection's socket to close; one that never opened would
  // otherwise hold a closing process for the default 2 s.
  disconnectTimeout: 200,
} as const;

/** What Redis's CLIENT LIST calls this instance's subscribed connection. */
export const SUBSCRIBER_CONNECTION_NAME = 'cellwise-realtime-sub';

/**
 * The Redis connections of the real-time features: one for commands, one for the subscription (a
 * subscribed connection can run nothing else). Every key and channel starts with `prefix`, so several
 * deployments (or parallel test runs) can share one Redis.
 */
export class RedisLink {
  readonly commands: Redis;
  readonly subscriber: Redis;

  constructor(
    url: string,
    readonly prefix: string,
    private readonly log: FastifyBaseLogger,
  ) {
    // Commands fail at once while Redis is away, never queue: callers fall back to this instance
    // (delivery, token claims) or repair on the next heartbeat (presence)…
    this.commands = new Redis(url, { ...COMMON, enableOfflineQueue: false, maxRetriesPerRequest: 1, connectionName: 'cellwise-realtime' });
    // …but a subscription waits for Redis to come back, and ioredis subscribes again after a reconnect.
    this.subscriber = new Redis(url, { ...COMMON, maxRetriesPerRequest: null, connectionName: SUBSCRIBER_CONNECTION_NAME });
    this.watch(this.commands, 'commands');
    this.watch(this.subscriber, 'subscriber');
  }

  /** ioredis reconnects by itself and reports every failed attempt: one log line per outage is enough. */
  private watch(client: Redis, role: string): void {
    let down = false;
    client.on('error', (error: Error) => {
      if (down) return;
      down = true;
      this.log.error({ err: error, role }, 'Redis unreachable: notifications reach this instance only, presence is local');
    });
    client.on('ready', () => {
      if (down) this.log.info({ role }, 'Redis reachable again');
      down = false;
    });
  }

  key(name: string): string {
    return `${this.prefix}${name}`;
  }

  async reachable(timeoutMs = 1000): Promise<boolean> {
    if (this.subscriber.status !== 'ready') return false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    try {
      const pong = await Promise.race([this.commands.ping(), new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), timeoutMs)))]);
      return pong === 'PONG';
    } catch {
      return false;
    } finally {
      clearTimeout(timer);
    }
  }

  async close(): Promise<void> {
    await Promise.all(
      [this.commands, this.subscriber].map(async (client) => {
        try {
          // QUIT lets pending commands (the presence cleanup) finish; while Redis is away just drop it.
          if (client.status === 'ready') await client.quit();
          else client.disconnect();
        } catch {
          client.disconnect();
        }
      }),
    );
  }
}
