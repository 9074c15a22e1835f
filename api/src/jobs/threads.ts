import path from 'node:path';
import { Worker } from 'node:worker_threads';
import type { DatabaseOptions } from '../db/database';
import { JobRefusal } from './model';

/** What a task in a worker thread is given: its own database connection and a progress callback. */
export interface ThreadSetup {
  database: DatabaseOptions;
  dataDir: string;
}

/** Messages from the worker thread (see thread-entry). */
export type ThreadMessage =
  | { type: 'progress'; percent: number; text: string | null }
  | { type: 'done'; result: unknown }
  | { type: 'refusal'; status: number; body: { message: string } & Record<string, unknown> }
  | { type: 'error'; message: string; stack?: string };

/**
 * Runs a registered task (thread-tasks.ts) in a worker thread, so CPU work — reading workbooks, dumps,
 * logs — never stalls the event loop that answers everyone else. The thread opens its own database
 * connection (on SQLite, a second connection to the same WAL file). A refusal comes back as the
 * JobRefusal it was; anything else as an Error with the thread's message.
 */
export function runInThread<R>(
  task: string,
  params: unknown,
  setup: ThreadSetup,
  onProgress: (percent: number, text: string | null) => void,
  /** Aborting ends the thread at once (the process is stopping); its all-or-nothing work then changed nothing. */
  signal?: AbortSignal,
): Promise<R> {
  const fromSource = __filename.endsWith('.ts');
  const entry = path.join(__dirname, `thread-entry${fromSource ? '.ts' : '.js'}`);
  // From source (tests, `npm run dev`) the thread compiles TypeScript as the main thread does.
  const worker = fromSource
    ? new Worker(`require('@swc-node/register'); require(${JSON.stringify(entry)});`, { eval: true, workerData: { task, params, setup } })
    : new Worker(entry, { workerData: { task, params, setup } });
  return new Promise<R>((resolve, reject) => {
    let settled = false;
    const settle = (fn: () => void) => {
      if (settled) return;
      settled = true;
      fn();
    };
    worker.on('message', (message: ThreadMessage) => {
      if (message.type === 'progress') onProgress(message.percent, message.text);
      else if (message.type === 'done') settle(() => resolve(message.result as R));
      else if (message.type === 'refusal') settle(() => reject(new JobRefusal(message.status, message.body)));
      else settle(() => reject(Object.assign(new Error(message.message), { stack: message.stack })));
    });
    const abort = () => {
      settle(() => reject(new ThreadAbortedError(task)));
      void worker.terminate();
    };
    if (signal?.aborted) abort();
    signal?.addEventListener('abort', abort, { once: true });
    worker.on('exit', () => signal?.removeEventListener('abort', abort));
    worker.on('error', (error) => settle(() => reject(error)));
    worker.on('exit', (code) => settle(() => reject(new Error(`The worker thread of ${task} stopped (exit ${code}) before it answered.`))));
  });
}

export class ThreadAbortedError extends Error {
  override readonly name = 'ThreadAbortedError';
  constructor(task: string) {
    super(`The worker thread of ${task} was stopped with its process.`);
  }
}
