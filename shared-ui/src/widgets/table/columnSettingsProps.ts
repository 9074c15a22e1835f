import type { ArrangeableColumn, ArrangedColumn } from './arrange';

// What the Columns control (ColumnSettings), its lazily loaded list (ColumnList) and the header's resize
// handle all read, in a module of its own so the control and its list do not import each other.

/** Column widths a user may set, in CSS pixels (the API's bounds, TABLE_SETTINGS_LIMITS; a test keeps them equal). */
export const MIN_COLUMN_WIDTH = 40;
export const MAX_COLUMN_WIDTH = 2000;

export const clampWidth = (width: number) => Math.round(Math.min(MAX_COLUMN_WIDTH, Math.max(MIN_COLUMN_WIDTH, width)));

export interface ColumnSettingsProps<C extends ArrangeableColumn> {
  /** Names the control for assistive technology when a page has several tables. */
  tableName: string;
  arranged: ReadonlyArray<ArrangedColumn<C>>;
  onChange: (arranged: Array<ArrangedColumn<C>>) => void;
  onReset: () => void;
}
