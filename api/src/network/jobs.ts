import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { compileSiteRule, DEFAULT_SITE_RULE, totalOf, type CoordinateEncoding } from '../domain/network';
import { JobRefusal, type JobKind, type TaskContext } from '../jobs/model';
import { importDump, isDumpInputError, type ImportDumpResult, type ImportFormat } from './importer';

/** The network dump import as a job (docs/architecture.md#how-a-job-flows): the route and the command line queue it; a worker thread runs it. */
export interface DumpImportParams {
  /** The dump: relative to DATA_DIR for the API's copy of an upload, absolute for the command line's own file. */
  file: string;
  /** Removed when the job ends (an upload's temporary copy), or kept (the demo dump). */
  removeAfter: boolean;
  fileName: string;
  format: ImportFormat;
  coords: CoordinateEncoding;
  /** The site rule's source; null for the built-in one. */
  siteRule: string | null;
  importedBy: number | null;
}

export function importedMessage(counts: ImportDumpResult['counts'], warnings: readonly string[] = []): string {
  return [`Network dump imported: ${counts.sites} sites, ${totalOf(counts.cells)} cells.`, ...warnings].join(' ');
}

export type DumpImportAnswer = Pick<ImportDumpResult, 'counts' | 'importedAt' | 'sites' | 'warnings'> & { message: string; bytes: number };

/**
 * Where a job's file is. Parameters are written by the server, never by a client: the API's copies are
 * relative to DATA_DIR (and must stay inside it); the command line names the operator's own file.
 */
function fileOf(dataDir: string, relative: string): string {
  if (path.isAbsolute(relative)) return relative;
  const file = path.resolve(dataDir, relative);
  if (!file.startsWith(path.resolve(dataDir) + path.sep)) throw new Error(`The dump ${relative} is not inside DATA_DIR.`);
  return file;
}

const megabytes = (bytes: number) => (bytes / 1_000_000).toFixed(1);

export async function dumpImportTask(params: DumpImportParams, context: TaskContext): Promise<DumpImportAnswer> {
  const file = fileOf(context.dataDir, params.file);
  try {
    const size = fs.statSync(file).size;
    const input = fs.createReadStream(file);
    // The importer reads at its own pace; its position is the progress.
    const ticker = setInterval(
      () => context.progress((input.bytesRead / Math.max(1, size)) * 99, `Reading ${megabytes(input.bytesRead)} / ${megabytes(size)} MB`),
      500,
    );
    try {
      const result = await importDump(context.db, input, {
        fileName: params.fileName,
        format: params.format,
        coords: params.coords,
        siteRule: params.siteRule ? compileSiteRule(params.siteRule) : DEFAULT_SITE_RULE,
        importedBy: params.importedBy,
      });
      return {
        message: importedMessage(result.counts, result.warnings),
        counts: result.counts,
        importedAt: result.importedAt,
        sites: result.sites,
        warnings: result.warnings,
        bytes: result.bytes,
      };
    } finally {
      clearInterval(ticker);
    }
  } catch (error) {
    if (isDumpInputError(error)) throw new JobRefusal(400, { message: error.message });
    throw error;
  } finally {
    if (params.removeAfter) fs.rmSync(file, { force: true });
  }
}

export function registerNetworkJobs(app: FastifyInstance): void {
  app.jobs.register(dumpImportKind((params, progress, signal) => app.runTask('network.import', params, progress, signal)));
}

/** The kind as the command line runs it: in its own process, recorded like the server's. */
export function dumpImportKind(
  run: (params: DumpImportParams, progress: TaskContext['progress'], signal: AbortSignal) => Promise<unknown>,
): JobKind<DumpImportParams> {
  return {
    kind: 'network.import',
    label: 'Network dump import',
    // Repeatable only while its file is there: the demo dump stays, an upload's copy does not.
    idempotent: false,
    run: ({ params, progress, signal }) => run(params, progress, signal),
    notificationKey: (_params, ok) => (ok ? 'network-import-finished' : 'network-import-failed'),
    // Imported, but something in the result looks wrong (a site rule that put most nodes on one site, names it did not match).
    outcome: (body) => ((body as Partial<DumpImportAnswer> | null)?.warnings?.length ? 'warning' : 'success'),
    notification: ({ ok, message }, params) => (ok ? message : `Network dump ${params.fileName} not imported: ${message}`),
  };
}
