import type { ColumnType } from 'kysely';

/** bigint: pg answers it as text, SQLite as a number; read it through `Number()`. */
type Bytes = ColumnType<number | string, number, number>;

/** Row types of the file service tables (migrations 0006, 0007). */
export interface FileUploadsTable {
  /** Random and opaque; also the upload's directory name under DATA_DIR/files/uploads. */
  id: string;
  user_id: number;
  /** The name the user sent (last path segment), for display only. */
  name: string;
  /** xlsx, zip or png: checked against the content when uploaded. */
  extension: string;
  size: Bytes;
  created_at: string;
  /** When an import (or picture) call first used it; it then expires sooner (0007). */
  consumed_at: ColumnType<string | null, string | null | undefined, string | null>;
}

export interface FileExportsTable {
  id: string;
  user_id: number;
  /** What produced it (e.g. tracking.commissioningPlan), for the logs and later clean-up. */
  kind: string;
  /** The name the download carries. */
  file_name: string;
  /** The name under DATA_DIR/files/exports: derived from the id, never from user input. */
  stored_name: string;
  size: Bytes;
  created_at: string;
}

export interface FileTables {
  file_uploads: FileUploadsTable;
  file_exports: FileExportsTable;
}
