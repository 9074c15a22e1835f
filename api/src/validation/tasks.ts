import type { Task } from '../jobs/model';

/** Worker-thread tasks of CPICH and neighbour relations validation, by name. */
export const VALIDATION_TASKS: Record<string, Task> = {};
