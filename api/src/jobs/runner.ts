import { randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import { currentOperatorId, NoCurrentOperatorError, runInOperator } from '../db/operator-scope';
import type { Database } from '../db/schema';
import {
  FINISHED_STATES,
  JOB_MESSAGES,
  JOB_PROGRESS,
  JobRefusal,
  type JobContext,
  type JobKind,
  type JobOutcome,
  type JobProgressEvent,
  type JobRecord,
  type JobTone,
} from './model';
import { jobTone } from './outcome';
import type { JobQueue } from './queue';
import { beat, cancelQueuedJob, claimJob, findJob, finishJob, insertJob, markInterrupted, orphanedJobs, queuedJobIds, requeueJob, saveProgress } from './store';

export interface JobRunnerDeps {
  db: Kysely<Database>;
  queue: JobQueue;
  clock: () => number;
  log: FastifyBaseLogger;
  /** Stores and pushes a notification (the hub's `NewNotification`) whose icon and variant are `tone`. */
  notify: (userId: number, title: string, tone: JobTone, key: string) => Promise<void>;
  /** Pushes a transient hub event to one user's consoles. */
  push: (userId: number, target: string, payload: unknown) => Promise<void>;
  timings?: Partial<JobTimings>;
}

export interface JobTimings {
  /** How often a running job's heartbeat is written. */
  heartbeatMs: number;
  /** A running job whose heartbeat is older than this belongs to a dead instance. */
  staleAfterMs: number;
  /** Progress is written and pushed at most this often (the last one always). */
  progressEveryMs: number;
  /** How often a caller waiting for a job run elsewhere looks at its row. */
  pollMs: number;
}

export const DEFAULT_JOB_TIMINGS: JobTimings = { heartbeatMs: 5_000, staleAfterMs: 30_000, progressEveryMs: 250, pollMs: 300 };

const iso = (ms: number) => new Date(ms).toISOString();

/** A heartbeat that met SQLite's write lock taken is tried again this soon. */
const BEAT_RETRY_MS = 200;

/**
 * Runs jobs: records them, queues them, executes them (on whichever instance the queue picks), reports
 * their progress to the owner, notifies them at the end, and tells apart a job whose process died.
 */
export class JobRunner {
  readonly instanceId = randomUUID();
  private readonly kinds = new Map<string, JobKind<never>>();
  private readonly finished = new EventEmitter();
  private readonly timings: JobTimings;
  private heartbeat: NodeJS.Timeout | null = null;
  private started = false;
  /** Aborted by stop(): running work ends, and its rows stay 'running' for the next start to judge. */
  private stopping = new AbortController();

  constructor(private readonly deps: JobRunnerDeps) {
    this.timings = { ...DEFAULT_JOB_TIMINGS, ...deps.timings };
    this.finished.setMaxListeners(0);
  }

  register<P>(kind: JobKind<P>): void {
    if (this.kinds.has(kind.kind)) throw new Error(`job kind ${kind.kind} is registered twice`);
    this.kinds.set(kind.kind, kind as JobKind<never>);
  }

  kindOf(name: string): JobKind<never> | undefined {
    return this.kinds.get(name);
  }

  get queueKind(): JobQueue['kind'] {
    return this.deps.queue.kind;
  }

  get kindNames(): string[] {
    return [...this.kinds.keys()].sort();
  }

  /**
   * Deals with what a dead process left (docs/architecture.md#how-a-job-flows): a running job of a kind that is safe to repeat is
   * queued again; any other is failed as interrupted — its work was all-or-nothing, so nothing changed —
   * and its owner is told. Then starts taking jobs.
   */
  async start(options: { recover?: boolean } = {}): Promise<void> {
    if (this.started) return;
    this.started = true;
    // `recover: false`: a command-line run beside a live server must not judge the server's jobs.
    const recover = options.recover ?? true;
    // In process, nothing else can be running a job: every 'running' row is a previous life's.
    const inProcess = this.deps.queue.kind === 'in-process';
    if (recover) await this.recoverOrphans(inProcess);
    await this.deps.queue.start((jobId) => this.execute(jobId));
    // Messages of an in-process queue died with the process; the rows still say 'queued'.
    if (recover && inProcess) for (const id of await queuedJobIds(this.deps.db)) await this.deps.queue.enqueue(id);
    this.heartbeat = setInterval(() => void this.tick(), this.timings.heartbeatMs);
    this.heartbeat.unref();
  }

  /**
   * Stops now: work in progress is ended (its threads terminated) and left 'running', so the next start
   * reports it interrupted exactly as after a crash — all-or-nothing work changed nothing.
   */
  async stop(): Promise<void> {
    if (this.heartbeat) clearInterval(this.heartbeat);
    this.heartbeat = null;
    this.stopping.abort();
    if (this.started) await this.deps.queue.stop();
    this.started = false;
    this.stopping = new AbortController();
  }

  private async tick(): Promise<void> {
    try {
      await this.beatWhenFree();
      if (this.deps.queue.kind !== 'in-process') await this.recoverOrphans(false);
    } catch (error) {
      this.deps.log.warn({ err: error }, 'job heartbeat failed');
    }
  }

  /**
   * The heartbeat, written without making the event loop wait for SQLite's write lock: while a worker
   * thread's transaction holds it, tried again every BEAT_RETRY_MS until the next beat is due.
   */
  private async beatWhenFree(): Promise<void> {
    const giveUpAt = Date.now() + this.timings.heartbeatMs;
    while (!(await beat(this.deps.db, this.instanceId, iso(this.deps.clock())))) {
      if (Date.now() + BEAT_RETRY_MS >= giveUpAt || !this.heartbeat) return;
      await new Promise((resolve) => setTimeout(resolve, BEAT_RETRY_MS).unref());
    }
  }

  private async recoverOrphans(everyRunningJob: boolean): Promise<void> {
    const now = this.deps.clock();
    const staleBefore = iso(now - this.timings.staleAfterMs);
    // At the start of an in-process runner every running row is a previous life's, however fresh its heartbeat.
    const orphans = await orphanedJobs(this.deps.db, everyRunningJob ? '9999' : staleBefore);
    for (const job of orphans) {
      const kind = this.kinds.get(job.kind);
      if (kind?.idempotent) {
        if (await requeueJob(this.deps.db, job.id, ['running'])) {
          this.deps.log.info({ job: job.id, kind: job.kind }, 'job interrupted by a restart: queued again');
          await this.deps.queue.enqueue(job.id);
        }
        continue;
      }
      if (!(await markInterrupted(this.deps.db, job.id, iso(now)))) continue;
      this.deps.log.warn({ job: job.id, kind: job.kind }, 'job interrupted by a restart: failed');
      this.finished.emit(job.id);
      if (job.ownerId !== null) await this.tell(job.ownerId, `${kind?.label ?? job.kind}: ${JOB_MESSAGES.interrupted}`, 'error', job);
    }
  }

  /** Records and queues a job; answers its record at once. */
  async enqueue<P>(kindName: string, ownerId: number | null, params: P): Promise<JobRecord> {
    if (!this.kinds.has(kindName)) throw new Error(`unknown job kind ${kindName}`);
    const id = randomUUID();
    // The job belongs to the operator of the work that submits it, and runs in that operator's scope.
    const operatorId = currentOperatorId() ?? null;
    await insertJob(this.deps.db, { id, kind: kindName, ownerId, operatorId, params, now: iso(this.deps.clock()) });
    // Read before queueing: the record as it was queued, whatever the queue does next.
    const job = await findJob(this.deps.db, id);
    if (!job) throw new Error(`job ${id} vanished`);
    await this.deps.queue.enqueue(id);
    return job;
  }

  /**
   * Resolves with the job once it has finished, wherever it ran. The wait never affects the job: a caller
   * that goes away (a closed tab) leaves it running, and its owner is notified when it ends.
   */
  async waitFor(jobId: string): Promise<JobRecord> {
    for (;;) {
      const job = await findJob(this.deps.db, jobId);
      if (!job) throw new Error(`job ${jobId} does not exist`);
      if (FINISHED_STATES.has(job.state)) return job;
      await new Promise<void>((resolve) => {
        const done = () => {
          clearTimeout(timer);
          resolve();
        };
        const timer = setTimeout(() => {
          this.finished.off(jobId, done);
          resolve();
        }, this.timings.pollMs);
        this.finished.once(jobId, done);
      });
    }
  }

  /** The specification's calls start work and answer its result: queue it, then wait for it. */
  async run<P>(kindName: string, ownerId: number | null, params: P): Promise<JobRecord> {
    const job = await this.enqueue(kindName, ownerId, params);
    return this.waitFor(job.id);
  }

  async cancel(jobId: string): Promise<boolean> {
    const done = await cancelQueuedJob(this.deps.db, jobId, iso(this.deps.clock()));
    if (done) this.finished.emit(jobId);
    return done;
  }

  /** Runs a failed (or cancelled) job again from the start, when its kind is safe to repeat. */
  async retry(job: JobRecord): Promise<boolean> {
    if (!this.kinds.get(job.kind)?.idempotent) return false;
    if (!(await requeueJob(this.deps.db, job.id, ['failed', 'cancelled']))) return false;
    await this.deps.queue.enqueue(job.id);
    return true;
  }

  /** Called by the queue. Never rejects: a job's failure is recorded, not thrown. */
  private async execute(jobId: string): Promise<void> {
    const { db, clock, log } = this.deps;
    let job: JobRecord | null = null;
    try {
      job = await claimJob(db, jobId, this.instanceId, iso(clock()));
      if (!job) return;
      const kind = this.kinds.get(job.kind);
      let outcome: JobOutcome;
      let error: string | null = null;
      if (!kind) {
        outcome = { status: 500, body: { message: JOB_MESSAGES.serverFault } };
        error = `This instance does not know the job kind ${job.kind}.`;
      } else {
        try {
          const context = this.contextOf(job);
          const run = () => kind.run(context);
          outcome = { status: 200, body: await (job.operatorId === null ? run() : runInOperator(job.operatorId, run)) };
        } catch (failure) {
          if (this.stopping.signal.aborted) {
            log.warn({ job: job.id, kind: job.kind }, 'job stopped with the process: left for the next start');
            this.finished.emit(job.id);
            return;
          }
          if (failure instanceof JobRefusal) {
            outcome = { status: failure.status, body: failure.body };
            error = failure.message;
          } else if (failure instanceof NoCurrentOperatorError) {
            outcome = { status: failure.statusCode, body: { message: failure.message } };
            error = failure.message;
          } else {
            log.error({ err: failure, job: job.id, kind: job.kind }, 'job failed');
            outcome = { status: 500, body: { message: JOB_MESSAGES.serverFault } };
            error = failure instanceof Error ? failure.message : String(failure);
          }
        }
      }
      const ok = outcome.status === 200;
      const recorded = await finishJob(db, job.id, this.instanceId, ok ? 'succeeded' : 'failed', outcome, error, iso(clock()));
      const final = recorded ? await findJob(db, job.id) : null;
      // Told before the waiting caller is woken, so its answer and the notification agree.
      if (final && final.ownerId !== null) {
        await this.pushProgress(final);
        const message = messageOf(outcome.body) ?? error ?? '';
        // The work is done and recorded; an answer its kind cannot read must not keep its owner from being told.
        const tone = jobTone(kind, outcome, final.params, (misread) =>
          log.error({ err: misread, job: final.id, kind: final.kind }, 'could not read the outcome of a job'),
        );
        const title = kind?.notification
          ? kind.notification({ ok, tone, message, body: outcome.body }, final.params as never)
          : `${kind?.label ?? job.kind}: ${ok ? 'done' : message}`;
        if (title) await this.tell(final.ownerId, title, tone, final);
      }
      this.finished.emit(job.id);
    } catch (fault) {
      // The database itself failed; the heartbeat stops, and another start reports the job interrupted.
      log.error({ err: fault, job: jobId }, 'job bookkeeping failed');
      if (job) this.finished.emit(job.id);
    }
  }

  private contextOf(job: JobRecord): JobContext<never> {
    let last = 0;
    let pending: { percent: number; text: string | null } | null = null;
    /** The latest progress not yet in the row (its write met SQLite's write lock taken). */
    let unsaved: { percent: number; text: string | null } | null = null;
    let retry: NodeJS.Timeout | null = null;
    let writing = false;
    const save = async (progress: { percent: number; text: string | null }) => {
      if (await saveProgress(this.deps.db, job.id, progress.percent, progress.text, iso(this.deps.clock()))) return;
      // Never waited for: the owner has it from the push, the row gets it (or a later one) once the lock is free.
      unsaved = progress;
      retry ??= setTimeout(() => {
        retry = null;
        void write();
      }, this.timings.progressEveryMs);
      retry.unref();
    };
    const write = async () => {
      if (writing || (!pending && !unsaved)) return;
      writing = true;
      const next = pending;
      pending = null;
      try {
        if (next) {
          unsaved = null;
          if (job.ownerId !== null)
            await this.deps.push(job.ownerId, JOB_PROGRESS, {
              id: job.id,
              kind: job.kind,
              state: 'running',
              progress: next.percent,
              text: next.text,
            } satisfies JobProgressEvent);
        }
        const progress = next ?? unsaved;
        unsaved = null;
        if (progress) await save(progress);
      } catch (error) {
        this.deps.log.warn({ err: error, job: job.id }, 'job progress not saved');
      } finally {
        writing = false;
      }
    };
    return {
      jobId: job.id,
      ownerId: job.ownerId,
      params: job.params as never,
      signal: this.stopping.signal,
      progress: (percent, text) => {
        pending = { percent: Math.max(0, Math.min(100, Math.round(percent))), text: text ?? null };
        const now = Date.now();
        if (now - last >= this.timings.progressEveryMs) {
          last = now;
          void write();
        }
      },
    };
  }

  private async pushProgress(job: JobRecord): Promise<void> {
    if (job.ownerId === null) return;
    try {
      await this.deps.push(job.ownerId, JOB_PROGRESS, {
        id: job.id,
        kind: job.kind,
        state: job.state,
        progress: job.progress,
        text: job.progressText,
      } satisfies JobProgressEvent);
    } catch (error) {
      this.deps.log.warn({ err: error, job: job.id }, 'job progress not pushed');
    }
  }

  private async tell(userId: number, title: string, tone: JobTone, job: JobRecord): Promise<void> {
    try {
      const ok = job.state === 'succeeded';
      const key = this.kinds.get(job.kind)?.notificationKey?.(job.params as never, ok, job.outcome?.body ?? null) ?? `job-${job.kind}`;
      const notify = () => this.deps.notify(userId, title, tone, key);
      // In the job's operator, so the notification records it and its link opens that operator's records.
      await (job.operatorId === null ? notify() : runInOperator(job.operatorId, notify));
    } catch (error) {
      this.deps.log.error({ err: error, job: job.id }, 'could not notify the end of a job');
    }
  }
}

function messageOf(body: unknown): string | null {
  return body !== null && typeof body === 'object' && typeof (body as { message?: unknown }).message === 'string'
    ? (body as { message: string }).message
    : null;
}
