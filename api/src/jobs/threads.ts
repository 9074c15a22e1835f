import { currentOperatorId } from '../db/operator-scope';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import type { DatabaseOptions } from '../db/database';
import { JobRefusal } from './model';

/** What a task in a worker thread is given: its own database connection and a progress callback. */
export interface ThreadSetup {
  database: DatabaseOptions;
  dataDir: string;
}

/** A task for the worker thread. */
export interface ThreadRequest {
  id: number;
  task: string;
  params: unknown;
  /** The operator scope the task runs in (docs/tenancy.md); undefined: none. */
  operatorId?: number | null;
}

/** Messages from the worker thread (see thread-entry), each naming the request it answers. */
export type ThreadMessage =
  | { type: 'progress'; percent: number; text: string | null }
  | { type: 'done'; result: unknown }
  | { type: 'refusal'; status: number; body: { message: string } & Record<string, unknown> }
  | { type: 'error'; message: string; stack?: string };

/** An idle thread is kept this long for the next task, then let go. */
export const THREAD_IDLE_MS = 60_000;

interface PooledThread {
  worker: Worker;
  key: string;
  idleTimer: NodeJS.Timeout | null;
}

/** Idle threads by setup (database and DATA_DIR), each with its connection still open. */
const idle = new Map<string, PooledThread[]>();
let nextRequest = 1;

/**
 * From source (tests, `npm run dev`) a thread compiles the TypeScript it loads with swc, file by file as
 * required. Not @swc-node/register, as the main thread of `npm run dev` uses: it loads the typescript
 * package to read tsconfig, a second of every thread's start, and the API suites start a thread for
 * nearly every app that runs a job. The project's TypeScript needs nothing of tsconfig that swc's
 * defaults do not do (no path aliases, no decorators).
 */
const TYPESCRIPT_HOOK = `
const fs = require('node:fs');
const Module = require('node:module');
const { transformSync } = require('@swc/core');
Module._extensions['.ts'] = function (module, filename) {
  const source = fs.readFileSync(filename, 'utf8');
  const options = { filename, jsc: { target: 'es2022', parser: { syntax: 'typescript' } }, module: { type: 'commonjs' } };
  module._compile(transformSync(source, options).code, filename);
};`;

function spawn(setup: ThreadSetup, key: string): PooledThread {
  const fromSource = __filename.endsWith('.ts');
  const entry = path.join(__dirname, `thread-entry${fromSource ? '.ts' : '.js'}`);
  const worker = fromSource
    ? new Worker(`${TYPESCRIPT_HOOK}\nrequire(${JSON.stringify(entry)});`, { eval: true, workerData: { setup } })
    : new Worker(entry, { workerData: { setup } });
  const thread: PooledThread = { worker, key, idleTimer: null };
  worker.on('exit', () => forget(thread));
  // A worker that fails outside any task is simply dropped; the task in hand learns of it through its own listener.
  worker.on('error', () => forget(thread));
  return thread;
}

function forget(thread: PooledThread): void {
  if (thread.idleTimer) clearTimeout(thread.idleTimer);
  const list = idle.get(thread.key);
  if (list)
    idle.set(
      thread.key,
      list.filter((t) => t !== thread),
    );
}

function release(thread: PooledThread): void {
  thread.worker.unref();
  thread.idleTimer = setTimeout(() => {
    forget(thread);
    thread.worker.postMessage({ type: 'close' });
  }, THREAD_IDLE_MS);
  thread.idleTimer.unref();
  idle.set(thread.key, [...(idle.get(thread.key) ?? []), thread]);
}

/** Lets every idle thread go (the app is closing); threads at work are ended by their jobs' abort. */
export async function closeIdleThreads(): Promise<void> {
  const all = [...idle.values()].flat();
  idle.clear();
  await Promise.all(
    all.map(async (thread) => {
      if (thread.idleTimer) clearTimeout(thread.idleTimer);
      thread.worker.ref();
      await thread.worker.terminate();
    }),
  );
}

/**
 * Runs a registered task (thread-tasks.ts) in a worker thread, so CPU work — reading workbooks, dumps,
 * logs — never stalls the event loop that answers everyone else. Each thread has its own database
 * connection (on SQLite, a second connection to the same WAL file) and is kept warm for the next task.
 * A refusal comes back as the JobRefusal it was; anything else as an Error with the thread's message.
 */
export function runInThread<R>(
  task: string,
  params: unknown,
  setup: ThreadSetup,
  onProgress: (percent: number, text: string | null) => void,
  /** Aborting ends the thread at once (the process is stopping); its all-or-nothing work then changed nothing. */
  signal?: AbortSignal,
): Promise<R> {
  const key = JSON.stringify(setup);
  const thread = idle.get(key)?.pop() ?? spawn(setup, key);
  if (thread.idleTimer) clearTimeout(thread.idleTimer);
  thread.idleTimer = null;
  thread.worker.ref();
  const id = nextRequest++;
  const { worker } = thread;
  // Captured now: the caller's operator scope does not cross into the thread by itself.
  const operatorId = currentOperatorId();
  return new Promise<R>((resolve, reject) => {
    let settled = false;
    const cleanup = () => {
      worker.off('message', onMessage);
      worker.off('error', onError);
      worker.off('exit', onExit);
      signal?.removeEventListener('abort', abort);
    };
    const settle = (fn: () => void, reusable: boolean) => {
      if (settled) return;
      settled = true;
      cleanup();
      if (reusable) release(thread);
      fn();
    };
    const onMessage = (message: ThreadMessage & { id: number }) => {
      if (message.id !== id) return;
      if (message.type === 'progress') onProgress(message.percent, message.text);
      else if (message.type === 'done') settle(() => resolve(message.result as R), true);
      else if (message.type === 'refusal') settle(() => reject(new JobRefusal(message.status, message.body)), true);
      else settle(() => reject(Object.assign(new Error(message.message), { stack: message.stack })), true);
    };
    const onError = (error: Error) => settle(() => reject(error), false);
    const onExit = (code: number) => settle(() => reject(new Error(`The worker thread of ${task} stopped (exit ${code}) before it answered.`)), false);
    const abort = () => {
      settle(() => reject(new ThreadAbortedError(task)), false);
      void worker.terminate();
    };
    worker.on('message', onMessage);
    worker.on('error', onError);
    worker.on('exit', onExit);
    if (signal?.aborted) abort();
    else {
      signal?.addEventListener('abort', abort, { once: true });
      worker.postMessage({ id, task, params, operatorId } satisfies ThreadRequest);
    }
  });
}

export class ThreadAbortedError extends Error {
  override readonly name = 'ThreadAbortedError';
  constructor(task: string) {
    super(`The worker thread of ${task} was stopped with its process.`);
  }
}
