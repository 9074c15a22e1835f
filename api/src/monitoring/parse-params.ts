import type { ParseResponse } from 'contracts';
import type { JobTone } from '../jobs/model';

/**
 * What the parse job (parse-jobs.ts, in the API process) and its thread task (parse-tasks.ts, in a
 * worker thread) both speak: the job's parameters and the task's answer. Their own module, so neither
 * of the two imports the other (issue 49).
 */

/** A user's parse of their uploads, or the demo data's parse of archives under the data folder (no one is notified). */
export type ParseParams =
  | { uploadIds: string[]; ownerId: number }
  | {
      /** `file` is relative to the data folder. */
      archives: Array<{ name: string; file: string }>;
      ownerId: null;
    };

/** What the thread task gets: the job's parameters and its id (recorded on the parse). */
export type ParseTaskParams = ParseParams & { jobId: string | null };

/** ParseResponse, plus the owner's notification text and the parse's outcome (the route answers ParseResponse only). */
export type ParseTaskAnswer = ParseResponse & { notice: string; outcome: JobTone };
