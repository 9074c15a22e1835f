import { parentPort, workerData } from 'node:worker_threads';
import { openDatabase } from '../db/database';
import { NoCurrentOperatorError, runInOperator } from '../db/operator-scope';
import { JobRefusal } from './model';
import type { ThreadMessage, ThreadRequest, ThreadSetup } from './threads';
import { THREAD_TASKS } from './thread-tasks';

/**
 * A worker thread's life: open one connection, then run tasks one at a time as they are sent, posting
 * each one's progress and answer. Kept warm between tasks by the pool, so a job does not pay for a
 * thread, its modules and its connection every time.
 */
const { setup } = workerData as { setup: ThreadSetup };
const handle = openDatabase(setup.database);

async function run({ id, task, params, operatorId }: ThreadRequest): Promise<void> {
  const post = (message: ThreadMessage) => parentPort?.postMessage({ id, ...message });
  const execute = THREAD_TASKS[task];
  if (!execute) {
    post({ type: 'error', message: `Unknown thread task ${task}.` });
    return;
  }
  try {
    const work = () =>
      execute(params as never, {
        db: handle.db,
        dialect: handle.dialect,
        dataDir: setup.dataDir,
        progress: (percent, text) => post({ type: 'progress', percent, text: text ?? null }),
      });
    const result = await (operatorId === undefined ? work() : runInOperator(operatorId, work));
    post({ type: 'done', result });
  } catch (error) {
    if (error instanceof JobRefusal) post({ type: 'refusal', status: error.status, body: error.body });
    // A user with no current operator writing engineering data: their refusal, not a fault.
    else if (error instanceof NoCurrentOperatorError) post({ type: 'refusal', status: error.statusCode, body: { message: error.message } });
    else
      post({
        type: 'error',
        message: error instanceof Error ? error.message : String(error),
        ...(error instanceof Error && error.stack ? { stack: error.stack } : {}),
      });
  }
}

parentPort?.on('message', (message: ThreadRequest | { type: 'close' }) => {
  if ('type' in message) void handle.close().finally(() => process.exit(0));
  else void run(message);
});
