import { sql, type Kysely } from 'kysely';
import { SEVERITIES, type AlarmChange, type AlarmCounts, type ReportRecipient, type SiteSearchHit } from 'contracts';
import { currentOperatorId } from '../db/operator-scope';
import type { Database } from '../db/schema';
import { escapeLike } from '../network/queries';
import { scopedSql, tenantScope } from '../db/list';
import { SITE_STATUS_TABLE } from './queries';

/**
 * The live alarm console's reads and writes (issue 47, docs/engines/monitoring.md): counters, the
 * acknowledgement of several alarms with one note, the alarms that changed between a node's two latest
 * logs, and the top bar's site search. Every query goes through the operator scope (docs/tenancy.md).
 */

type Db = Kysely<Database>;
type Row = Record<string, string | number | null>;

/** Names per statement: well under SQLite's and PostgreSQL's parameter limits. */
const CHUNK = 500;
const chunks = <T>(items: readonly T[], size = CHUNK): T[][] => {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
};

/** What the parse's store knows of a node it is about to write (ingest.ts PreparedNode has these). */
export interface ChangedNode {
  row: { node_name: string; logs_at: string | null; unreachable: number; site_id?: string | number | null };
  gaps: { alarms: string | null };
  rows: () => { alarms: Row[] };
}

/** `node|mo|problem` without the node: the same alarm under another spelling of the node's name. */
const alarmOf = (key: string, node: string) => (key.startsWith(node) ? key.slice(node.length) : key.slice(key.indexOf('|')));

/**
 * Records, in the parse's transaction and before the node's rows are replaced, how each node's new log
 * differs from the one stored. Only a log that was read whole says which alarms are gone: a node
 * unreachable, or whose alarm table was cut short, keeps the changes it had. A node seen for the first
 * time, or last seen unreachable (nothing was known of its alarms), has no earlier log to compare with.
 */
export async function recordAlarmChanges(
  trx: Db,
  nodes: readonly ChangedNode[],
  stored: ReadonlyMap<string, readonly string[]>,
  parseId: number,
): Promise<void> {
  const compared = nodes.filter((n) => n.row.unreachable === 0 && n.gaps.alarms === null);
  if (compared.length === 0) return;
  const oldNames = compared.flatMap((n) => stored.get(n.row.node_name.toLowerCase()) ?? []);
  const previous = new Map<string, { logsAt: string | null; unreachable: number }>();
  const oldAlarms = new Map<string, Array<{ key: string; severity: string; problem: string; mo: string; at: string | null; site: string | null }>>();
  for (const names of chunks(oldNames)) {
    for (const r of await trx.selectFrom('monitoring_nodes').select(['node_name', 'logs_at', 'unreachable']).where('node_name', 'in', names).execute())
      previous.set(r.node_name, { logsAt: r.logs_at, unreachable: Number(r.unreachable) });
    const alarms = await trx
      .selectFrom('monitoring_alarms')
      .select(['node_name', 'alarm_key', 'severity', 'specific_problem', 'mo', 'alarm_at', 'site_id'])
      .where('node_name', 'in', names)
      .execute();
    for (const a of alarms) {
      const list = oldAlarms.get(a.node_name) ?? [];
      list.push({ key: alarmOf(a.alarm_key, a.node_name), severity: a.severity, problem: a.specific_problem, mo: a.mo, at: a.alarm_at, site: a.site_id });
      oldAlarms.set(a.node_name, list);
    }
  }
  const replaced = [...new Set([...oldNames, ...compared.map((n) => n.row.node_name)])];
  for (const names of chunks(replaced)) await trx.deleteFrom('monitoring_alarm_changes').where('node_name', 'in', names).execute();

  const changes: Array<Omit<Database['monitoring_alarm_changes'], 'operator_id'>> = [];
  for (const node of compared) {
    const name = node.row.node_name;
    const old = stored.get(name.toLowerCase()) ?? [];
    const before = old.map((o) => previous.get(o)).find((p) => p !== undefined);
    if (!before || before.unreachable === 1) continue;
    const site = node.row.site_id === undefined || node.row.site_id === null ? null : String(node.row.site_id);
    const common = { node_name: name, site_id: site, parse_id: parseId, logs_at: node.row.logs_at, previous_logs_at: before.logsAt };
    const now = new Map<string, Row>();
    for (const a of node.rows().alarms) now.set(alarmOf(String(a.alarm_key), name), a);
    const then = new Map(old.flatMap((o) => oldAlarms.get(o) ?? []).map((a) => [a.key, a]));
    for (const [key, a] of now) {
      if (then.has(key)) continue;
      changes.push({
        ...common,
        alarm_key: `${name}${key}`,
        change: 'new',
        severity: String(a.severity),
        specific_problem: String(a.specific_problem),
        mo: String(a.mo),
        alarm_at: a.alarm_at === null ? null : String(a.alarm_at),
      });
    }
    for (const [key, a] of then) {
      if (now.has(key)) continue;
      changes.push({ ...common, alarm_key: `${name}${key}`, change: 'cleared', severity: a.severity, specific_problem: a.problem, mo: a.mo, alarm_at: a.at });
    }
  }
  // 12 columns a row: 100 rows stay under SQLite's 32,766 parameters with room to spare.
  for (const rows of chunks(changes, 100)) await trx.insertInto('monitoring_alarm_changes').values(rows).execute();
}

