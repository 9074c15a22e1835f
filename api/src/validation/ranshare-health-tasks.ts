import type { Task } from '../jobs/model';
import { HEALTH_KIND, healthChecksTask } from './health';
import { RANSHARE_KIND, ranShareTask } from './ranshare';

/** Worker-thread tasks of RAN-share validation and health checks, by name. */
export const RANSHARE_HEALTH_TASKS: Record<string, Task> = {
  [RANSHARE_KIND]: ranShareTask as Task,
  [HEALTH_KIND]: healthChecksTask as Task,
};
