import type { Task } from '../jobs/model';

/** Worker-thread tasks of the log parser (parsing archives into the monitoring tables), by name. */
export const PARSE_TASKS: Record<string, Task> = {};
