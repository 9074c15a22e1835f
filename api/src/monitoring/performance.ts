import { refreshSiteStatuses } from './site-statuses';
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import type { PerformanceImportResponse } from 'contracts';
import type { Database } from '../db/schema';
import { PmParseError, type PmReadCounts, PmVerdicts, readMeasCollec } from '../domain/pm';
import { readArchive, resolveUpload, ZipReadError } from '../files';
import { JobRefusal, type JobKind, type TaskContext } from '../jobs/model';
import { writeStamp } from '../tracking/queries';
import { PERFORMANCE_STAMP } from './queries';

/**
 * The PM counter import (docs/engines/performance.md#rules-applied performanceStatus): an Administrator uploads a .zip of TS 32.435
 * measCollecFile XML files of any technology (LTE, NR, UTRAN, GSM, core); each node found gets an OK/NOK
 * verdict from its KPI counters, or N/A with the reason when its files hold none, which replaces its
 * previous one. Every file is read before anything is written, so a bad file changes nothing.
 */

export interface PerformanceImportParams {
  uploadId: string;
  ownerId: number;
}

export const PERFORMANCE_KIND = 'monitoring.performance';

export const PERFORMANCE_MESSAGES = {
  imported: (c: PmReadCounts) => {
    const plural = (n: number, one: string, many: string) => `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;
    const notJudged = c.nodesRead - c.nodesJudged;
    return (
      `PM counters imported: ${plural(c.nodesRead, 'node', 'nodes')} read (${plural(c.measValues, 'measured object', 'measured objects')}, ` +
      `${plural(c.counterValues, 'counter value', 'counter values')}), ${c.nodesJudged.toLocaleString('en-US')} judged` +
      (notJudged > 0 ? `, ${notJudged.toLocaleString('en-US')} N/A (no KPI counters).` : '.')
    );
  },
  noXml: 'The archive holds no .xml PM file (TS 32.435 measCollecFile).',
  badFile: (file: string, line: number, reason: string) => `${file}, line ${line}: ${reason}`,
} as const;

type Db = Kysely<Database>;

async function siteIdsOf(db: Db, nodes: readonly string[]): Promise<Map<string, string | null>> {
  const sites = new Map<string, string | null>();
  if (nodes.length === 0) return sites;
  // The inventory decides; a node only the logs know keeps the site they gave it.
  for (const row of await db.selectFrom('monitoring_nodes').select(['node_name', 'site_id']).where('node_name', 'in', nodes).execute())
    sites.set(row.node_name, row.site_id);
  for (const row of await db.selectFrom('network_nodes').select(['name', 'site_id']).where('name', 'in', nodes).execute())
    if (row.site_id !== null) sites.set(row.name, row.site_id);
  return sites;
}

export async function performanceImportTask(params: PerformanceImportParams, context: TaskContext): Promise<PerformanceImportResponse> {
  const upload = await resolveUpload(context.db, context.dataDir, params.uploadId, params.ownerId, 'zip');
  const verdicts = new PmVerdicts();
  const fileOfNode = new Map<string, string>();
  let xmlFiles = 0;
  try {
    for await (const entry of readArchive(upload.file, undefined, `The archive ${upload.name}`)) {
      if (!/\.xml$/i.test(entry.name)) continue;
      xmlFiles += 1;
      context.progress(Math.min(80, xmlFiles), `Reading ${entry.name}`);
      try {
        await readMeasCollec(entry.content, (value) => {
          verdicts.add(value);
          fileOfNode.set(value.node, entry.name);
        });
      } catch (error) {
        if (error instanceof PmParseError) throw new JobRefusal(400, { message: PERFORMANCE_MESSAGES.badFile(entry.name, error.line, error.reason) });
        throw error;
      }
    }
  } catch (error) {
    if (error instanceof ZipReadError) throw new JobRefusal(400, { message: error.message });
    throw error;
  }
  if (xmlFiles === 0) throw new JobRefusal(400, { message: PERFORMANCE_MESSAGES.noXml });

  // N/A rows too: a node read without KPI counters says why, rather than keeping an older verdict.
  const results = [...verdicts.verdicts(), ...verdicts.notJudged()];
  const counts = verdicts.counts();
  context.progress(90, 'Writing the verdicts');
  const sites = await siteIdsOf(
    context.db,
    results.map((r) => r.node),
  );
  const importedAt = new Date().toISOString();
  await context.db.transaction().execute(async (trx) => {
    for (let i = 0; i < results.length; i += 500) {
      const batch = results.slice(i, i + 500);
      await trx
        .deleteFrom('monitoring_performance')
        .where(
          'node_name',
          'in',
          batch.map((r) => r.node),
        )
        .execute();
      await trx
        .insertInto('monitoring_performance')
        .values(
          batch.map((r) => ({
            node_name: r.node,
            site_id: sites.get(r.node) ?? null,
            status: r.status,
            comments: r.comments,
            measured_at: r.measuredAt,
            file_name: fileOfNode.get(r.node) ?? upload.name,
            imported_at: importedAt,
          })),
        )
        .execute();
    }
    await refreshSiteStatuses(trx);
    await writeStamp(trx, PERFORMANCE_STAMP, importedAt);
  });
  return {
    message: PERFORMANCE_MESSAGES.imported(counts),
    nodes: counts.nodesJudged,
    nodesRead: counts.nodesRead,
    measValues: counts.measValues,
    counterValues: counts.counterValues,
  };
}

export function registerPerformanceJobs(app: FastifyInstance): void {
  app.jobs.register<PerformanceImportParams>({
    kind: PERFORMANCE_KIND,
    label: 'PM counter import',
    // Not repeated after a restart: the owner decides whether to import that file again.
    idempotent: false,
    run: ({ params, progress, signal }) => app.runTask(PERFORMANCE_KIND, params, progress, signal),
    notificationKey: () => 'monitoring-performance-import',
    // Nodes read without KPI counters could not be judged (N/A): imported, but not all of it tells anything.
    outcome: (body) => {
      const answer = body as Partial<PerformanceImportResponse> | null;
      return (answer?.nodesRead ?? 0) > (answer?.nodes ?? 0) ? 'warning' : 'success';
    },
    notification: ({ ok, message }) => (ok ? message : `PM counters not imported: ${message}`),
  } satisfies JobKind<PerformanceImportParams>);
}