/** The alarms new and cleared since each node's previous log, of one site or of the whole operator. */
export async function listAlarmChanges(db: Db, siteId?: string): Promise<AlarmChange[]> {
  let query = db
    .selectFrom('monitoring_alarm_changes')
    .select(['node_name', 'site_id', 'change', 'severity', 'specific_problem', 'mo', 'alarm_at', 'logs_at', 'previous_logs_at'])
    .orderBy('node_name')
    .orderBy('change', 'desc')
    .orderBy(sql`case severity when 'Critical' then 0 when 'Major' then 1 when 'Minor' then 2 else 3 end`)
    .orderBy('alarm_key')
    .limit(2000);
  if (siteId !== undefined) query = query.where('site_id', '=', siteId);
  const rows = await query.execute();
  return rows.map((r) => ({
    nodeName: r.node_name,
    siteId: r.site_id,
    change: r.change === 'new' ? 'new' : 'cleared',
    severity: r.severity,
    AlarmName: r.specific_problem,
    moName: r.mo,
    alarmDatetime: r.alarm_at,
    logsDate: r.logs_at,
    previousLogsDate: r.previous_logs_at,
  }));
}

/** The counters above the alarm list; `siteId` narrows them to one site (the report's Alarms tab, the mail). */
export async function alarmCounts(db: Db, siteId?: string): Promise<AlarmCounts> {
  let bySeverity = db
    .selectFrom('monitoring_alarms as a')
    .leftJoin('monitoring_alarm_acks as k', 'k.alarm_key', 'a.alarm_key')
    .select((eb) => [
      'a.severity',
      eb.fn.countAll<number | string>().as('n'),
      sql<number | string>`sum(case when k.alarm_key is not null or a.node_acknowledged = 1 then 1 else 0 end)`.as('acked'),
    ])
    .groupBy('a.severity');
  let changes = db
    .selectFrom('monitoring_alarm_changes')
    .select((eb) => ['change', eb.fn.countAll<number | string>().as('n')])
    .groupBy('change');
  if (siteId !== undefined) {
    bySeverity = bySeverity.where('a.site_id', '=', siteId);
    changes = changes.where('site_id', '=', siteId);
  }
  const counts: AlarmCounts = { Critical: 0, Major: 0, Minor: 0, Warning: 0, acknowledged: 0, total: 0, newSinceLastLog: 0, clearedSinceLastLog: 0 };
  for (const r of await bySeverity.execute()) {
    const n = Number(r.n);
    if ((SEVERITIES as readonly string[]).includes(r.severity)) counts[r.severity as (typeof SEVERITIES)[number]] += n;
    counts.total += n;
    counts.acknowledged += Number(r.acked ?? 0);
  }
  for (const r of await changes.execute()) {
    if (r.change === 'new') counts.newSinceLastLog = Number(r.n);
    else counts.clearedSinceLastLog = Number(r.n);
  }
  return counts;
}

/**
 * One note for several alarms, all or none: answers the ids the operator's alarms do not have (another
 * operator's alarm is not found, docs/tenancy.md), and writes nothing when there are any.
 */
