import { PARSE_TASKS } from '../monitoring/parse-tasks';
import { REPORT_TASKS } from '../monitoring/report-tasks';
import { dumpImportTask } from '../network/jobs';
import { OPTIMIZATION_TASKS } from '../optimization/tasks';
import { PLANNING_TASKS } from '../planning/tasks';
import { exportTask, importTask, syncTask } from '../tracking/jobs';
import { RANSHARE_HEALTH_TASKS } from '../validation/ranshare-health-tasks';
import { VALIDATION_TASKS } from '../validation/tasks';
import type { Task } from './model';

/**
 * The tasks a worker thread can run, by name. Each is a plain async function of its parameters and a
 * TaskContext, so it runs the same inline (a database the thread cannot open, e.g. in-memory SQLite).
 */
export const THREAD_TASKS: Record<string, Task> = {
  'tracking.import': importTask as Task,
  'tracking.sync': syncTask as Task,
  'tracking.export': exportTask as Task,
  'network.import': dumpImportTask as Task,
  ...PARSE_TASKS,
  ...REPORT_TASKS,
  ...PLANNING_TASKS,
  ...VALIDATION_TASKS,
  ...RANSHARE_HEALTH_TASKS,
  ...OPTIMIZATION_TASKS,
};
