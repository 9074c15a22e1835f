import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Session } from '../auth/runtime';
import type { AuditEvent } from '../management/audit';

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

/** An audit-trail entry for a change the caller is making: who (the session) and from where (the request). */
export function auditEvent(request: FastifyRequest, entity: AuditEvent['entity'], action: string, entityId: number | null, summary: string): AuditEvent {
  return { actorId: userIdOf(request), action, entity, entityId, summary, address: request.ip };
}
