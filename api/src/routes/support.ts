import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Session } from '../auth/runtime';

/** The caller's session. Routes with `access` other than 'public' only run with one; this keeps the compiler convinced. */
export function sessionOf(request: FastifyRequest): Session {
  if (!request.session) throw Object.assign(new Error('Please sign in to continue.'), { statusCode: 401 });
  return request.session;
}

export function userIdOf(request: FastifyRequest): number {
  return sessionOf(request).userId;
}

/** Answers `{ message }` with the status (DESIGN §3). */
export function fail(reply: FastifyReply, status: number, message: string) {
  return reply.code(status).send({ message });
}
