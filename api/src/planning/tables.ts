import type { Generated } from 'kysely';
import type { TenantColumn } from '../db/operator-scope';

/** Reservations of planned NR cells (migration 0017): what later plans choose around until a dump shows the cell. */
export interface PlannedCellsTable {
  operator_id: TenantColumn;
  id: Generated<number>;
  /** The planning job's key: the reservation is made before its run is recorded. */
  plan_key: string;
  /** The run, once recorded; a reservation whose run never got recorded is dropped after RESERVATION_GRACE_MS. */
  run_id: number | null;
  site_id: string;
  cell_name: string;
  nr_arfcn: number;
  pci: number;
  prach_root: number | null;
  tac: number | null;
  lat: number;
  lon: number;
  azimuth: number | null;
  created_at: string;
}

export interface PlanningTables {
  planned_cells: PlannedCellsTable;
}
