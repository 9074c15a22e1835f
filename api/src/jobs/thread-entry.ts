import { parentPort, workerData } from 'node:worker_threads';
import { openDatabase } from '../db/database';
import { JobRefusal } from './model';
import type { ThreadMessage, ThreadSetup } from './threads';
import { THREAD_TASKS } from './thread-tasks';

/** A worker thread's life: open a connection, run one task, post its answer, close. */
async function main(): Promise<void> {
  const { task, params, setup } = workerData as { task: string; params: unknown; setup: ThreadSetup };
  const post = (message: ThreadMessage) => parentPort?.postMessage(message);
  const run = THREAD_TASKS[task];
  if (!run) {
    post({ type: 'error', message: `Unknown thread task ${task}.` });
    return;
  }
  const handle = openDatabase(setup.database);
  try {
    const result = await run(params as never, {
      db: handle.db,
      dialect: handle.dialect,
      dataDir: setup.dataDir,
      progress: (percent, text) => post({ type: 'progress', percent, text: text ?? null }),
    });
    post({ type: 'done', result });
  } catch (error) {
    if (error instanceof JobRefusal) post({ type: 'refusal', status: error.status, body: error.body });
    else
      post({
        type: 'error',
        message: error instanceof Error ? error.message : String(error),
        ...(error instanceof Error && error.stack ? { stack: error.stack } : {}),
      });
  } finally {
    await handle.close();
  }
}

void main();
