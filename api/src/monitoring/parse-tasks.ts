import path from 'node:path';
import { INCOMPLETE_LOG, MONITORING_MESSAGES, type ParseReport } from 'contracts';
import { FileServiceError, resolveUpload } from '../files';
import { JobRefusal, type Task, type TaskContext } from '../jobs/model';
import type { JobTone } from '../jobs/model';
import { ingestArchives, LogArchiveError, UnusableLogsError, type ArchiveInput } from './ingest';
import type { ParseTaskAnswer, ParseTaskParams } from './parse-params';

/** Names shown in a notification before "and N more". */
const NAMES_SHOWN = 5;

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;
function names(list: readonly string[]): string {
  const shown = list.slice(0, NAMES_SHOWN).join(', ');
  return list.length > NAMES_SHOWN ? `${shown} and ${list.length - NAMES_SHOWN} more` : shown;
}

const isIncomplete = (file: ParseReport['files'][number]) => file.reason?.startsWith(`${INCOMPLETE_LOG}:`) ?? false;

/**
 * The notification of a finished parse: the success message, then the outcomes in words (unreachable
 * nodes, nodes outside the inventory, files with errors and the first of them), and where to read the
 * whole report.
 */
export function parseNotice(report: ParseReport): string {
  const n = report.counts.parsed + report.counts.notInInventory;
  const parts = [MONITORING_MESSAGES.parsed(n)];
  const nodesOf = (outcome: string) => report.files.filter((f) => f.outcome === outcome).map((f) => f.node ?? f.file);
  const unreachable = nodesOf('unreachable');
  if (unreachable.length > 0) parts.push(`${plural(unreachable.length, 'node', 'nodes')} unreachable (${names(unreachable)}).`);
  const outside = nodesOf('not in inventory');
  if (outside.length > 0) parts.push(`${plural(outside.length, 'node', 'nodes')} not in the inventory, kept (${names(outside)}).`);
  const withErrors = report.files.filter((f) => f.problemCount > 0);
  const first = withErrors[0];
  if (first) {
    const problem = first.problems[0];
    const where = problem ? `${first.file}:${problem.line} ${problem.reason}` : first.file;
    parts.push(`${plural(withErrors.length, 'file', 'files')} with errors, first: ${where}.`);
  }
  const incomplete = report.files.filter(isIncomplete).map((f) => f.node ?? f.file);
  if (incomplete.length > 0) parts.push(`${plural(incomplete.length, 'log', 'logs')} cut short, previous results kept (${names(incomplete)}).`);
  parts.push(`Open this notification for report #${report.id}.`);
  return parts.join(' ');
}

/**
 * How a stored parse turned out: an error when no node's log could be read (every one unreachable or
 * failed), a warning when some could not (unreachable nodes, files that failed or with problems, logs
 * cut short), else success. Nodes outside the inventory were read and kept: not a problem of the parse.
 */
export function parseOutcome(report: ParseReport): JobTone {
  const { parsed, notInInventory, unreachable, failed, problems } = report.counts;
  if (parsed + notInInventory === 0) return 'error';
  if (unreachable > 0 || failed > 0 || problems > 0 || report.files.some(isIncomplete)) return 'warning';
  return 'success';
}

/** A demo archive's path: inside the data folder, never outside it. */
function insideDataDir(dataDir: string, file: string): string {
  const root = path.resolve(dataDir);
  const full = path.resolve(root, file);
  if (full !== root && !full.startsWith(root + path.sep)) throw new JobRefusal(400, { message: `The archive ${file} is outside the data folder.` });
  return full;
}

/** Thread task `monitoring.parse`: the owner's uploads (or the demo archives), parsed and stored in one go. */
export async function parseTask(params: ParseTaskParams, context: TaskContext): Promise<ParseTaskAnswer> {
  const archives: ArchiveInput[] = [];
  if ('uploadIds' in params) {
    for (const id of params.uploadIds) {
      try {
        const upload = await resolveUpload(context.db, context.dataDir, id, params.ownerId, 'zip');
        archives.push({ name: upload.name, file: upload.file });
      } catch (error) {
        if (error instanceof FileServiceError) throw new JobRefusal(error.statusCode, { message: error.message });
        throw error;
      }
    }
  } else {
    for (const archive of params.archives) archives.push({ name: archive.name, file: insideDataDir(context.dataDir, archive.file) });
  }
  try {
    const report = await ingestArchives(context.db, archives, {
      parsedBy: params.ownerId,
      jobId: params.jobId,
      progress: (percent, text) => context.progress(percent, text),
    });
    return {
      message: MONITORING_MESSAGES.parsed(report.counts.parsed + report.counts.notInInventory),
      parseId: report.id,
      logsDate: report.logsDate,
      counts: report.counts,
      notice: parseNotice(report),
      outcome: parseOutcome(report),
    };
  } catch (error) {
    if (error instanceof LogArchiveError) throw new JobRefusal(400, { message: error.message });
    // The job fails (the owner's notification says why) and the answer lists every file's reasons.
    if (error instanceof UnusableLogsError) throw new JobRefusal(error.statusCode, { message: error.message, files: error.files });
    throw error;
  }
}

/** Worker-thread tasks of the log parser (parsing archives into the monitoring tables), by name. */
export const PARSE_TASKS: Record<string, Task> = {
  'monitoring.parse': parseTask as Task,
};
