import PgBoss from 'pg-boss';

/**
 * Where job ids wait to be run. The jobs table is the record; the queue only says "run this one now",
 * to exactly one instance. Embedded: in this process. Several instances on PostgreSQL: pg-boss, which
 * hands each message to one worker (SELECT … FOR UPDATE SKIP LOCKED) and keeps it when nobody is up.
 */
export interface JobQueue {
  readonly kind: 'in-process' | 'pg-boss';
  /** Starts taking job ids; `execute` resolves when the job is finished (it never rejects). */
  start(execute: (jobId: string) => Promise<void>): Promise<void>;
  enqueue(jobId: string): Promise<void>;
  /** Stops taking new ids and waits for the ones running here. */
  stop(): Promise<void>;
}

/** One process: a FIFO with a concurrency bound (the CPU work itself runs in worker threads). */
export class InProcessQueue implements JobQueue {
  readonly kind = 'in-process' as const;
  private readonly waiting: string[] = [];
  private readonly running = new Set<Promise<void>>();
  private execute: ((jobId: string) => Promise<void>) | null = null;
  private stopped = false;

  constructor(private readonly concurrency = 2) {}

  async start(execute: (jobId: string) => Promise<void>): Promise<void> {
    this.execute = execute;
    this.drain();
  }

  async enqueue(jobId: string): Promise<void> {
    this.waiting.push(jobId);
    this.drain();
  }

  private drain(): void {
    while (!this.stopped && this.execute && this.running.size < this.concurrency && this.waiting.length > 0) {
      const jobId = this.waiting.shift()!;
      const run: Promise<void> = this.execute(jobId).finally(() => {
        this.running.delete(run);
        this.drain();
      });
      this.running.add(run);
    }
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await Promise.all([...this.running]);
  }
}

export const PG_BOSS_QUEUE = 'cellwise-jobs';

export interface PgBossQueueOptions {
  connectionString: string;
  /** pg-boss keeps its tables in their own schema; instances that share work share it. */
  schema: string;
  concurrency?: number;
  onError?: (error: Error) => void;
}

export class PgBossQueue implements JobQueue {
  readonly kind = 'pg-boss' as const;
  private readonly boss: PgBoss;

  constructor(private readonly options: PgBossQueueOptions) {
    this.boss = new PgBoss({
      connectionString: options.connectionString,
      schema: options.schema,
      max: 4,
      application_name: 'cellwise-jobs',
      // The jobs table is the history; pg-boss's own cron-like scheduling is not used.
      schedule: false,
    });
    this.boss.on('error', (error) => options.onError?.(error));
  }

  private opened: Promise<void> | null = null;

  /**
   * Connects pg-boss and creates its queue, once. The runner queues again the jobs a dead instance left
   * before it starts taking jobs (JobRunner.start), so sending must not wait for start(): pg-boss
   * answers a send before its own start with a TypeError.
   */
  private open(): Promise<void> {
    this.opened ??= (async () => {
      await this.boss.start();
      await this.boss.createQueue(PG_BOSS_QUEUE);
    })();
    return this.opened;
  }

  async start(execute: (jobId: string) => Promise<void>): Promise<void> {
    await this.open();
    const workers = this.options.concurrency ?? 2;
    for (let i = 0; i < workers; i += 1) {
      await this.boss.work<{ jobId: string }>(PG_BOSS_QUEUE, { batchSize: 1, pollingIntervalSeconds: 0.5 }, async ([message]) => {
        if (message) await execute(message.data.jobId);
      });
    }
  }

  async enqueue(jobId: string): Promise<void> {
    await this.open();
    // The job's own row decides retries and interruptions; pg-boss only delivers.
    await this.boss.send(PG_BOSS_QUEUE, { jobId }, { retryLimit: 0, expireInSeconds: 6 * 60 * 60 });
  }

  async stop(): Promise<void> {
    if (!this.opened) return;
    await this.opened;
    await this.boss.stop({ graceful: true, wait: true, timeout: 30_000 });
    this.opened = null;
  }
}
