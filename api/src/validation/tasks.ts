import type { Task } from '../jobs/model';
import { CPICH_JOB_KIND, cpichTask } from './cpich';
import { NBR_JOB_KIND, neighboursTask } from './neighbours';

/** Worker-thread tasks of CPICH and neighbour relations validation, by name. */
export const VALIDATION_TASKS: Record<string, Task> = {
  [CPICH_JOB_KIND]: cpichTask as Task,
  [NBR_JOB_KIND]: neighboursTask as Task,
};
