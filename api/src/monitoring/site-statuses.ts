import { sql, type Kysely } from 'kysely';
import { INCOMPLETE_LOG } from 'contracts';
import { requireOperatorId } from '../db/operator-scope';
import type { Database } from '../db/schema';

/**
 * The overall site summary's statuses, kept per site in `monitoring_site_statuses` (migration 0019)
 * instead of grouped from every node on every read (issue 44: the summary served a fifth of a plain
 * read's rate at 50 connections). A site's status is the worst of its nodes' (NOK beats
 * 'Incomplete log' beats OK beats N/A), a node without a site stands alone under its node name.
 *
 * Only the log parse (monitoring_nodes) and the PM import (monitoring_performance) change what the
 * table is made from; each calls {@link refreshSiteStatuses} in its own transaction, so a reader sees
 * the statuses and the rows they come from change together.
 */

type Db = Kysely<Database>;

/** The status ranks (also read by the summary): 3 NOK, 2 'Incomplete log', 1 OK, 0 N/A. */
export const rankOf = (column: string) =>
  sql<number>`max(case when ${sql.ref(column)} = 'NOK' then 3 when ${sql.ref(column)} = ${sql.lit(INCOMPLETE_LOG)} then 2 when ${sql.ref(column)} = 'OK' then 1 else 0 end)`;

/**
 * Recounts the current operator's site statuses from its nodes and PM verdicts. A full recount, not a
 * per-site update: it is one grouped read of the operator's nodes (milliseconds for thousands), and a
 * node that moved site or lost its log can then never leave a stale row behind.
 */
export async function refreshSiteStatuses(db: Db): Promise<void> {
  const operatorId = requireOperatorId();
  await db.deleteFrom('monitoring_site_statuses').execute();
  const site = sql<string>`coalesce(n.site_id, n.node_name)`;
  await db
    .insertInto('monitoring_site_statuses')
    .columns(['operator_id', 'site', 'alarm', 'radio', 'core', 'perf', 'unreachable'])
    .expression(
      db
        .selectFrom('monitoring_nodes as n')
        .leftJoin('monitoring_performance as p', 'p.node_name', 'n.node_name')
        .select([
          sql<number>`${operatorId}`.as('operator_id'),
          site.as('site'),
          rankOf('n.alarm_status').as('alarm'),
          rankOf('n.radio_status').as('radio'),
          rankOf('n.core_status').as('core'),
          rankOf('p.status').as('perf'),
          sql<number>`max(n.unreachable)`.as('unreachable'),
        ])
        .groupBy(site),
    )
    .execute();
}
