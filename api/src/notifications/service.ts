import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { UserNotification } from 'contracts';
import type { Database } from '../db/schema';
import { settledWithin } from '../lib/settled-within';
import type { Backplane, BackplaneKind, BackplaneMessage, HubBroadcast } from './backplane';
import { PendingStores } from './pending';
import type { Presence } from './presence';
import { prepareNotifications, saveNotifications, type NotificationContent } from './store';

/** The hub method the console listens to (specification §7). */
export const NEW_NOTIFICATION = 'NewNotification';
/** Hub event telling a console its session was ended by someone else; it then signs out. */
export const SESSION_ENDED = 'SessionEnded';

const ICONS: ReadonlySet<string> = new Set(['info', 'warning', 'success', 'error']);

/** The hub as the service needs it: invoke a client method on one user's connections here. */
export interface LocalHub {
  sendToUser(userId: number, target: string, args: unknown[]): number;
  /** Connections open here, over any transport. */
  readonly connectionCount: number;
}

export interface NotificationServiceDeps {
  db: Kysely<Database>;
  backplane: Backplane;
  presence: Presence;
  hub: LocalHub;
  clock: () => number;
  log: FastifyBaseLogger;
}

/** How long reads wait for another instance to say it finished writing notifications it sent (it may have died). */
export const REMOTE_STORE_WAIT_MS = 5000;
/** How long local delivery of a notification waits for the backplane to take its announcement. */
const PUBLISH_BEFORE_DELIVERY_WAIT_MS = 1000;
/** How long a read waits for the backplane to hand over what it already took (Redis may hang). */
const CATCH_UP_WAIT_MS = 1000;

/**
 * What other features use: `app.notifications.notify(userIds, content)` stores one notification per
 * user and pushes it live to every connection of theirs on any instance; `isOnline` / `onlineUserIds`
 * answer presence for the whole deployment.
 */
export class NotificationService {
  /** This instance on the backplane: it delivers to its own connections itself, not through Redis. */
  private readonly origin = randomUUID();
  private readonly pending = new PendingStores();

  constructor(private readonly deps: NotificationServiceDeps) {}

  /** Hub connections open on this instance, whichever transport each runs on (the metrics read it). */
  get connectionCount(): number {
    return this.deps.hub.connectionCount;
  }

  /**
   * Stores the notification for each user (unknown users are skipped) and sends each their own copy as
   * `NewNotification`. The sending does not wait for the write: the ids are taken first, the copies go
   * out, then all rows are written in one statement, and reads of these users' notifications (on any
   * instance) wait for that write. Resolves with what was stored, once it is stored; users offline now
   * see it on their next fetch.
   */
  async notify(userIds: readonly number[], content: NotificationContent): Promise<UserNotification[]> {
    if (!content.key || content.key.length > 100) throw new RangeError('notification key must be 1 to 100 characters');
    if (!content.title) throw new RangeError('notification title must not be empty');
    if (!ICONS.has(content.icon)) throw new RangeError(`notification icon must be one of ${[...ICONS].join(', ')}`);
    if (!content.variant || content.variant.length > 20) throw new RangeError('notification variant must be 1 to 20 characters');
    if (userIds.length === 0) return [];
    const prepared = await prepareNotifications(this.deps.db, userIds, content, new Date(this.deps.clock()).toISOString());
    if (prepared.notifications.length === 0) return [];
    const batch = randomUUID();
    const saving = saveNotifications(this.deps.db, prepared);
    // Within this synchronous stretch nothing else runs: no read can slip in before it is tracked.
    this.pending.track(
      prepared.notifications.map((n) => n.userId),
      saving.then(
        () => undefined,
        () => undefined,
      ),
    );
    const published = this.send(
      { target: NEW_NOTIFICATION, deliveries: prepared.notifications.map(({ userId, notification }) => ({ userId, args: [notification] })) },
      batch,
    );
    try {
      const stored = await saving;
      return stored.map((s) => s.notification);
    } catch (error) {
      this.deps.log.error({ err: error }, 'notifications were sent but could not be stored');
      throw error;
    } finally {
      // After the announcement, so other instances see the two in order.
      await published;
      await this.publish({ origin: this.origin, stored: batch });
    }
  }

  /**
   * Resolves once the notifications already sent to this user are written (see `notify`), including
   * those another instance delivered: its announcement reached the backplane before its delivery, and
   * `caughtUp` hands this instance every message the backplane took before this read began.
   */
  async storedFor(userId: number): Promise<void> {
    await this.deps.backplane.caughtUp(CATCH_UP_WAIT_MS);
    await this.pending.settled(userId);
  }

  /** Delivers to this instance's connections now, and hands the broadcast to the other instances. */
  async broadcast(broadcast: HubBroadcast): Promise<void> {
    await this.send(broadcast);
  }

  private send(broadcast: HubBroadcast, storing?: string): Promise<void> {
    if (!storing) {
      this.deliverLocally(broadcast);
      return this.publish({ origin: this.origin, broadcast });
    }
    // A console on this instance may fetch its list through another one the moment the notification
    // arrives. Delivering only once the backplane has taken the message (and announced the write to
    // every instance) orders the two: see `storedFor`. A backplane that does not answer in time does
    // not hold this instance's own clients back.
    const published = this.publish({ origin: this.origin, broadcast, storing });
    return settledWithin(published, PUBLISH_BEFORE_DELIVERY_WAIT_MS).then(() => {
      this.deliverLocally(broadcast);
      return published;
    });
  }

  /** If the backplane cannot take a message, this instance's clients have theirs anyway. */
  private async publish(message: BackplaneMessage): Promise<void> {
    try {
      await this.deps.backplane.publish(message);
    } catch (error) {
      this.deps.log.error({ err: error }, 'backplane publish failed: delivered to this instance only');
    }
  }

  /** Called by the backplane with every instance's messages, this one's included. */
  receive(message: BackplaneMessage): void {
    if (message.origin === this.origin) return;
    if (message.broadcast) {
      if (message.storing)
        this.pending.trackRemote(
          message.storing,
          message.broadcast.deliveries.map((d) => d.userId),
          REMOTE_STORE_WAIT_MS,
        );
      this.deliverLocally(message.broadcast);
    }
    if (message.stored) this.pending.settleRemote(message.stored);
  }

  deliverLocally(broadcast: HubBroadcast): void {
    for (const { userId, args } of broadcast.deliveries) this.deps.hub.sendToUser(userId, broadcast.target, args);
  }

  /** Lets reads waiting for other instances' writes go on (shutdown). */
  close(): void {
    this.pending.close();
  }

  /**
   * Tells every open console of these users that their session is over (deactivated, deleted), so they
   * sign out now rather than at their next request. Their tokens must already be refused.
   */
  async endSessions(userIds: readonly number[]): Promise<void> {
    if (userIds.length === 0) return;
    await this.broadcast({ target: SESSION_ENDED, deliveries: userIds.map((userId) => ({ userId, args: [] })) });
  }

  isOnline(userId: number): Promise<boolean> {
    return this.deps.presence.isOnline(userId);
  }

  onlineUserIds(): Promise<number[]> {
    return this.deps.presence.onlineUserIds();
  }

  async backplaneStatus(): Promise<{ kind: BackplaneKind; reachable: boolean }> {
    return { kind: this.deps.backplane.kind, reachable: await this.deps.backplane.reachable() };
  }
}
