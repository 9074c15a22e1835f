import type { FastifyReply } from 'fastify';
import { tooManyMessage } from '../auth/limits';

/** 429 with Retry-After in whole seconds (RFC 9110), and the wait in words for the person. */
export function tooMany(reply: FastifyReply, retryAfterMs: number) {
  return reply
    .code(429)
    .header('Retry-After', String(Math.max(1, Math.ceil(retryAfterMs / 1000))))
    .send({ message: tooManyMessage(retryAfterMs) });
}
