import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { accountEvents } from '../auth/events';
import { loadJwtSecret, verifySessionToken } from '../auth/jwt';
import {
  attachHub,
  ConnectionTokens,
  DEFAULT_HUB_TIMINGS,
  HUB_PATH,
  hubRoutes,
  HubServer,
  LocalUsedTokenRegistry,
  type HubTimings,
  type VerifyToken,
} from '../hub';
import { InProcessBackplane, RedisBackplane, RedisUsedTokenRegistry, type Backplane } from './backplane';
import { LocalPresence, RedisPresence, type Presence } from './presence';
import { RedisLink } from './redis';
import { notificationRoutes } from './routes';
import { NotificationService } from './service';
import type { NotificationContent } from './store';

export { ACTIVITY_WINDOW_MS } from './presence';
export { NEW_NOTIFICATION, NotificationService, SESSION_ENDED } from './service';
export type { NotificationContent } from './store';
export type { HubBroadcast } from './backplane';

declare module 'fastify' {
  interface FastifyInstance {
    /** Notify users, read presence: see NotificationService. */
    notifications: NotificationService;
  }
}

/** Tunables of the real-time features; production uses the defaults, tests shorten them. */
export interface RealtimeOptions {
  hub?: Partial<HubTimings>;
  /** Prefix of every Redis key and channel (default `cellwise:`); tests isolate parallel runs with a random one. */
  redisPrefix?: string;
  /** How often an instance re-asserts its presence entries in Redis. */
  presenceHeartbeatMs?: number;
}

export const PASSWORD_CHANGED: NotificationContent = { key: 'password-changed', title: 'Your password was changed.', icon: 'info', variant: 'info' };

/**
 * Services of this process that handle account events. `accountEvents` is one emitter per process, so
 * with several apps in one process (tests of scale-out) only the first live one reacts, or a password
 * change would be announced once per app.
 */
const accountEventHandlers: NotificationService[] = [];

function handleAccountEvents(service: NotificationService, log: FastifyBaseLogger): () => void {
  accountEventHandlers.push(service);
  const onPasswordChanged = (userId: number) => {
    if (accountEventHandlers[0] !== service) return;
    service.notify([userId], PASSWORD_CHANGED).catch((error: unknown) => log.error({ err: error, userId }, 'could not notify a password change'));
  };
  accountEvents.on('passwordChanged', onPasswordChanged);
  return () => {
    accountEvents.off('passwordChanged', onPasswordChanged);
    const index = accountEventHandlers.indexOf(service);
    if (index >= 0) accountEventHandlers.splice(index, 1);
  };
}

/**
 * Notifications, the SignalR hub at /api/notificationhub and presence, wired into the app: decorates
 * `app.notifications`, registers the routes under /api, handles WebSocket upgrades on `app.server`, and
 * marks API activity for presence. Call before registering other routes (its activity hook must see them)
 * and after the access control (`app.auth`).
 */
export async function registerNotifications(app: FastifyInstance, options: RealtimeOptions = {}): Promise<NotificationService> {
  const { config, db } = app.services;
  const log = app.log.child({ module: 'notifications' });
  const clock = app.auth.clock;
  const timings: HubTimings = { ...DEFAULT_HUB_TIMINGS, ...options.hub };
  const secret = loadJwtSecret(config);

  const redis = config.redisUrl ? new RedisLink(config.redisUrl, options.redisPrefix ?? 'cellwise:', log) : null;
  const backplane: Backplane = redis ? new RedisBackplane(redis, log) : new InProcessBackplane();
  const presence: Presence = redis ? new RedisPresence(redis, clock, log, { heartbeatMs: options.presenceHeartbeatMs ?? 10_000 }) : new LocalPresence(clock);
  const localTokens = new LocalUsedTokenRegistry();
  const tokens = new ConnectionTokens(secret, redis ? new RedisUsedTokenRegistry(redis, localTokens, log) : localTokens, timings.connectionTokenTtlMs);

  // Exactly the bearer check of the access hook (signature, expiry, deactivation, password change),
  // plus the expiry, which the hub needs to end a connection when its session ends.
  const verifyToken: VerifyToken = async (token) => {
    const claims = verifySessionToken(token, secret, Math.floor(clock() / 1000));
    if (!claims) return null;
    const session = await app.auth.authenticate(token);
    return session ? { userId: session.userId, expiresAt: claims.exp * 1000 } : null;
  };

  const hub = new HubServer({
    verifyToken,
    tokens,
    timings,
    clock,
    log: app.log.child({ module: 'hub' }),
    listener: { connected: (userId) => presence.connected(userId), disconnected: (userId) => presence.disconnected(userId) },
  });
  const service = new NotificationService({ db, backplane, presence, hub, clock, log });
  backplane.subscribe((message) => service.receive(message));
  if (!(await backplane.ready(2000))) log.warn('starting without the Redis backplane; notifications reach this instance only until it connects');

  app.decorate('notifications', service);
  const detachHub = attachHub(app.server, hub);
  const stopAccountEvents = handleAccountEvents(service, log);

  app.addHook('onResponse', async (request) => {
    // The hub's own requests (polls, the POSTs of Server-Sent Events and Long Polling) are the
    // connection, not activity: presence must end with them as it does with a WebSocket.
    if (request.session && request.routeOptions.url?.toLowerCase() !== HUB_PATH) presence.touch(request.session.userId);
  });
  // Before the HTTP server waits for its connections: open WebSockets would hold it up.
  app.addHook('preClose', async () => {
    detachHub();
    stopAccountEvents();
    await hub.close();
  });
  app.addHook('onClose', async () => {
    service.close();
    await presence.close();
    await backplane.close();
    await redis?.close();
  });

  await app.register(hubRoutes, { prefix: '/api', hub });
  await app.register(notificationRoutes, { prefix: '/api' });
  return service;
}
