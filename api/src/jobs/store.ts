import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';
import { JOB_MESSAGES, type JobOutcome, type JobRecord, type JobState } from './model';
import { LOCKED, writeWhenFree, writeWithoutWaiting } from './lock-wait';
import type { JobsTable } from './tables';

type Db = Kysely<Database>;

function parse(text: string | null): unknown {
  if (text === null) return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}

export function recordOf(row: JobsTable): JobRecord {
  return {
    id: row.id,
    kind: row.kind,
    ownerId: row.owner_id,
    operatorId: row.operator_id === null || row.operator_id === undefined ? null : Number(row.operator_id),
    params: parse(row.params),
    state: row.state as JobState,
    progress: row.progress,
    progressText: row.progress_text,
    createdAt: row.created_at,
    startedAt: row.started_at,
    finishedAt: row.finished_at,
    outcome: parse(row.result) as JobOutcome | null,
    error: row.error,
    attempts: row.attempts,
  };
}

export async function insertJob(
  db: Db,
  job: { id: string; kind: string; ownerId: number | null; operatorId: number | null; params: unknown; now: string },
): Promise<void> {
  await writeWhenFree(db, (db) =>
    db
      .insertInto('jobs')
      .values({
        id: job.id,
        kind: job.kind,
        owner_id: job.ownerId,
        operator_id: job.operatorId,
        params: JSON.stringify(job.params ?? null),
        state: 'queued',
        progress: 0,
        progress_text: null,
        created_at: job.now,
        started_at: null,
        finished_at: null,
        result: null,
        error: null,
        attempts: 0,
        instance_id: null,
        heartbeat_at: null,
      })
      .execute(),
  );
}

export async function findJob(db: Db, id: string): Promise<JobRecord | null> {
  const row = await db.selectFrom('jobs').selectAll().where('id', '=', id).executeTakeFirst();
  return row ? recordOf(row) : null;
}

/**
 * Takes a queued job for this instance. One conditional UPDATE: whichever instance changes the row
 * runs the job, so even a queue that delivered twice runs it once.
 */
export async function claimJob(db: Db, id: string, instanceId: string, now: string): Promise<JobRecord | null> {
  const claimed = await writeWhenFree(db, (db) =>
    db
      .updateTable('jobs')
      .set((eb) => ({ state: 'running', started_at: now, heartbeat_at: now, instance_id: instanceId, attempts: eb('attempts', '+', 1) }))
      .where('id', '=', id)
      .where('state', '=', 'queued')
      .executeTakeFirst(),
  );
  if (Number(claimed.numUpdatedRows) !== 1) return null;
  return findJob(db, id);
}

/**
 * Records a running job's progress; answers false, without waiting, when SQLite's write lock is taken
 * (a worker thread's transaction): the caller keeps it and writes a later one.
 */
export async function saveProgress(db: Db, id: string, progress: number, text: string | null, now: string): Promise<boolean> {
  const done = await writeWithoutWaiting(db, (db) =>
    db.updateTable('jobs').set({ progress, progress_text: text, heartbeat_at: now }).where('id', '=', id).where('state', '=', 'running').execute(),
  );
  return done !== LOCKED;
}

/**
 * Records the end of a run by this instance. A run that another instance already declared interrupted
 * (its heartbeat stopped) keeps that verdict: answers false then.
 */
export async function finishJob(
  db: Db,
  id: string,
  instanceId: string,
  state: 'succeeded' | 'failed',
  outcome: JobOutcome,
  error: string | null,
  now: string,
): Promise<boolean> {
  // Patient: the waiting caller is answered only once this is written.
  const done = await writeWhenFree(
    db,
    (db) =>
      db
        .updateTable('jobs')
        .set({ state, finished_at: now, result: JSON.stringify(outcome), error, ...(state === 'succeeded' ? { progress: 100, progress_text: null } : {}) })
        .where('id', '=', id)
        .where('state', '=', 'running')
        .where('instance_id', '=', instanceId)
        .executeTakeFirst(),
    10 * 60_000,
  );
  return Number(done.numUpdatedRows) === 1;
}

/**
 * Marks the heartbeat of every job this instance runs, so other instances can tell it is alive. Answers
 * false, without waiting, when SQLite's write lock is taken: the caller tries again soon.
 */
