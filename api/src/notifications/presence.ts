import { randomBytes } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { RedisLink } from './redis';

/** docs/architecture.md#how-a-notification-flows: a user is online with a live hub connection, or after API activity within this long. */
export const ACTIVITY_WINDOW_MS = 5 * 60 * 1000;

/** Who is online. Hub connections are counted per user; API requests refresh the activity mark. */
export interface Presence {
  connected(userId: number): void;
  disconnected(userId: number): void;
  /** An authenticated API request by the user. */
  touch(userId: number): void;
  isOnline(userId: number): Promise<boolean>;
  /** Ascending. */
  onlineUserIds(): Promise<number[]>;
  close(): Promise<void>;
}

/** One instance's knowledge: exact, and all there is without Redis. */
export class LocalPresence implements Presence {
  protected readonly connections = new Map<number, number>();
  protected readonly activity = new Map<number, number>();

  constructor(protected readonly clock: () => number) {}

  connected(userId: number): void {
    this.connections.set(userId, (this.connections.get(userId) ?? 0) + 1);
  }

  disconnected(userId: number): void {
    const count = (this.connections.get(userId) ?? 0) - 1;
    if (count > 0) this.connections.set(userId, count);
    else this.connections.delete(userId);
  }

  touch(userId: number): void {
    this.activity.set(userId, this.clock());
  }

  /** Users this instance knows to be online, forgetting activity that has aged out. */
  protected localOnline(): Set<number> {
    const since = this.clock() - ACTIVITY_WINDOW_MS;
    const online = new Set(this.connections.keys());
    for (const [userId, at] of this.activity) {
      if (at > since) online.add(userId);
      else this.activity.delete(userId);
    }
    return online;
  }

  protected locallyOnline(userId: number): boolean {
    if ((this.connections.get(userId) ?? 0) > 0) return true;
    const at = this.activity.get(userId);
    return at !== undefined && at > this.clock() - ACTIVITY_WINDOW_MS;
  }

  isOnline(userId: number): Promise<boolean> {
    return Promise.resolve(this.locallyOnline(userId));
  }

  onlineUserIds(): Promise<number[]> {
    return Promise.resolve([...this.localOnline()].sort((a, b) => a - b));
  }

  close(): Promise<void> {
    return Promise.resolve();
  }
}

export interface RedisPresenceOptions {
  /** How often this instance re-asserts its connection counts; its entry lives three times as long. */
  heartbeatMs: number;
}

/**
 * Presence shared by every instance through Redis:
 * - `presence:connections:<instance>`: hash userId → live connections on that instance, rewritten
 *   whole on each heartbeat and expiring if the instance dies without cleaning up;
 * - `presence:instances`: sorted set of instances by last heartbeat, so readers skip dead ones;
 * - `presence:activity`: sorted set userId → last API activity (epoch ms).
 * Each instance keeps its own counts in memory (the truth for its connections) and falls back to them
 * alone when Redis cannot answer.
 */
export class RedisPresence extends LocalPresence {
  private readonly instanceId = randomBytes(8).toString('hex');
  private readonly connectionsKey: string;
  private readonly instancesKey: string;
  private readonly activityKey: string;
  private readonly ttlMs: number;
  private readonly timer: ReturnType<typeof setInterval>;
  /** When each user's activity was last written to Redis, to write at most once per user per interval. */
  private readonly activityWritten = new Map<number, number>();
  private readonly activityWriteEveryMs: number;

  constructor(
    private readonly redis: RedisLink,
    clock: () => number,
    private readonly log: FastifyBaseLogger,
    options: RedisPresenceOptions,
  ) {
    super(clock);
    this.connectionsKey = redis.key(`presence:connections:${this.instanceId}`);
    this.instancesKey = redis.key('presence:instances');
    this.activityKey = redis.key('presence:activity');
    this.ttlMs = options.heartbeatMs * 3;
    this.activityWriteEveryMs = Math.min(30_000, ACTIVITY_WINDOW_MS / 10);
    this.timer = setInterval(() => void this.heartbeat(), options.heartbeatMs);
    this.timer.unref();
    void this.heartbeat();
  }

