import type { Task } from '../jobs/model';
import { parameterPlanningTask, PLANNING_KIND } from './jobs';

/** Worker-thread tasks of parameter planning, by name. */
export const PLANNING_TASKS: Record<string, Task> = {
  [PLANNING_KIND]: parameterPlanningTask as Task,
};
