import type { FastifyInstance } from 'fastify';

/**
 * Most of a refused request's unread body that is read and dropped so its connection can carry the
 * next request (an upload over the 10,000,000-byte limit is answered 413 with its last bytes unread).
 * A body declared larger, or one that keeps coming past this, gets its connection closed instead.
 */
export const DRAIN_LIMIT_BYTES = 16 * 1024 * 1024;

/**
 * Answers sent before the request's body was read to its end (an upload refused by size or quota, a JSON
 * body over the limit) never leave the connection hanging: Node reads on only for a body nobody touched,
 * so a multipart upload that stopped being read kept its kept-alive connection stalled until the client
 * gave up. The rest is read and dropped (within DRAIN_LIMIT_BYTES), or the answer says
 * `Connection: close` and Node closes the connection once it is sent.
 */
export function registerEarlyAnswers(app: FastifyInstance): void {
  app.addHook('onSend', async (request, reply, payload) => {
    const raw = request.raw;
    // `complete` is Node's (false while the body is still arriving); injected requests have none.
    if (raw.complete !== false) return payload;
    const declared = Number(raw.headers['content-length']);
    if (!Number.isFinite(declared) || declared > DRAIN_LIMIT_BYTES) reply.header('Connection', 'close');
    let drained = 0;
    // Whoever was reading it (the multipart parser) is done: the rest goes nowhere.
    raw.unpipe();
    raw.on('data', (chunk: Buffer) => {
      drained += chunk.length;
      if (drained > DRAIN_LIMIT_BYTES) raw.socket.destroy();
    });
    raw.resume();
    return payload;
  });
}
