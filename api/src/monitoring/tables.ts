import type { TenantColumn } from '../db/operator-scope';
import type { Generated } from 'kysely';

/**
 * Row types of the monitoring tables (migration 0009). A node's rows come from its latest parsed log
 * and are replaced together; flags are 0/1; points in time are ISO-8601 UTC text.
 */

/** Where a stored finding came from. */
interface SourceColumns {
  archive: string;
  file: string;
  /** 1-based line in the file. */
  line: number;
}

interface NodeRowColumns extends SourceColumns {
  id: Generated<number>;
  node_name: string;
  parse_id: number;
  mo: string;
  mo_class: string | null;
  /** 2G, 3G, 4G, 5G, NB-IoT or site. */
  tech: string;
  cell: string | null;
}

export interface MonitoringParsesTable {
  /** The operator the row belongs to (docs/tenancy.md): filled in and filtered by the operator scope. */
  operator_id: TenantColumn;
  id: Generated<number>;
  parsed_at: string;
  parsed_by: number | null;
  job_id: string | null;
  /** JSON array of the archives' names. */
  archives: string;
  logs_date: string | null;
  files: number;
  parsed: number;
  unreachable: number;
  not_in_inventory: number;
  failed: number;
  problems: number;
  /** ParseReport JSON. */
  report: string;
}

export interface MonitoringNodesTable extends SourceColumns {
  /** The operator the row belongs to (docs/tenancy.md): filled in and filtered by the operator scope. */
  operator_id: TenantColumn;
  node_name: string;
  site_id: string | null;
  in_inventory: number;
  tech: string | null;
  parse_id: number;
  logs_at: string | null;
  unreachable: number;
  unreachable_reason: string | null;
  problems: number;
  /** OK, NOK, N/A (unreachable: nothing known) or 'Incomplete log' (the log stopped inside the table; the previous rows are kept, stale). */
  alarm_status: string;
  alarm_count: number;
  alarm_comments: string;
  radio_status: string;
  radio_comments: string;
  core_status: string;
  core_comments: string;
  updated_at: string;
}

export interface MonitoringAlarmsTable extends NodeRowColumns {
  /** The operator the row belongs to (docs/tenancy.md): filled in and filtered by the operator scope. */
  operator_id: TenantColumn;
  site_id: string | null;
  alarm_at: string | null;
  alarm_time: string;
  /** UTC or Local. */
  time_basis: string;
  /** Critical, Major, Minor or Warning. */
  severity: string;
  specific_problem: string;
  info: string;
  node_acknowledged: number;
  node_operator: string | null;
  alarm_key: string;
  /** 1: kept from an older log, the newest one having stopped inside its alarm table (migration 0014). */
  stale: Generated<number>;
}

export interface MonitoringAlarmAcksTable {
  /** The operator the row belongs to (docs/tenancy.md): filled in and filtered by the operator scope. */
  operator_id: TenantColumn;
  alarm_key: string;
  node_name: string;
  note: string;
  acked_by: number | null;
  acked_by_name: string;
  acked_at: string;
}

export interface MonitoringStatesTable extends NodeRowColumns {
  /** The operator the row belongs to (docs/tenancy.md): filled in and filtered by the operator scope. */
  operator_id: TenantColumn;
  adm_state: string | null;
  op_state: string | null;
  link: string | null;
  /** 1: kept from an older log, the newest one having stopped inside its `st` table (migration 0014). */
  stale: Generated<number>;
}

export interface MonitoringAttributesTable extends NodeRowColumns {
  /** The operator the row belongs to (docs/tenancy.md): filled in and filtered by the operator scope. */
  operator_id: TenantColumn;
  attribute: string;
  value: string;
}

export interface MonitoringRetTable extends SourceColumns {
  /** The operator the row belongs to (docs/tenancy.md): filled in and filtered by the operator scope. */
  operator_id: TenantColumn;
  id: Generated<number>;
  node_name: string;
  parse_id: number;
  mo: string;
  antenna_unit_group: string | null;
  antenna_near_unit: string | null;
  ret_sub_unit: string | null;
  /** 0.1°. */
  electrical_tilt: number | null;
  max_tilt: number | null;
  min_tilt: number | null;
  operational_state: string | null;
  user_label: string | null;
  serial_number: string | null;
}

export interface MonitoringFindingsTable extends NodeRowColumns {
  /** The operator the row belongs to (docs/tenancy.md): filled in and filtered by the operator scope. */
  operator_id: TenantColumn;
  /** radio or core. */
  area: string;
  check_name: string;
  expected: string | null;
  actual: string | null;
  /** OK or NOK. */
  status: string;
  comment: string;
}

export interface MonitoringAlarmHintsTable {
  alarm_name: string;
  hint: string;
  updated_by: number | null;
  updated_at: string;
}

export interface MonitoringPerformanceTable {
  /** The operator the row belongs to (docs/tenancy.md): filled in and filtered by the operator scope. */
  operator_id: TenantColumn;
  node_name: string;
  site_id: string | null;
  /** OK or NOK. */
  status: string;
  comments: string;
  measured_at: string | null;
  file_name: string;
  imported_at: string;
}

/** Per site (or node without a site), the worst status rank of its nodes (migration 0019, site-statuses.ts). */
export interface MonitoringSiteStatusesTable {
  operator_id: TenantColumn;
  /** The site id, or the node name of a node without a site. */
  site: string;
  /** 3 NOK, 2 'Incomplete log', 1 OK, 0 N/A. */
  alarm: number;
  radio: number;
  core: number;
  perf: number;
  /** 1 when a node of the site could not be reached. */
  unreachable: number;
}

/** Per node, how its latest log's alarms differ from the log before (migration 0020, alarm-changes.ts). */
export interface MonitoringAlarmChangesTable {
  operator_id: TenantColumn;
  node_name: string;
  site_id: string | null;
  alarm_key: string;
  /** new or cleared. */
  change: string;
  severity: string;
  specific_problem: string;
  mo: string;
  alarm_at: string | null;
  parse_id: number;
  logs_at: string | null;
  previous_logs_at: string | null;
}

/** A project's daily site-status digest (migration 0020, digests.ts). */
export interface MonitoringDigestSchedulesTable {
  operator_id: TenantColumn;
  project_id: number;
  /** 0–23, UTC. */
  hour: number;
  /** JSON array of user ids. */
  recipients: string;
  created_by: number | null;
  updated_at: string;
  /** YYYY-MM-DD (UTC) of the last digest sent. */
  last_sent_on: string | null;
}

export interface MonitoringTables {
  monitoring_parses: MonitoringParsesTable;
  monitoring_nodes: MonitoringNodesTable;
  monitoring_alarms: MonitoringAlarmsTable;
  monitoring_alarm_acks: MonitoringAlarmAcksTable;
  monitoring_states: MonitoringStatesTable;
  monitoring_attributes: MonitoringAttributesTable;
  monitoring_ret: MonitoringRetTable;
  monitoring_findings: MonitoringFindingsTable;
  monitoring_alarm_hints: MonitoringAlarmHintsTable;
  monitoring_performance: MonitoringPerformanceTable;
  monitoring_site_statuses: MonitoringSiteStatusesTable;
  monitoring_alarm_changes: MonitoringAlarmChangesTable;
  monitoring_digest_schedules: MonitoringDigestSchedulesTable;
}
