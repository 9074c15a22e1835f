import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Session } from '../auth/runtime';
import type { RunResponse } from 'contracts';
import type { JobRecord } from '../jobs';
import type { Actor, AuditEvent } from '../management/audit';

/** The caller's session. Routes with `access` other than 'public' only run with one; this keeps the compiler convinced. */
export function sessionOf(request: FastifyRequest): Session {
  if (!request.session) throw Object.assign(new Error('Please sign in to continue.'), { statusCode: 401 });
  return request.session;
}

export function userIdOf(request: FastifyRequest): number {
  return sessionOf(request).userId;
}

/** Answers `{ message }` with the status (docs/architecture.md#api-conventions). */
export function fail(reply: FastifyReply, status: number, message: string) {
  return reply.code(status).send({ message });
}

/** The caller as a management service records them in the audit trail. */
export function actorOf(request: FastifyRequest): Actor {
  return { actorId: userIdOf(request), address: request.ip };
}

/** An audit-trail entry for a change the caller is making: who (the session) and from where (the request). */
export function auditEvent(request: FastifyRequest, entity: AuditEvent['entity'], action: string, entityId: number | null, summary: string): AuditEvent {
  return { actorId: userIdOf(request), action, entity, entityId, summary, address: request.ip };
}

/**
 * A job's answer, as the call that started it has always answered (§7's call shapes stay). `pick`
 * shapes a 200 body when the job's answer carries more than the contract (e.g. a notification's words).
 */
export function answerOf(reply: FastifyReply, job: JobRecord, pick?: (body: Record<string, unknown>) => unknown) {
  const outcome = job.outcome ?? { status: 500, body: { message: 'Something went wrong!' } };
  const body = outcome.status === 200 && pick ? pick(outcome.body as Record<string, unknown>) : outcome.body;
  return reply.code(outcome.status).send(body);
}

/** A run job's answer: exactly RunResponse on success (contracts/runs.ts), or the refusal. */
export function runAnswerOf(reply: FastifyReply, job: JobRecord) {
  return answerOf(reply, job, (body) => {
    const { runId, file, message, summary, preview } = body as unknown as RunResponse;
    return { runId, ...(file ? { file } : {}), ...(message ? { message } : {}), summary, preview };
  });
}
