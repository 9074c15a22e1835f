import type { Task } from '../jobs/model';

/** Worker-thread tasks of the monitoring queries (site report workbooks, PM counter imports), by name. */
export const REPORT_TASKS: Record<string, Task> = {};
