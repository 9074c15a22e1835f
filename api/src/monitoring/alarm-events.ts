import type { FastifyInstance } from 'fastify';
import { currentOperatorId } from '../db/operator-scope';

/**
 * `AlarmsChanged` hub event (issue 47): the alarm console of everyone working in the operator refreshes
 * its counters and list when a parse lands or alarms are acknowledged, with no reload. It carries no
 * data: each console reads through its own scoped calls (docs/tenancy.md), so nothing of the operator's
 * alarms travels to a connection that should not see them.
 */
export const ALARMS_CHANGED = 'AlarmsChanged';

export interface AlarmsChangedEvent {
  /** What happened: a parse stored (its id), or acknowledgements. */
  reason: 'parse' | 'acknowledgement';
  parseId: number | null;
}

/** Tells the consoles of the users whose current operator is the work's operator. Never throws: the work is done already. */
export async function announceAlarmsChanged(app: FastifyInstance, event: AlarmsChangedEvent): Promise<void> {
  const operatorId = currentOperatorId();
  if (operatorId === null || operatorId === undefined) return;
  try {
    const users = await app.services.db.selectFrom('users').select('id').where('operator_id', '=', operatorId).where('deactivated_at', 'is', null).execute();
    await app.notifications.broadcast({ target: ALARMS_CHANGED, deliveries: users.map((u) => ({ userId: u.id, args: [event] })) });
  } catch (error) {
    app.log.warn({ err: error }, 'AlarmsChanged not announced');
  }
}