export async function acknowledgeAlarms(
  db: Db,
  alarmIds: readonly number[],
  ack: { note: string; by: number; byName: string; at: string },
): Promise<{ missing: number }> {
  return db.transaction().execute(async (trx) => {
    const alarms = await trx.selectFrom('monitoring_alarms').select(['id', 'alarm_key', 'node_name']).where('id', 'in', alarmIds).execute();
    if (alarms.length !== alarmIds.length) return { missing: alarmIds.length - alarms.length };
    const values = { note: ack.note, acked_by: ack.by, acked_by_name: ack.byName, acked_at: ack.at };
    // Two alarms of one key (the same node, MO and problem) share one acknowledgement.
    const byKey = new Map(alarms.map((a) => [a.alarm_key, a]));
    for (const a of byKey.values()) {
      await trx
        .insertInto('monitoring_alarm_acks')
        .values({ alarm_key: a.alarm_key, node_name: a.node_name, ...values })
        .onConflict((oc) => oc.columns(['operator_id', 'alarm_key']).doUpdateSet(values))
        .execute();
    }
    return { missing: 0 };
  });
}

const SEARCH_LIMIT = 20;

/**
 * The top bar's site search: sites of the inventory and sites known only from logs, whose id or name
 * contains the text (any case); ids that start with it first, then by id. At most 20.
 */
export async function searchSites(db: Db, text: string): Promise<SiteSearchHit[]> {
  const typed = text.trim().toLowerCase();
  if (typed === '') return [];
  const contains = `%${escapeLike(typed)}%`;
  const starts = `${escapeLike(typed)}%`;
  const own = currentOperatorId() ?? -1;
  // The inventory (own sites and those shared with the operator, one row per id, its own name first).
  const inventory = await db
    .selectFrom('network_sites')
    .select((eb) => [
      'id',
      sql<string>`coalesce(max(case when ${eb.ref('operator_id')} = ${own} then ${eb.ref('name')} end), min(${eb.ref('name')}))`.as('name'),
    ])
    .where((eb) =>
      eb.or([sql<boolean>`lower(${eb.ref('id')}) like ${contains} escape '\\'`, sql<boolean>`lower(${eb.ref('name')}) like ${contains} escape '\\'`]),
    )
    .groupBy('id')
    .orderBy(sql`case when lower(id) like ${starts} escape '\\' then 0 else 1 end`)
    .orderBy('id')
    .limit(SEARCH_LIMIT)
    .execute();
  const found = new Map<string, string | null>(inventory.map((s) => [s.id, s.name]));
  if (found.size < SEARCH_LIMIT) {
    // Sites only the logs know (nodes outside the inventory), by the site the rule made of their names.
    const logged = await db
      .selectFrom('monitoring_site_statuses')
      .select('site')
      .where(sql<boolean>`lower(site) like ${contains} escape '\\'`)
      .orderBy('site')
      .limit(SEARCH_LIMIT)
      .execute();
    for (const s of logged) if (found.size < SEARCH_LIMIT && !found.has(s.site)) found.set(s.site, null);
  }
  const statuses = await overallStatuses(db, [...found.keys()]);
  const hits = [...found].map(([siteId, siteName]) => ({ siteId, siteName, overallSiteStatus: statuses.get(siteId) ?? null }));
  const rank = (h: SiteSearchHit) => (h.siteId.toLowerCase().startsWith(typed) ? 0 : 1);
  return hits.sort((a, b) => rank(a) - rank(b) || (a.siteId < b.siteId ? -1 : a.siteId > b.siteId ? 1 : 0));
}

/** Each site's overall status, by the overall site summary's own expression (so the two never disagree). */
export async function overallStatuses(db: Db, siteIds: readonly string[]): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  if (siteIds.length === 0) return out;
  const status = SITE_STATUS_TABLE.columns.overallSiteStatus!;
  const { rows } = await scopedSql(
    sql<{ site: string; status: string }>`select g.site as site, ${status} as status from monitoring_site_statuses g
      where ${tenantScope('g')} and g.site in (${sql.join(siteIds)})`,
  ).execute(db);
  for (const r of rows) out.set(r.site, r.status);
  return out;
}

/** The active users of the current operator: who a report may be mailed to. */
export async function reportRecipients(db: Db): Promise<ReportRecipient[]> {
  const operatorId = currentOperatorId();
  if (operatorId === null || operatorId === undefined) return [];
  const rows = await db
    .selectFrom('users')
    .innerJoin('user_operators', 'user_operators.user_id', 'users.id')
    .select(['users.id', 'users.firstname', 'users.lastname', 'users.email'])
    .where('user_operators.operator_id', '=', operatorId)
    .where('users.deactivated_at', 'is', null)
    .orderBy('users.lastname')
    .orderBy('users.firstname')
    .orderBy('users.id')
    .execute();
  return rows.map((r) => ({ id: r.id, name: `${r.firstname} ${r.lastname}`.trim(), email: r.email }));
}
