import type { Server } from 'node:http';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ErrorResponse } from '../contracts/common';
import { NegotiateQuery, NegotiateResponse } from '../contracts/notifications';
import type { HubServer } from './server';

export { ConnectionTokens, LocalUsedTokenRegistry, type UsedTokenRegistry } from './connection-tokens';
export { DEFAULT_HUB_TIMINGS, HUB_MESSAGES, HUB_PATH, HubServer, type HubIdentity, type HubListener, type HubTimings, type VerifyToken } from './server';

/** `POST /api/notificationhub/negotiate` (registered under the `/api` prefix). */
export const hubRoutes: FastifyPluginAsyncTypebox<{ hub: HubServer }> = async (app, { hub }) => {
  app.post(
    '/notificationhub/negotiate',
    {
      schema: {
        summary: 'SignalR negotiate for the notification hub: a one-time token for its WebSocket',
        tags: ['notifications'],
        security: [{ bearer: [] }],
        querystring: NegotiateQuery,
        response: { 200: NegotiateResponse, 401: ErrorResponse },
      },
      // Specification §7: the hub takes the token in the query.
      config: { access: 'authenticated', queryToken: true },
    },
    async (request, reply) => {
      // The access hook has already refused a request without a valid session.
      if (!request.session) return reply.code(401).send({ message: 'Please sign in to continue.' });
      const { connectionId, connectionToken } = hub.negotiate(request.session.userId);
      return {
        negotiateVersion: 1 as const,
        connectionId,
        connectionToken,
        availableTransports: [{ transport: 'WebSockets' as const, transferFormats: ['Text', 'Binary'] }],
      };
    },
  );
};

/** Routes the HTTP server's upgrade requests for the hub path to the hub; answers a detach function. */
export function attachHub(server: Server, hub: HubServer): () => void {
  const listener = (request: Parameters<HubServer['handleUpgrade']>[0], socket: Parameters<HubServer['handleUpgrade']>[1], head: Buffer) => {
    if (hub.handleUpgrade(request, socket, head)) return;
    // Another listener may own this path; if none does, the client must not be left hanging.
    if (server.listenerCount('upgrade') === 1) {
      socket.on('error', () => socket.destroy());
      socket.end('HTTP/1.1 404 Not Found\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
    }
  };
  server.on('upgrade', listener);
  return () => server.off('upgrade', listener);
}
