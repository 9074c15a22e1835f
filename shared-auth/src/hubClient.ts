/**
 * The browser's side of the notification hub: the official `@microsoft/signalr` client (the product's
 * stack names it). It negotiates a transport with the API's hub (WebSockets, else Server-Sent Events,
 * else Long Polling, so a proxy that blocks WebSockets does not cut the console off) and reconnects by
 * itself. This module is imported with the first connection (hub.ts), so the client is never on a
 * page's critical path and a signed-out page never loads it.
 */
import { HubConnectionBuilder, LogLevel, type ILogger } from '@microsoft/signalr';

export interface HubClientOptions {
  /** The hub's URL (`/api/notificationhub`), relative to the page or absolute. */
  url: string;
  /** Asked before every request of the connection, so a reconnect takes the session's current token. */
  accessToken: () => string;
  /** Server-to-client methods by name. */
  handlers: Record<string, (...args: unknown[]) => void>;
  /**
   * How long to wait before the next reconnect attempt after `retries` failed ones, or null to give up
   * (the connection then closes and `onClose` is told).
   */
  retryDelay: (retries: number) => number | null;
  /** The connection came back after a reconnect: whatever was sent meanwhile was missed. */
  onReconnected: () => void;
  /** The connection dropped, and it is trying again (the error says why, when there is one). */
  onReconnecting?: (error?: Error) => void;
  /** The connection ended for good after it had started (not called for {@link HubClient.stop}). */
  onClose: (error?: Error) => void;
}

export interface HubClient {
  stop: () => void;
}

/**
 * The client's own log goes to the browser console only for what a developer must see: a transport it
 * could not start is normal where WebSockets are blocked (it falls back), so it is not an error here.
 */
const quietLogger: ILogger = {
  log(level: LogLevel, message: string) {
    if (level >= LogLevel.Critical) console.error(`[hub] ${message}`);
  },
};

/** Negotiates, connects and completes the handshake; resolves once the server has accepted it. */
export async function startHubClient(options: HubClientOptions): Promise<HubClient> {
  const connection = new HubConnectionBuilder()
    .withUrl(options.url, { accessTokenFactory: options.accessToken })
    .withAutomaticReconnect({ nextRetryDelayInMilliseconds: ({ previousRetryCount }) => options.retryDelay(previousRetryCount) })
    .configureLogging(quietLogger)
    .build();
  for (const [name, handler] of Object.entries(options.handlers)) connection.on(name, handler);
  let stoppedByCaller = false;
  connection.onreconnected(() => options.onReconnected());
  connection.onreconnecting((error) => options.onReconnecting?.(error));
  connection.onclose((error) => {
    if (!stoppedByCaller) options.onClose(error);
  });
  await connection.start();
  return {
    stop: () => {
      stoppedByCaller = true;
      void connection.stop();
    },
  };
}
