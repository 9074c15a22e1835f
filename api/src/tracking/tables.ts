import type { TenantColumn } from '../db/operator-scope';
/**
 * Row types of the tracking tables (migration 0006). Each data set is replaced whole by its import (or
 * the sync); ids are assigned in file order. Points in time are ISO-8601 UTC text.
 */
export interface CommissioningPlanTable {
  /** The operator the row belongs to (docs/tenancy.md): filled in and filtered by the operator scope. */
  operator_id: TenantColumn;
  id: number;
  local_id: string;
  technology: string | null;
  equip_code: string | null;
  equip_name: string | null;
  supplier: string | null;
  work_type: string | null;
  comm_date: string | null;
  week: number | null;
  mk_owner: string | null;
  imp_owner: string | null;
  bts_area: string | null;
  bts_tech: string | null;
  project: string | null;
  comments: string | null;
  stat_response: string | null;
  bss_tech: string | null;
  work_order: string | null;
  local_type: string | null;
  last_update: string | null;
}

export interface TrackerTable {
  /** The operator the row belongs to (docs/tenancy.md): filled in and filtered by the operator scope. */
  operator_id: TenantColumn;
  id: number;
  local_id: string;
  equip_name: string | null;
  supplier: string | null;
  comm_date: string | null;
  mk_owner: string | null;
  imp_owner: string | null;
  project: string | null;
  comments: string | null;
  bss_tech: string | null;
  local_type: string | null;
  schedule_status: string | null;
  date_entry: string | null;
  week: number | null;
  day_count: number | null;
  current_status: string | null;
  delivered_date: string | null;
  /** When the row was last written (import or sync): the delta's trackerLastUpdate. */
  last_update: string | null;
}

/** The work order status (WOW) data set. */
export interface WorkOrdersTable {
  /** The operator the row belongs to (docs/tenancy.md): filled in and filtered by the operator scope. */
  operator_id: TenantColumn;
  id: number;
  site_id: string;
  wo_type: string | null;
  wo_id: string | null;
  wow_status: string | null;
  wow_close_date: string | null;
  wow_last_change: string | null;
  wow_last_update: string | null;
}

/** Recomputed whenever the tracker or the WOW changes (same transaction). */
export interface WorkOrderDeltaTable {
  /** The operator the row belongs to (docs/tenancy.md): filled in and filtered by the operator scope. */
  operator_id: TenantColumn;
  id: number;
  site_id: string;
  wo_type: string | null;
  wo_id: string | null;
  tracker_status: string | null;
  wow_status: string | null;
  wow_close_date: string | null;
  wow_last_change: string | null;
  tracker_last_update: string | null;
  wow_last_update: string | null;
  action: string;
}

/** A data set's 'last update' stamp, per operator (migration 0016; they lived in app_meta before). */
export interface TrackingStampsTable {
  /** The operator the stamp belongs to (docs/tenancy.md): filled in and filtered by the operator scope. */
  operator_id: TenantColumn;
  key: string;
  value: string;
}

export interface TrackingTables {
  tracking_commissioning_plan: CommissioningPlanTable;
  tracking_tracker: TrackerTable;
  tracking_work_orders: WorkOrdersTable;
  tracking_wo_delta: WorkOrderDeltaTable;
  tracking_stamps: TrackingStampsTable;
}