  private failed(what: string) {
    return (error: unknown) => {
      this.log.warn({ err: error }, `presence: ${what} failed`);
    };
  }

  /** Rewrites this instance's counts whole, which also repairs whatever a Redis restart lost. */
  private async heartbeat(): Promise<void> {
    const now = Date.now();
    const counts = [...this.connections].flatMap(([userId, count]) => [String(userId), String(count)]);
    const multi = this.redis.commands.multi().del(this.connectionsKey);
    if (counts.length > 0) multi.hset(this.connectionsKey, ...counts).pexpire(this.connectionsKey, this.ttlMs);
    await multi
      .zadd(this.instancesKey, now, this.instanceId)
      .zremrangebyscore(this.instancesKey, '-inf', now - this.ttlMs)
      .zremrangebyscore(this.activityKey, '-inf', this.clock() - ACTIVITY_WINDOW_MS)
      .exec()
      .catch(this.failed('heartbeat'));
  }

  private writeCount(userId: number): void {
    const count = this.connections.get(userId) ?? 0;
    const multi = this.redis.commands.multi();
    if (count > 0) multi.hset(this.connectionsKey, String(userId), String(count)).pexpire(this.connectionsKey, this.ttlMs);
    else multi.hdel(this.connectionsKey, String(userId));
    void multi.zadd(this.instancesKey, Date.now(), this.instanceId).exec().catch(this.failed('connection count update'));
  }

  override connected(userId: number): void {
    super.connected(userId);
    this.writeCount(userId);
  }

  override disconnected(userId: number): void {
    super.disconnected(userId);
    this.writeCount(userId);
  }

  override touch(userId: number): void {
    super.touch(userId);
    const now = this.clock();
    const written = this.activityWritten.get(userId);
    if (written !== undefined && now - written < this.activityWriteEveryMs && now >= written) return;
    this.activityWritten.set(userId, now);
    if (this.activityWritten.size > 10_000)
      for (const [id, at] of this.activityWritten) if (now - at >= this.activityWriteEveryMs) this.activityWritten.delete(id);
    void this.redis.commands.zadd(this.activityKey, now, String(userId)).catch(this.failed('activity update'));
  }

  private async liveInstances(): Promise<string[]> {
    return this.redis.commands.zrangebyscore(this.instancesKey, Date.now() - this.ttlMs, '+inf');
  }

  private connectionsKeyOf(instanceId: string): string {
    return this.redis.key(`presence:connections:${instanceId}`);
  }

  override async isOnline(userId: number): Promise<boolean> {
    if (this.locallyOnline(userId)) return true;
    try {
      const instances = await this.liveInstances();
      const pipeline = this.redis.commands.pipeline().zscore(this.activityKey, String(userId));
      for (const instance of instances) pipeline.hexists(this.connectionsKeyOf(instance), String(userId));
      const results = (await pipeline.exec()) ?? [];
      const [activity, ...connections] = results.map(([error, value]) => {
        if (error) throw error;
        return value;
      });
      if (typeof activity === 'string' && Number(activity) > this.clock() - ACTIVITY_WINDOW_MS) return true;
      return connections.some((exists) => exists === 1);
    } catch (error) {
      this.failed('online check')(error);
      return false;
    }
  }

  override async onlineUserIds(): Promise<number[]> {
    const online = this.localOnline();
    try {
      const instances = await this.liveInstances();
      const pipeline = this.redis.commands.pipeline().zrangebyscore(this.activityKey, this.clock() - ACTIVITY_WINDOW_MS + 1, '+inf');
      for (const instance of instances) pipeline.hkeys(this.connectionsKeyOf(instance));
      for (const [error, value] of (await pipeline.exec()) ?? []) {
        if (error) throw error;
        if (Array.isArray(value)) for (const id of value) if (typeof id === 'string' && /^\d+$/.test(id)) online.add(Number(id));
      }
    } catch (error) {
      this.failed('online list')(error);
    }
    return [...online].sort((a, b) => a - b);
  }

  override async close(): Promise<void> {
    clearInterval(this.timer);
    await this.redis.commands.multi().del(this.connectionsKey).zrem(this.instancesKey, this.instanceId).exec().catch(this.failed('cleanup'));
  }
}
