import type { Server } from 'node:http';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from '@sinclair/typebox';
import { ErrorResponse, HubTransportQuery, NegotiateQuery, NegotiateResponse } from 'contracts';
import { DEFAULT_HUB_TIMINGS, sessionTokenOf, type HubHttpRequest, type HubRefusal, type HubServer } from './server';

export { ConnectionTokens, LocalUsedTokenRegistry, type UsedTokenRegistry } from './connection-tokens';
export { DEFAULT_HUB_TIMINGS, HUB_MESSAGES, HUB_PATH, HubServer, type HubIdentity, type HubListener, type HubTimings, type VerifyToken } from './server';

/** What the client sends in one POST: handshakes, pings and the odd invocation (as much as one WebSocket message may carry). */
export const HUB_POST_LIMIT_BYTES = 64 * 1024;

/** The request as the hub judges it, once the access hook has accepted its session. */
function hubRequestOf(request: FastifyRequest, connectionToken: string): HubHttpRequest | null {
  const session = request.session;
  // The access hook has removed `access_token` from the parsed query; the raw URL still has it.
  const sessionToken = sessionTokenOf(request.raw, new URL(request.raw.url ?? '/', 'http://hub.invalid').searchParams);
  if (!session || !sessionToken) return null;
  return { connectionToken, userId: session.userId, sessionToken };
}

function refuse(reply: FastifyReply, refusal: HubRefusal): FastifyReply {
  return reply.code(refusal.status).send({ message: refusal.message });
}

const UNAUTHENTICATED = { status: 401, message: 'Please sign in to continue.' } as const;

/** `POST /api/notificationhub/negotiate` (registered under the `/api` prefix). */
export const hubRoutes: FastifyPluginAsyncTypebox<{ hub: HubServer }> = async (app, { hub }) => {
  app.post(
    '/notificationhub/negotiate',
    {
      schema: {
        summary: 'SignalR negotiate for the notification hub: a one-time token for one connection, over any of its transports',
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
        availableTransports: [
          { transport: 'WebSockets' as const, transferFormats: ['Text' as const, 'Binary' as const] },
          // Text only: Server-Sent Events cannot carry binary, and the JSON protocol (the only one
          // spoken here) never asks Long Polling for it.
          { transport: 'ServerSentEvents' as const, transferFormats: ['Text' as const] },
          { transport: 'LongPolling' as const, transferFormats: ['Text' as const] },
        ],
      };
    },
  );

  // What the client sends comes as text/plain (the official client) or untyped; it is the hub's to
  // parse, as records of its protocol. Only in this plugin: every other route keeps its parsers.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'string' }, (_request, body, done) => done(null, body));

  // The session token may come in the query, as for negotiate: an EventSource cannot set headers.
  const config = { access: 'authenticated', queryToken: true } as const;
  const errors = { 400: ErrorResponse, 401: ErrorResponse, 404: ErrorResponse, 409: ErrorResponse, 503: ErrorResponse };

  app.get(
    '/notificationhub',
    {
      schema: {
        summary: "The hub's Server-Sent Events stream (Accept: text/event-stream) or a long poll (otherwise)",
        description:
          'Server-Sent Events: one unnamed event per hub message; a second stream for the same id is refused (409). ' +
          `Long polling: the first poll opens the connection and answers at once; later ones answer 200 with what is queued, or empty after ${DEFAULT_HUB_TIMINGS.pollTimeoutMs / 1000} s ` +
          'at most, and 204 once the connection is over. A newer poll answers an older one still held with 204.',
        tags: ['notifications'],
        security: [{ bearer: [] }],
        querystring: HubTransportQuery,
        response: { 200: Type.String({ description: 'Hub messages (text/event-stream or text/plain)' }), 204: Type.Null(), ...errors },
      },
      config,
      // A HEAD would open connections nobody reads.
      exposeHeadRoute: false,
    },
    async (request, reply) => {
      const hubRequest = hubRequestOf(request, request.query.id);
      if (!hubRequest) return refuse(reply, UNAUTHENTICATED);
      if (/\btext\/event-stream\b/i.test(request.headers.accept ?? '')) {
        const refusal = await hub.openEventStream(hubRequest, request.id, () => {
          reply.hijack();
          return reply.raw;
        });
        return refusal ? refuse(reply, refusal) : reply;
      }
      const answer = await hub.poll(hubRequest, reply.raw);
      if ('message' in answer) return refuse(reply, answer);
      if (answer.status === 204) return reply.code(204).send(null);
      return reply.code(200).header('cache-control', 'no-cache').type('text/plain; charset=utf-8').send(answer.body);
    },
  );

  app.post(
    '/notificationhub',
    {
      schema: {
        summary: 'Hub messages from a client of the Server-Sent Events or Long Polling transport',
        description: `Records of the JSON hub protocol, each ending with 0x1E, ${HUB_POST_LIMIT_BYTES / 1024} KB at most. A body that breaks the protocol is refused (400) and ends the connection.`,
        tags: ['notifications'],
        security: [{ bearer: [] }],
        querystring: HubTransportQuery,
        response: { 200: Type.String(), 413: ErrorResponse, ...errors },
      },
      config,
      bodyLimit: HUB_POST_LIMIT_BYTES,
    },
    async (request, reply) => {
      const hubRequest = hubRequestOf(request, request.query.id);
      if (!hubRequest) return refuse(reply, UNAUTHENTICATED);
      const body = typeof request.body === 'string' ? request.body : '';
      const refusal = await hub.post(hubRequest, body);
      return refusal ? refuse(reply, refusal) : reply.code(200).type('text/plain; charset=utf-8').send('');
    },
  );

  app.delete(
    '/notificationhub',
    {
      schema: {
        summary: 'Ends a long-polling hub connection (its waiting poll is answered 204)',
        tags: ['notifications'],
        security: [{ bearer: [] }],
        querystring: HubTransportQuery,
        response: { 202: Type.Null(), ...errors },
      },
      config,
    },
    async (request, reply) => {
      const hubRequest = hubRequestOf(request, request.query.id);
      if (!hubRequest) return refuse(reply, UNAUTHENTICATED);
      const refusal = await hub.remove(hubRequest);
      return refusal ? refuse(reply, refusal) : reply.code(202).send(null);
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
