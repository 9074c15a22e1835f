import type { Task } from '../jobs/model';

/** Worker-thread tasks of parameter planning, by name. */
export const PLANNING_TASKS: Record<string, Task> = {};
