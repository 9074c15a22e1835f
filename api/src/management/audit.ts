import type { Kysely, Transaction } from 'kysely';
import type { AuditEntry } from 'contracts';
import type { AuditTrailTable, Database } from '../db/schema';

type Executor = Kysely<Database> | Transaction<Database>;

export interface AuditEvent {
  actorId: number;
  action: string;
  entity: AuditTrailTable['entity'];
  entityId: number | null;
  summary: string;
  /** The caller's address as Fastify sees it (`request.ip`). */
  address: string;
}

/** Who makes a change and from where: what a service needs to write the change's audit entry itself. */
export type Actor = Pick<AuditEvent, 'actorId' | 'address'>;

/**
 * Records a management change. Called inside the change's own transaction, so the trail holds exactly
 * the changes that happened. The actor's e-mail is copied: the entry must survive the actor's deletion.
 */
export async function recordAudit(db: Executor, event: AuditEvent, nowMs: number): Promise<void> {
  const actor = await db.selectFrom('users').select('email').where('id', '=', event.actorId).executeTakeFirst();
  await db
    .insertInto('audit_trail')
    .values({
      at: new Date(nowMs).toISOString(),
      actor_id: event.actorId,
      actor_email: actor?.email ?? `user #${event.actorId}`,
      action: event.action,
      entity: event.entity,
      entity_id: event.entityId,
      summary: event.summary.slice(0, 500),
      address: event.address.slice(0, 64),
    })
    .execute();
}

/** Newest first. */
export async function readAudit(db: Executor, page: number, size: number): Promise<{ rows: AuditEntry[]; total: number }> {
  const [rows, count] = await Promise.all([
    db
      .selectFrom('audit_trail')
      .selectAll()
      .orderBy('id', 'desc')
      .limit(size)
      .offset((page - 1) * size)
      .execute(),
    db
      .selectFrom('audit_trail')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .executeTakeFirstOrThrow(),
  ]);
  return {
    total: Number(count.n),
    rows: rows.map((r) => ({
      id: r.id,
      at: r.at,
      actor: r.actor_email,
      action: r.action,
      entity: r.entity,
      entityId: r.entity_id,
      summary: r.summary,
      address: r.address,
    })),
  };
}