export async function beat(db: Db, instanceId: string, now: string): Promise<boolean> {
  const done = await writeWithoutWaiting(db, (db) =>
    db.updateTable('jobs').set({ heartbeat_at: now }).where('state', '=', 'running').where('instance_id', '=', instanceId).execute(),
  );
  return done !== LOCKED;
}

/** Running jobs whose heartbeat is older than `staleBefore`: the process that ran them has died. */
export async function orphanedJobs(db: Db, staleBefore: string): Promise<JobRecord[]> {
  const rows = await db
    .selectFrom('jobs')
    .selectAll()
    .where('state', '=', 'running')
    .where((eb) => eb.or([eb('heartbeat_at', 'is', null), eb('heartbeat_at', '<', staleBefore)]))
    .execute();
  return rows.map(recordOf);
}

export async function markInterrupted(db: Db, id: string, now: string): Promise<boolean> {
  const outcome: JobOutcome = { status: 500, body: { message: JOB_MESSAGES.interrupted } };
  const done = await writeWhenFree(db, (db) =>
    db
      .updateTable('jobs')
      .set({ state: 'failed', finished_at: now, error: JOB_MESSAGES.interrupted, result: JSON.stringify(outcome) })
      .where('id', '=', id)
      .where('state', '=', 'running')
      .executeTakeFirst(),
  );
  return Number(done.numUpdatedRows) === 1;
}

/** Puts a job back in the queue (an idempotent kind after a restart, or a retry). */
export async function requeueJob(db: Db, id: string, fromStates: readonly JobState[]): Promise<boolean> {
  const done = await writeWhenFree(db, (db) =>
    db
      .updateTable('jobs')
      .set({ state: 'queued', progress: 0, progress_text: null, started_at: null, finished_at: null, result: null, error: null, instance_id: null })
      .where('id', '=', id)
      .where('state', 'in', [...fromStates])
      .executeTakeFirst(),
  );
  return Number(done.numUpdatedRows) === 1;
}

export async function cancelQueuedJob(db: Db, id: string, now: string): Promise<boolean> {
  const outcome: JobOutcome = { status: 409, body: { message: JOB_MESSAGES.cancelled } };
  const done = await writeWhenFree(db, (db) =>
    db
      .updateTable('jobs')
      .set({ state: 'cancelled', finished_at: now, error: JOB_MESSAGES.cancelled, result: JSON.stringify(outcome) })
      .where('id', '=', id)
      .where('state', '=', 'queued')
      .executeTakeFirst(),
  );
  return Number(done.numUpdatedRows) === 1;
}

export async function queuedJobIds(db: Db): Promise<string[]> {
  const rows = await db.selectFrom('jobs').select('id').where('state', '=', 'queued').orderBy('created_at').execute();
  return rows.map((r) => r.id);
}

export interface JobFilter {
  state?: JobState;
  kind?: string;
  ownerId?: number;
  page: number;
  size: number;
}

export async function listJobs(db: Db, filter: JobFilter): Promise<{ rows: JobRecord[]; total: number }> {
  let query = db.selectFrom('jobs');
  if (filter.state) query = query.where('state', '=', filter.state);
  if (filter.kind) query = query.where('kind', '=', filter.kind);
  if (filter.ownerId !== undefined) query = query.where('owner_id', '=', filter.ownerId);
  const total = await query.select((eb) => eb.fn.countAll<number | string>().as('n')).executeTakeFirstOrThrow();
  const rows = await query
    .selectAll()
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(filter.size)
    .offset((filter.page - 1) * filter.size)
    .execute();
  return { rows: rows.map(recordOf), total: Number(total.n) };
}

/** Finished jobs older than the retention; answers their ids so their files can go with them. */
export async function expiredJobs(db: Db, finishedBefore: string): Promise<JobRecord[]> {
  const rows = await db
    .selectFrom('jobs')
    .selectAll()
    .where('finished_at', '<', finishedBefore)
    .where('state', 'in', ['succeeded', 'failed', 'cancelled'])
    .execute();
  return rows.map(recordOf);
}

export async function deleteJobs(db: Db, ids: readonly string[]): Promise<void> {
  if (ids.length > 0)
    await writeWhenFree(db, (db) =>
      db
        .deleteFrom('jobs')
        .where('id', 'in', [...ids])
        .execute(),
    );
}
