import type { DashboardType } from 'contracts';

/** Dashboard records (migration 0011). No token or secret is stored: embed tokens are minted per call. */
export interface DashboardsTable {
  id: number;
  type: DashboardType;
  name: string;
  url: string;
  /** A configured BI server's id (environment); null draws the native charts. */
  server_id: string | null;
  updated_at: string;
  updated_by: number | null;
}

export interface DashboardTables {
  dashboards: DashboardsTable;
}
