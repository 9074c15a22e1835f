import type { Kysely } from 'kysely';
import type { SiteReport } from 'contracts';
import type { Database } from '../db/schema';
import { buildSiteReport, type SiteData } from '../domain/monitoring/report';
import { ownSiteFirst } from '../network/queries';
import { loadSharingMarks, NOT_SHARED } from '../network/shares';
import { alarmsOfNodes } from './queries';

type Db = Kysely<Database>;

export const siteNotFound = (siteId: string) => `Site ${siteId} not found.`;

/**
 * Everything known of a site: the inventory's name, the nodes of its parsed logs (by site, or the node
 * itself for nodes without one, as the overall summary groups them), its commissioning plan rows and
 * tracker row, and the nodes' alarms, RET rows and findings. Null when neither the inventory nor the
 * logs know the site.
 */
export async function loadSiteData(db: Db, siteId: string): Promise<SiteData | null> {
  const [site, nodes] = await Promise.all([
    // A site shared with the operator is read too (RAN sharing); its own row of the same id comes first.
    db.selectFrom('network_sites').select(['id', 'name']).where('id', '=', siteId).orderBy(ownSiteFirst()).executeTakeFirst(),
    db
      .selectFrom('monitoring_nodes as n')
      .leftJoin('monitoring_performance as p', 'p.node_name', 'n.node_name')
      .select([
        'n.node_name',
        'n.tech',
        'n.logs_at',
        'n.in_inventory',
        'n.unreachable',
        'n.unreachable_reason',
        'n.alarm_status',
        'n.alarm_count',
        'n.radio_status',
        'n.core_status',
        'p.status as performance_status',
        'p.comments as performance_comments',
      ])
      .where((eb) => eb.or([eb('n.site_id', '=', siteId), eb.and([eb('n.site_id', 'is', null), eb('n.node_name', '=', siteId)])]))
      .orderBy('n.node_name')
      .execute(),
  ]);
  if (!site && nodes.length === 0) return null;
  const names = nodes.map((n) => n.node_name);
  const [plan, tracker, alarms, ret, findings] = await Promise.all([
    db
      .selectFrom('tracking_commissioning_plan')
      .select(['technology', 'equip_code', 'equip_name', 'supplier', 'work_type', 'comm_date', 'week', 'project', 'work_order'])
      .where('local_id', '=', siteId)
      .orderBy('id')
      .execute(),
    db
      .selectFrom('tracking_tracker')
      .select(['current_status', 'schedule_status', 'delivered_date'])
      .where('local_id', '=', siteId)
      .orderBy('id')
      .executeTakeFirst(),
    alarmsOfNodes(db, names),
    names.length === 0
      ? Promise.resolve([])
      : db.selectFrom('monitoring_ret').selectAll().where('node_name', 'in', names).orderBy('node_name').orderBy('mo').orderBy('id').execute(),
    names.length === 0
      ? Promise.resolve([])
      : db.selectFrom('monitoring_findings').selectAll().where('node_name', 'in', names).orderBy('node_name').orderBy('id').execute(),
  ]);
  return {
    siteId,
    siteName: site?.name ?? null,
    nodes: nodes.map((n) => ({
      nodeName: n.node_name,
      tech: n.tech,
      logsDate: n.logs_at,
      inInventory: n.in_inventory === 1,
      unreachable: n.unreachable === 1,
      unreachableReason: n.unreachable_reason,
      alarmStatus: n.alarm_status,
      alarmCount: Number(n.alarm_count),
      radioStatus: n.radio_status,
      coreStatus: n.core_status,
      performanceStatus: n.performance_status ?? null,
      performanceComments: n.performance_comments ?? null,
    })),
    plan: plan.map((p) => ({
      technology: p.technology,
      equipCode: p.equip_code,
      equipName: p.equip_name,
      supplier: p.supplier,
      workType: p.work_type,
      commDate: p.comm_date,
      week: p.week === null ? null : Number(p.week),
      project: p.project,
      workOrder: p.work_order,
    })),
    tracker: tracker ? { currentStatus: tracker.current_status, scheduleStatus: tracker.schedule_status, deliveredDate: tracker.delivered_date } : null,
    alarms,
    ret: ret.map((r) => ({
      nodeName: r.node_name,
      mo: r.mo,
      antennaUnitGroup: r.antenna_unit_group,
      antennaNearUnit: r.antenna_near_unit,
      retSubUnit: r.ret_sub_unit,
      electricalTilt: r.electrical_tilt,
      minTilt: r.min_tilt,
      maxTilt: r.max_tilt,
      operationalState: r.operational_state,
      userLabel: r.user_label,
      serialNumber: r.serial_number,
    })),
    findings: findings.map((f) => ({
      nodeName: f.node_name,
      tech: f.tech,
      mo: f.mo,
      cell: f.cell,
      area: f.area,
      check: f.check_name,
      expected: f.expected,
      actual: f.actual,
      status: f.status,
      comment: f.comment,
    })),
  };
}

/** The site's report with whom it is shared ('shared with X' in its header), or null for a site nobody knows. */
export async function loadSiteReport(db: Db, siteId: string): Promise<SiteReport | null> {
  const data = await loadSiteData(db, siteId);
  if (!data) return null;
  const sharing = (await loadSharingMarks(db, [siteId])).get(siteId) ?? NOT_SHARED;
  const { siteId: id, siteName, ...rest } = buildSiteReport(data);
  return { siteId: id, siteName, ...sharing, ...rest };
}
