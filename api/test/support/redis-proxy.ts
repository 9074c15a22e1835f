import net from 'node:net';
import { SUBSCRIBER_CONNECTION_NAME } from '../../src/notifications/redis';

export interface RedisProxy {
  /** redis://127.0.0.1:<port>, to give an instance as its REDIS_URL. */
  url: string;
  /**
   * Holds back everything Redis sends to the instance's subscribed connection (its commands go on),
   * as if its backplane lagged behind; `release` hands over what was held, in order.
   */
  holdSubscriber(): { release: () => void };
  close(): Promise<void>;
}

/**
 * A TCP relay in front of Redis for one instance, so a test can make that instance's subscription
 * lag. It knows the subscribed connection by the name ioredis gives it (CLIENT SETNAME) on connecting.
 */
export async function startRedisProxy(target: string): Promise<RedisProxy> {
  const { hostname, port } = new URL(target);
  let held: Array<{ socket: net.Socket; chunk: Buffer }> | null = null;
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect(Number(port || 6379), hostname);
    let subscribed = false;
    let sent = '';
    sockets.add(client).add(upstream);
    client.on('data', (chunk: Buffer) => {
      if (!subscribed) {
        // Only the first bytes matter; keep enough of them to find a name split across two chunks.
        sent = (sent + chunk.toString('latin1')).slice(-4096);
        subscribed = sent.includes(SUBSCRIBER_CONNECTION_NAME);
      }
      upstream.write(chunk);
    });
    upstream.on('data', (chunk: Buffer) => {
      if (subscribed && held) held.push({ socket: client, chunk });
      else client.write(chunk);
    });
    const drop = () => {
      client.destroy();
      upstream.destroy();
      sockets.delete(client);
      sockets.delete(upstream);
    };
    client.on('close', drop).on('error', drop);
    upstream.on('close', drop).on('error', drop);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (typeof address !== 'object' || address === null) throw new Error('no proxy address');
  return {
    url: `redis://127.0.0.1:${address.port}`,
    holdSubscriber() {
      const buffer: Array<{ socket: net.Socket; chunk: Buffer }> = [];
      held = buffer;
      return {
        release: () => {
          if (held === buffer) held = null;
          for (const { socket, chunk } of buffer.splice(0)) socket.write(chunk);
        },
      };
    },
    close: async () => {
      held = null;
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
