import type { Kysely } from 'kysely';
import { DISCARDED_LABEL, type DiscardPlanResponse, type RunSummaryItem } from 'contracts';
import type { Database } from '../db/schema';
import { freeRun } from './reservations';

/**
 * 'Discard plan' (issue 46): a planning run's reservations are freed, so the next plans may take its
 * PCIs and PRACH roots, and the run says so wherever it is shown again — its history row's outcome and
 * its result lead with 'Discarded', its message with who discarded it and when. The workbook stays.
 */

type Db = Kysely<Database>;

export const DISCARD_MESSAGES = {
  notFound: 'Run not found.',
  already: (when: string) => `This plan was already discarded (${when}).`,
  done: (runId: number, freed: number) =>
    `Plan ${runId} discarded: ${freed === 0 ? 'it held no reserved NR cell any more' : `${freed} reserved NR cell${freed === 1 ? '' : 's'} freed`}.`,
} as const;

export class DiscardRefusal extends Error {
  constructor(
    readonly status: 404 | 409,
    message: string,
  ) {
    super(message);
  }
}

interface Discarded {
  at: string;
  by: string;
}

function parsed<T>(json: string | null, fallback: T): T {
  try {
    return json === null ? fallback : (JSON.parse(json) as T);
  } catch {
    return fallback;
  }
}

/** `28-02-2026 14:30:00 UTC`: the specification's date format. */
function stamp(iso: string): string {
  const d = new Date(iso);
  const two = (n: number) => String(n).padStart(2, '0');
  return `${two(d.getUTCDate())}-${two(d.getUTCMonth() + 1)}-${d.getUTCFullYear()} ${two(d.getUTCHours())}:${two(d.getUTCMinutes())}:${two(d.getUTCSeconds())} UTC`;
}

/** Discards a planning run of the current operator (another operator's is not found); throws DiscardRefusal. */
export async function discardPlan(db: Db, runId: number, by: string, now = new Date()): Promise<DiscardPlanResponse> {
  return db.transaction().execute(async (trx) => {
    const run = await trx
      .selectFrom('runs')
      .select(['id', 'parameters', 'summary', 'message'])
      .where('id', '=', runId)
      .where('kind', '=', 'parameterPlanning')
      .executeTakeFirst();
    if (!run) throw new DiscardRefusal(404, DISCARD_MESSAGES.notFound);
    const parameters = parsed<Record<string, unknown>>(run.parameters, {});
    const earlier = parameters.discarded as Discarded | undefined;
    if (earlier && typeof earlier.at === 'string') throw new DiscardRefusal(409, DISCARD_MESSAGES.already(`${stamp(earlier.at)} by ${earlier.by}`));

    const freed = await freeRun(trx, runId);
    const discarded: Discarded = { at: now.toISOString(), by };
    const summary = parsed<RunSummaryItem[]>(run.summary, []);
    const lead: RunSummaryItem = { label: DISCARDED_LABEL, count: 1, tone: 'info' };
    const note = `Discarded by ${by} on ${stamp(discarded.at)}: its reserved NR cells were freed.`;
    await trx
      .updateTable('runs')
      .set({
        parameters: JSON.stringify({ ...parameters, discarded }),
        summary: JSON.stringify([lead, ...summary]),
        message: run.message ? `${note} ${run.message}` : note,
      })
      .where('id', '=', runId)
      .execute();
    return { runId, freed, message: DISCARD_MESSAGES.done(runId, freed) };
  });
}
