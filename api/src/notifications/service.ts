import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { UserNotification } from '../contracts/notifications';
import type { Database } from '../db/schema';
import type { Backplane, BackplaneKind, HubBroadcast } from './backplane';
import type { Presence } from './presence';
import { insertNotifications, type NotificationContent } from './store';

/** The hub method the console listens to (specification §7). */
export const NEW_NOTIFICATION = 'NewNotification';
/** Hub event telling a console its session was ended by someone else; it then signs out. */
export const SESSION_ENDED = 'SessionEnded';

const ICONS: ReadonlySet<string> = new Set(['info', 'warning', 'success', 'error']);

/** The hub as the service needs it: invoke a client method on one user's connections here. */
export interface LocalHub {
  sendToUser(userId: number, target: string, args: unknown[]): number;
}

export interface NotificationServiceDeps {
  db: Kysely<Database>;
  backplane: Backplane;
  presence: Presence;
  hub: LocalHub;
  clock: () => number;
  log: FastifyBaseLogger;
}

/**
 * What other features use: `app.notifications.notify(userIds, content)` stores one notification per
 * user and pushes it live to every connection of theirs on any instance; `isOnline` / `onlineUserIds`
 * answer presence for the whole deployment.
 */
export class NotificationService {
  constructor(private readonly deps: NotificationServiceDeps) {}

  /**
   * Stores the notification for each user (unknown users are skipped) and sends each their own copy as
   * `NewNotification`. Resolves with what was stored, once it is stored and handed to the backplane;
   * users offline now see it on their next fetch.
   */
  async notify(userIds: readonly number[], content: NotificationContent): Promise<UserNotification[]> {
    if (!content.key || content.key.length > 100) throw new RangeError('notification key must be 1 to 100 characters');
    if (!content.title) throw new RangeError('notification title must not be empty');
    if (!ICONS.has(content.icon)) throw new RangeError(`notification icon must be one of ${[...ICONS].join(', ')}`);
    if (!content.variant || content.variant.length > 20) throw new RangeError('notification variant must be 1 to 20 characters');
    if (userIds.length === 0) return [];
    const stored = await insertNotifications(this.deps.db, userIds, content, new Date(this.deps.clock()).toISOString());
    if (stored.length === 0) return [];
    await this.broadcast({ target: NEW_NOTIFICATION, deliveries: stored.map(({ userId, notification }) => ({ userId, args: [notification] })) });
    return stored.map((s) => s.notification);
  }

  /** Hands a broadcast to every instance; if the backplane cannot take it, at least this instance's clients get it. */
  async broadcast(broadcast: HubBroadcast): Promise<void> {
    try {
      await this.deps.backplane.publish(broadcast);
    } catch (error) {
      this.deps.log.error({ err: error }, 'backplane publish failed: delivering to this instance only');
      this.deliverLocally(broadcast);
    }
  }

  /** Called by the backplane on every instance. */
  deliverLocally(broadcast: HubBroadcast): void {
    for (const { userId, args } of broadcast.deliveries) this.deps.hub.sendToUser(userId, broadcast.target, args);
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
