import type { Generated } from 'kysely';

/** A user's column settings of one table (migration 0012). `columns` is JSON [{ key, hidden, width }]. */
export interface TableSettingsTable {
  user_id: number;
  table_key: string;
  columns: string;
  updated_at: string;
}

/** A user's named filter of one table (migration 0012). `filters` is JSON { field: text }. */
export interface SavedFiltersTable {
  id: Generated<number>;
  user_id: number;
  table_key: string;
  name: string;
  filters: string;
  updated_at: string;
}

export interface TableSettingsTables {
  table_settings: TableSettingsTable;
  saved_filters: SavedFiltersTable;
}
