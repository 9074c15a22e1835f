import type { Task } from '../jobs/model';
import { PERFORMANCE_KIND, performanceImportTask } from './performance';
import { REPORT_KIND, siteReportTask } from './report-jobs';

/** Worker-thread tasks of the monitoring queries (site report workbooks, PM counter imports), by name. */
export const REPORT_TASKS: Record<string, Task> = {
  [REPORT_KIND]: siteReportTask as Task,
  [PERFORMANCE_KIND]: performanceImportTask as Task,
};
