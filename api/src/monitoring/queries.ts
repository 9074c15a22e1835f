import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { Database } from '../db/schema';
import { keyedColumns, listFrom, scopedSql, tenantScope, type KeyedTable, type ListQuery, type ListSource } from '../db/list';
import {
  ALARM_FIELDS,
  type AlarmRow,
  CONFIGURATION_SUMMARY_FIELDS,
  type ConfigurationSummaryRow,
  FAULT_SUMMARY_FIELDS,
  type FaultSummaryRow,
  INCOMPLETE_LOG,
  OVERALL_SITE_SUMMARY_FIELDS,
  type OverallSiteSummaryRow,
  type SiteSharing,
} from 'contracts';
import { loadSharingMarks, NOT_SHARED } from '../network/shares';

type Db = Kysely<Database>;

/** The list query every monitoring list takes (contracts/monitoring.ts `listQuery`). */
export type MonitoringListQuery = ListQuery;

// ---- Shared expressions ----

/** 'Not in inventory' / 'Unreachable', joined by '; ', or ''. */
const remarksOf = (n: string) =>
  sql`case when ${sql.ref(`${n}.in_inventory`)} = 0 and ${sql.ref(`${n}.unreachable`)} = 1 then 'Not in inventory; Unreachable'
    when ${sql.ref(`${n}.in_inventory`)} = 0 then 'Not in inventory'
    when ${sql.ref(`${n}.unreachable`)} = 1 then 'Unreachable' else '' end`;

/**
 * The earliest commissioning date of the site's plan rows, preferring those of the node's technology
 * (a node "4G/5G" matches plan rows of 4G and 5G). Read at query time: the plan changes with each import.
 */
const commissioningDateOf = (siteId: RawBuilder<unknown>, tech: RawBuilder<unknown> | null) =>
  tech
    ? sql`(select p.comm_date from tracking_commissioning_plan p where ${tenantScope('p')} and p.local_id = ${siteId} and p.comm_date is not null
        order by case when p.technology = ${tech} or ${tech} like '%' || p.technology || '%' then 0 else 1 end, p.comm_date limit 1)`
    : sql`(select min(p.comm_date) from tracking_commissioning_plan p where ${tenantScope('p')} and p.local_id = ${siteId})`;

const currentStatusOf = (siteId: RawBuilder<unknown>) =>
  sql`(select t.current_status from tracking_tracker t where ${tenantScope('t')} and t.local_id = ${siteId} order by t.id limit 1)`;

/**
 * The site's name: the operator's own site row (`own`, left joined on its own scope), else the row of a
 * site another operator shares with it (RAN sharing), so a node on a shared site is named without a
 * second join row. `operatorOf` is a column of the operator's own (scoped) rows: the current operator.
 * The look-up runs only where the own row is missing (coalesce stops at its first value).
 */
const siteNameOf = (own: string, siteId: RawBuilder<unknown>, operatorOf: string) =>
  sql`coalesce(${sql.ref(`${own}.name`)}, (select o.name from network_sites o
      join network_site_shares x on x.site_id = o.id and x.operator_id = o.operator_id and x.partner_operator_id = ${sql.ref(operatorOf)}
      where o.id = ${siteId} and (${tenantScope('o')} or x.partner_operator_id = ${sql.ref(operatorOf)})
        and (${tenantScope('x')} or x.partner_operator_id = ${sql.ref(operatorOf)})
      order by o.operator_id limit 1))`;

/** The node's identification fields (contract `identity` + `logFacts`), selected from `monitoring_nodes n`. */
const nodeIdentity = sql`n.site_id as "siteId", ${siteNameOf('s', sql`n.site_id`, 'n.operator_id')} as "siteName", n.node_name as "nodeName", n.tech as "tech",
  ${commissioningDateOf(sql`n.site_id`, sql`n.tech`)} as "commissioningDate", ${currentStatusOf(sql`n.site_id`)} as "currentStatus"`;
const nodeFacts = sql`n.logs_at as "logsDate", ${remarksOf('n')} as "remarks"`;

