import type { Task } from '../jobs/model';
import { optimisationTask } from './run';

/** Worker-thread tasks of neighbour relations optimisation, by name. */
export const OPTIMIZATION_TASKS: Record<string, Task> = {
  'optimization.neighbours': optimisationTask as Task,
};
