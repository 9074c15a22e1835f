import fs from 'node:fs';
import type { FastifyInstance } from 'fastify';
import { sql, type Kysely } from 'kysely';
import { ALARM_CONSOLE_MESSAGES, type AlarmCounts, type DigestSchedule } from 'contracts';
import { scopedSql, tenantScope } from '../db/list';
import { runInOperator, runUnscoped } from '../db/operator-scope';
import type { Database } from '../db/schema';
import { findExport } from '../files';
import type { JobKind } from '../jobs/model';
import { escapeHtml } from '../lib/html';
import { alarmCounts, overallStatuses } from './alarm-console';
import { SITE_STATUS_TABLE } from './queries';
import { REPORT_KIND, type SiteReportParams } from './report-jobs';

/**
 * Reports to a list, and on a schedule (issue 47): the site report mailed to several users of the
 * operator with a short summary in the body, and each project's daily site-status digest, a recurring
 * job (docs/architecture.md#how-a-job-flows) queued by a ticker on every instance and claimed once per
 * day by a conditional update, so it shows on the job dashboard and is sent once however many
 * instances run.
 */

type Db = Kysely<Database>;

export const REPORT_LIST_KIND = 'monitoring.reportList';
export const DIGEST_KIND = 'monitoring.digest';
/** How often each instance looks for digests that are due. */
export const DIGEST_TICK_MS = 60_000;

export interface Recipient {
  email: string;
  name: string;
}

export interface SiteReportListParams extends SiteReportParams {
  recipients: Recipient[];
}

