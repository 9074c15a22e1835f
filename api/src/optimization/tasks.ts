import type { Task } from '../jobs/model';

/** Worker-thread tasks of neighbour relations optimisation, by name. */
export const OPTIMIZATION_TASKS: Record<string, Task> = {};
