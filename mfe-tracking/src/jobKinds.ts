/**
 * Job kinds of tracking's long work (the API's api/src/tracking/jobs.ts): the pages follow their
 * `JobProgress` and show their outcome, so the hub does not toast it a second time.
 */
export const EXPORT_JOB_KIND = 'tracking.export';
export const SYNC_JOB_KIND = 'tracking.sync';