export interface DigestParams {
  projectId: number;
  ownerId: number | null;
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

function alarmLine(c: AlarmCounts): string {
  return (
    `Alarms: ${c.Critical} Critical, ${c.Major} Major, ${c.Minor} Minor, ${c.Warning} Warning (${c.acknowledged} acknowledged); ` +
    `${c.newSinceLastLog} new and ${c.clearedSinceLastLog} cleared since the last upload.`
  );
}

/** The site's status and alarm counts, the lines a report mail starts with. */
export async function siteSummaryLines(db: Db, siteId: string): Promise<string[]> {
  const status = (await overallStatuses(db, [siteId])).get(siteId) ?? 'N/A';
  const name = await db.selectFrom('network_sites').select('name').where('id', '=', siteId).executeTakeFirst();
  return [`Site ${siteId}${name ? ` – ${name.name}` : ''}: overall status ${status}.`, alarmLine(await alarmCounts(db, siteId))];
}

const htmlOf = (lines: readonly string[]) => lines.map((l) => `<p>${escapeHtml(l)}</p>`).join('');

/** The operator's sites per overall status, and the NOK ones (at most 20, by id). */
async function siteStatusLines(db: Db): Promise<string[]> {
  const status = SITE_STATUS_TABLE.columns.overallSiteStatus!;
  const { rows } = await scopedSql(
    sql<{ site: string; status: string }>`select g.site as site, ${status} as status from monitoring_site_statuses g where ${tenantScope('g')} order by g.site`,
  ).execute(db);
  const per = new Map<string, string[]>();
  for (const r of rows) per.set(r.status, [...(per.get(r.status) ?? []), r.site]);
  const counts = [...per].sort(([a], [b]) => (a < b ? -1 : 1)).map(([s, sites]) => `${sites.length} ${s}`);
  const nok = per.get('NOK') ?? [];
  return [
    `Sites: ${rows.length === 0 ? 'no site has a parsed log yet' : counts.join(', ')}.`,
    ...(nok.length > 0 ? [`NOK: ${nok.slice(0, 20).join(', ')}${nok.length > 20 ? ` and ${nok.length - 20} more` : ''}.`] : []),
  ];
}

/** The active users of the operator among `userIds`, as recipients. */
export async function recipientsOf(db: Db, operatorId: number, userIds: readonly number[]): Promise<Recipient[]> {
  if (userIds.length === 0) return [];
  const rows = await db
    .selectFrom('users')
    .innerJoin('user_operators', 'user_operators.user_id', 'users.id')
    .select(['users.email', 'users.firstname', 'users.lastname'])
    .where('user_operators.operator_id', '=', operatorId)
    .where('users.deactivated_at', 'is', null)
    .where('users.id', 'in', [...userIds])
    .orderBy('users.id')
    .execute();
  return rows.map((r) => ({ email: r.email, name: `${r.firstname} ${r.lastname}`.trim() }));
}

/** Every project of the current operator with its digest (hour null: none). */
export async function listDigestSchedules(db: Db, operatorId: number): Promise<DigestSchedule[]> {
  const projects = await db.selectFrom('projects').select(['id', 'name']).where('operator_id', '=', operatorId).orderBy('name').execute();
  const schedules = new Map((await db.selectFrom('monitoring_digest_schedules').selectAll().execute()).map((s) => [s.project_id, s]));
  return projects.map((p) => {
    const s = schedules.get(p.id);
    return {
      projectId: p.id,
      projectName: p.name,
      hour: s ? Number(s.hour) : null,
      userIds: s ? (JSON.parse(s.recipients) as number[]) : [],
      lastSentOn: s?.last_sent_on ?? null,
    };
  });
}

/**
 * Queues each digest whose hour has come today (UTC) and that has not been sent today, across every
 * operator (system work: runUnscoped), each in its own operator. The claim is one conditional update,
 * so of several instances ticking at once exactly one queues it.
 */
export async function queueDueDigests(app: FastifyInstance): Promise<string[]> {
  const now = new Date(app.auth.clock());
  const today = now.toISOString().slice(0, 10);
  const hour = now.getUTCHours();
  const db = app.services.db;
  const due = await runUnscoped(() =>
    db
      .selectFrom('monitoring_digest_schedules')
      .select(['operator_id', 'project_id', 'created_by'])
      .where('hour', '<=', hour)
      .where((eb) => eb.or([eb('last_sent_on', 'is', null), eb('last_sent_on', '<', today)]))
      .execute(),
  );
  const queued: string[] = [];
  for (const schedule of due) {
    const claimed = await runUnscoped(() =>
      db
        .updateTable('monitoring_digest_schedules')
        .set({ last_sent_on: today })
        .where('operator_id', '=', schedule.operator_id)
        .where('project_id', '=', schedule.project_id)
        .where((eb) => eb.or([eb('last_sent_on', 'is', null), eb('last_sent_on', '<', today)]))
        .executeTakeFirst(),
    );
    if (Number(claimed.numUpdatedRows) !== 1) continue;
    const ownerId = schedule.created_by;
    const job = await runInOperator(schedule.operator_id, () =>
      app.jobs.enqueue<DigestParams>(DIGEST_KIND, ownerId, { projectId: schedule.project_id, ownerId }),
    );
    queued.push(job.id);
  }
  return queued;
}

export function registerDigestJobs(app: FastifyInstance): void {
  const { db } = app.services;
  app.jobs.register<SiteReportListParams>({
    kind: REPORT_LIST_KIND,
    label: 'Site report to a list',
    // Not repeated after a restart: some mails may already have left.
    idempotent: false,
    run: async ({ params, progress, signal }) => {
      const { file } = (await app.runTask(REPORT_KIND, { siteId: params.siteId, ownerId: params.ownerId }, progress, signal)) as { file: string };
      progress(85, 'Sending the mails');
      const workbook = await findExport(db, app.services.config.dataDir, file, params.ownerId);
      const content = await fs.promises.readFile(workbook.file);
      const summary = await siteSummaryLines(db, params.siteId);
      const attached = `The site report is attached (${workbook.fileName}).`;
      // One mail each: the recipients do not see one another's addresses.
      for (const recipient of params.recipients) {
        await app.mailer.sendMail({
          to: recipient.email,
          subject: `Cellwise site report ${params.siteId}`,
          text: [...summary, '', attached, '', 'Cellwise'].join('\n'),
          html: `${htmlOf(summary)}<p>${escapeHtml(attached)}</p><p>Cellwise</p>`,
          attachments: [{ filename: workbook.fileName, content, contentType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' }],
        });
      }
      return { message: ALARM_CONSOLE_MESSAGES.reportSentTo(params.recipients.length) };
    },
    notification: () => null,
  } satisfies JobKind<SiteReportListParams>);

  app.jobs.register<DigestParams>({
    kind: DIGEST_KIND,
    label: 'Site-status digest',
    // Not repeated after a restart: the mails may already have left (the next day's comes anyway).
    idempotent: false,
    run: async ({ params, progress }) => {
      progress(10, 'Reading the site statuses');
      const schedule = await db.selectFrom('monitoring_digest_schedules').selectAll().where('project_id', '=', params.projectId).executeTakeFirst();
      const project = await db.selectFrom('projects').select(['name', 'operator_id']).where('id', '=', params.projectId).executeTakeFirst();
      if (!schedule || !project) return { message: ALARM_CONSOLE_MESSAGES.noSchedule, recipients: 0 };
      const operator = await db.selectFrom('operators').select('name').where('id', '=', project.operator_id).executeTakeFirst();
      const recipients = await recipientsOf(db, project.operator_id, JSON.parse(schedule.recipients) as number[]);
      const lines = [...(await siteStatusLines(db)), alarmLine(await alarmCounts(db))];
      const title = `Daily site-status digest — ${operator?.name ?? 'operator'} · ${project.name}`;
      progress(60, `Sending to ${plural(recipients.length, 'recipient')}`);
      for (const recipient of recipients) {
        await app.mailer.sendMail({
          to: recipient.email,
          subject: `Cellwise ${title}`,
          text: [title, '', ...lines, '', 'Cellwise'].join('\n'),
          html: `<p><b>${escapeHtml(title)}</b></p>${htmlOf(lines)}<p>Cellwise</p>`,
        });
      }
      return { message: ALARM_CONSOLE_MESSAGES.digestSent(project.name, recipients.length), recipients: recipients.length };
    },
  } satisfies JobKind<DigestParams>);

  let timer: NodeJS.Timeout | null = null;
  const tick = () => void queueDueDigests(app).catch((error: unknown) => app.log.warn({ err: error }, 'digests not queued'));
  app.addHook('onReady', async () => {
    timer = setInterval(tick, DIGEST_TICK_MS);
    timer.unref();
  });
  app.addHook('preClose', async () => {
    if (timer) clearInterval(timer);
  });
}
