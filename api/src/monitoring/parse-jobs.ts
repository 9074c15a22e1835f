import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';
import { buildMobatchScripts, type ScriptNode } from '../domain/monitoring';
import { newExport, recordExport } from '../files';
import { writeZip } from '../files/zip-output';
import type { JobKind } from '../jobs/model';
import { announceAlarmsChanged } from './alarm-events';
import type { ParseParams, ParseTaskAnswer } from './parse-params';

/**
 * The log parser's jobs (docs/architecture.md#how-a-job-flows): parsing runs in a worker thread (a large archive is seconds of
 * CPU); the MoBatch scripts are a small read and a zip, written in process.
 */

export type { ParseParams } from './parse-params';

export interface ScriptsParams {
  ownerId: number;
}

/** Every node of the inventory with the technologies of its cells (its own technology when it has none). */
export async function inventoryScriptNodes(db: Kysely<Database>): Promise<ScriptNode[]> {
  const nodes = await db.selectFrom('network_nodes').select(['name', 'technology']).execute();
  const cells = await db.selectFrom('network_cells').select(['node_name', 'tech']).distinct().execute();
  const techs = new Map<string, string[]>();
  for (const c of cells) techs.set(c.node_name, [...(techs.get(c.node_name) ?? []), c.tech]);
  return nodes.map((n) => ({ name: n.name, technologies: techs.get(n.name) ?? (n.technology ? [n.technology] : []) }));
}

/** Writes the scripts zip as an export of the owner; answers the export id. */
export async function writeMobatchScripts(db: Kysely<Database>, dataDir: string, ownerId: number, now = new Date()): Promise<string> {
  const files = buildMobatchScripts(await inventoryScriptNodes(db));
  const pending = newExport(dataDir, 'monitoring.scripts', 'mobatch_scripts.zip');
  await writeZip(pending.file, files, now);
  return recordExport(db, ownerId, pending);
}

export const PARSE_JOB_KEY = 'monitoring-parse';

export function registerParseJobs(app: FastifyInstance): void {
  app.jobs.register<ParseParams>({
    kind: 'monitoring.parse',
    label: 'Log parsing',
    // Not repeated after a restart: the owner decides whether to parse those archives again.
    idempotent: false,
    run: async ({ params, progress, signal, jobId }) => {
      const answer = await app.runTask('monitoring.parse', { ...params, jobId }, progress, signal);
      // The parse is stored: every alarm console of the operator refreshes (issue 47).
      const parseId = (answer as Partial<ParseTaskAnswer> | null)?.parseId;
      await announceAlarmsChanged(app, { reason: 'parse', parseId: typeof parseId === 'number' ? parseId : null });
      return answer;
    },
    // The hub's notification carries a key and a title only; the key names the kind, the title says where the report is.
    // The parse's own key: the browser opens its report from the notification (shared-ui notificationLink).
    notificationKey: (_params, ok, body) => {
      const parseId = ok ? (body as Partial<ParseTaskAnswer> | null)?.parseId : undefined;
      return typeof parseId === 'number' ? `${PARSE_JOB_KEY}-${parseId}` : PARSE_JOB_KEY;
    },
    // Read by the task from the whole report (incomplete logs are in its files, not its counts).
    outcome: (body) => (body as Partial<ParseTaskAnswer> | null)?.outcome ?? 'success',
    notification: ({ ok, message, body }) => (ok ? ((body as Partial<ParseTaskAnswer> | null)?.notice ?? message) : `Logs not parsed: ${message}`),
  } satisfies JobKind<ParseParams>);
  app.jobs.register<ScriptsParams>({
    kind: 'monitoring.scripts',
    label: 'MoBatch scripts',
    idempotent: true,
    run: async ({ params, progress }) => {
      progress(10, 'Writing the MoBatch scripts');
      return { file: await writeMobatchScripts(app.services.db, app.services.config.dataDir, params.ownerId, new Date(app.auth.clock())) };
    },
    // The caller downloads it at once; a notification would only repeat that.
    notification: () => null,
  } satisfies JobKind<ScriptsParams>);
}
