import type { Task } from '../jobs/model';

/** Worker-thread tasks of RAN-share validation and health checks, by name. */
export const RANSHARE_HEALTH_TASKS: Record<string, Task> = {};