/** The alarm fields read from monitoring_alarms alone: a page sorted and filtered on them is chosen there first (ListSource.keyed). */
const ALARM_TABLE: KeyedTable = {
  table: sql`monitoring_alarms a`,
  key: 'id',
  columns: {
    id: sql`a.id`,
    siteId: sql`a.site_id`,
    nodeName: sql`a.node_name`,
    tech: sql`a.tech`,
    alarmDatetime: sql`a.alarm_at`,
    severity: sql`a.severity`,
    AlarmName: sql`a.specific_problem`,
    moName: sql`a.mo`,
    info: sql`a.info`,
    source: sql`a.archive || ' › ' || a.file || ':' || cast(a.line as text)`,
    stale: sql`case when a.stale = 1 then 'Yes' else 'No' end`,
  },
  where: tenantScope('a'),
  // Migration 0021: the columns people look alarms up by.
  trigrams: { table: 'monitoring_alarms_trigrams', columns: { siteId: 'site_id', nodeName: 'node_name', AlarmName: 'specific_problem' } },
};

/** Acknowledged in the console, or on the node (the ACKNOWLEDGED ALARMS table). */
const ALARM_SELECT = sql`select ${keyedColumns(ALARM_TABLE.columns)}, ${siteNameOf('s', sql`a.site_id`, 'a.operator_id')} as "siteName",
    case when k.alarm_key is not null or a.node_acknowledged = 1 then 'Yes' else 'No' end as "acknowledged",
    k.note as "ackNote",
    coalesce(k.acked_by_name, case when a.node_acknowledged = 1 then a.node_operator end) as "ackBy",
    k.acked_at as "ackAt",
    h.hint as "hint"
  from ${ALARM_TABLE.table}
  left join network_sites s on s.id = a.site_id and ${tenantScope('s')}
  left join monitoring_alarm_acks k on k.alarm_key = a.alarm_key and ${tenantScope('k')}
  left join monitoring_alarm_hints h on h.alarm_name = a.specific_problem
  where ${tenantScope('a')}`;

export const ALARM_LIST: ListSource = {
  from: ALARM_SELECT,
  // Each join is to a unique key: one row per alarm.
  countFrom: sql`select 1 from monitoring_alarms a where ${tenantScope('a')}`,
  keyed: ALARM_TABLE,
  fields: ALARM_FIELDS,
  dateFields: new Set(['alarmDatetime', 'ackAt']),
  numberFields: new Set(['id']),
  defaultSort: 'alarmDatetime',
  defaultOrder: 'descend',
  tieBreak: ['id'],
};

export const FAULT_SUMMARY_LIST: ListSource = {
  from: sql`select ${nodeIdentity}, n.alarm_status as "alarmStatus", n.alarm_count as "alarmCount", n.alarm_comments as "alarmComments", ${nodeFacts}
    from monitoring_nodes n left join network_sites s on s.id = n.site_id and ${tenantScope('s')} where ${tenantScope('n')}`,
  fields: FAULT_SUMMARY_FIELDS,
  dateFields: new Set(['commissioningDate', 'logsDate']),
  numberFields: new Set(['alarmCount']),
  defaultSort: 'nodeName',
  defaultOrder: 'ascend',
  tieBreak: ['nodeName'],
};

export const CONFIGURATION_SUMMARY_LIST: ListSource = {
  from: sql`select ${nodeIdentity}, n.radio_status as "radioStatus", n.radio_comments as "radioComments",
      n.core_status as "coreStatus", n.core_comments as "coreComments", ${nodeFacts}
    from monitoring_nodes n left join network_sites s on s.id = n.site_id and ${tenantScope('s')} where ${tenantScope('n')}`,
  fields: CONFIGURATION_SUMMARY_FIELDS,
  dateFields: new Set(['commissioningDate', 'logsDate']),
  numberFields: new Set(),
  defaultSort: 'nodeName',
  defaultOrder: 'ascend',
  tieBreak: ['nodeName'],
};

/** A rank of monitoring_site_statuses (site-statuses.ts) as the status it stands for. */
const statusOfRank = (column: string) =>
  sql`case when ${sql.ref(column)} = 3 then 'NOK' when ${sql.ref(column)} = 2 then ${sql.lit(INCOMPLETE_LOG)} when ${sql.ref(column)} = 1 then 'OK' else 'N/A' end`;

/**
 * The statuses of each site, kept by the parse and the PM import (site-statuses.ts): a page sorted and
 * filtered on them is chosen here first (ListSource.keyed), so the plan and tracker look-ups of the
 * other fields are made for its ten rows, not for every site.
 */
export const SITE_STATUS_TABLE: KeyedTable = {
  table: sql`monitoring_site_statuses g`,
  where: tenantScope('g'),
  key: 'siteId',
  columns: {
    siteId: sql`g.site`,
    overallSiteStatus: sql`case when g.alarm = 3 or g.radio = 3 or g.core = 3 or g.perf = 3 or g.unreachable = 1 then 'NOK'
        when g.alarm = 2 or g.radio = 2 or g.core = 2 then ${sql.lit(INCOMPLETE_LOG)}
        when g.alarm = 1 or g.radio = 1 or g.core = 1 or g.perf = 1 then 'OK' else 'N/A' end`,
    performanceStatus: statusOfRank('g.perf'),
    alarmStatus: statusOfRank('g.alarm'),
    radioStatus: statusOfRank('g.radio'),
    coreStatus: statusOfRank('g.core'),
  },
};

/** One row per site: nodes without a site stand alone under their node name. */
export const OVERALL_SITE_SUMMARY_LIST: ListSource = {
  from: sql`select ${keyedColumns(SITE_STATUS_TABLE.columns)}, ${siteNameOf('s', sql`g.site`, 'g.operator_id')} as "siteName", ${commissioningDateOf(sql`g.site`, null)} as "commissioningDate",
      ${currentStatusOf(sql`g.site`)} as "currentStatus"
    from ${SITE_STATUS_TABLE.table} left join network_sites s on s.id = g.site and ${tenantScope('s')} where ${tenantScope('g')}`,
  // One row per site whatever the joins: counted without the look-ups.
  countFrom: sql`select 1 from monitoring_site_statuses g where ${tenantScope('g')}`,
  keyed: SITE_STATUS_TABLE,
  fields: OVERALL_SITE_SUMMARY_FIELDS,
  dateFields: new Set(['commissioningDate']),
  numberFields: new Set(),
  defaultSort: 'siteId',
  defaultOrder: 'ascend',
  tieBreak: ['siteId'],
};

export const listAlarms = (db: Db, query: MonitoringListQuery) => listFrom<AlarmRow>(db, ALARM_LIST, query);
export const listFaultSummary = async (db: Db, query: MonitoringListQuery) => {
  const page = await listFrom<FaultSummaryRow>(db, FAULT_SUMMARY_LIST, query);
  // PostgreSQL answers integer columns as numbers, but keep it certain for both dialects.
  return { ...page, rows: page.rows.map((r) => ({ ...r, alarmCount: Number(r.alarmCount) })) };
};
export const listConfigurationSummary = (db: Db, query: MonitoringListQuery) => listFrom<ConfigurationSummaryRow>(db, CONFIGURATION_SUMMARY_LIST, query);
/** The page's rows carry their 'shared with X' mark: one read of the share table for the page's sites. */
export const listOverallSiteSummary = async (db: Db, query: MonitoringListQuery) => {
  const page = await listFrom<Omit<OverallSiteSummaryRow, keyof SiteSharing>>(db, OVERALL_SITE_SUMMARY_LIST, query);
  const marks = await loadSharingMarks(
    db,
    page.rows.map((r) => r.siteId),
  );
  return { ...page, rows: page.rows.map((r): OverallSiteSummaryRow => ({ ...r, ...(marks.get(r.siteId) ?? NOT_SHARED) })) };
};

/** The newest logs date of the nodes' latest logs, or null. */
export async function lastLogsDate(db: Db): Promise<string | null> {
  const row = await db
    .selectFrom('monitoring_nodes')
    .select((eb) => eb.fn.max('logs_at').as('at'))
    .executeTakeFirst();
  return row?.at ?? null;
}

export const PERFORMANCE_STAMP = 'monitoring.performance.importedAt';

/** An alarm row's fields in the contract's order, as the list answers them. */
const ALARM_ROW = sql.join(ALARM_FIELDS.map((field) => sql.ref(`q.${field}`)));

/** One alarm row by id (as the list shows it), or undefined. */
export async function findAlarm(db: Db, id: number): Promise<AlarmRow | undefined> {
  const { rows } = await scopedSql(sql<AlarmRow>`select ${ALARM_ROW} from (${ALARM_SELECT}) as q where q.id = ${id}`).execute(db);
  return rows[0];
}

/** Alarm rows of a site's nodes (node's site, else the alarm's own), in list order (newest first). */
export async function alarmsOfNodes(db: Db, nodes: readonly string[]): Promise<AlarmRow[]> {
  if (nodes.length === 0) return [];
  const { rows } = await scopedSql(sql<AlarmRow>`select ${ALARM_ROW} from (${ALARM_SELECT}) as q where q."nodeName" in (${sql.join(nodes)})
    order by case when q."alarmDatetime" is null then 1 else 0 end, q."alarmDatetime" desc, q.id asc`).execute(db);
  return rows;
}
