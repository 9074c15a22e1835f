import type { ColumnSetting } from 'contracts';

/** What arranging needs of a column: its field, its title, and whether the page keeps it out of view (ids). */
export interface ArrangeableColumn {
  key: string;
  title: string;
  hidden?: boolean;
  /** The page's own width, if it sets one. */
  width?: number;
}

export interface ArrangedColumn<C extends ArrangeableColumn> {
  column: C;
  /** Hidden by the user. */
  hidden: boolean;
  /** CSS pixels set by the user; null: the table's own. */
  width: number | null;
}

/**
 * The page's columns as the user arranged them: the saved order first (columns the page no longer has
 * are dropped), then the page's columns the settings do not name yet (added since), in the page's
 * order. Columns the page keeps out of view are never offered. At least one column stays shown.
 */
export function arrangeColumns<C extends ArrangeableColumn>(columns: readonly C[], settings: readonly ColumnSetting[]): Array<ArrangedColumn<C>> {
  const own = columns.filter((c) => !c.hidden);
  const byKey = new Map(own.map((c) => [c.key, c]));
  const placed = new Set<string>();
  const arranged: Array<ArrangedColumn<C>> = [];
  for (const setting of settings) {
    const column = byKey.get(setting.key);
    if (!column || placed.has(setting.key)) continue;
    placed.add(setting.key);
    arranged.push({ column, hidden: setting.hidden, width: setting.width });
  }
  for (const column of own) if (!placed.has(column.key)) arranged.push({ column, hidden: false, width: null });
  if (arranged.length > 0 && arranged.every((a) => a.hidden)) arranged[0] = { ...arranged[0]!, hidden: false };
  return arranged;
}

/** The settings that reproduce an arrangement. */
export function settingsOf<C extends ArrangeableColumn>(arranged: ReadonlyArray<ArrangedColumn<C>>): ColumnSetting[] {
  return arranged.map((a) => ({ key: a.column.key, hidden: a.hidden, width: a.width }));
}

/** An arrangement with one column moved by `by` places (clamped to the ends). */
export function moveColumn<C extends ArrangeableColumn>(arranged: ReadonlyArray<ArrangedColumn<C>>, key: string, by: number): Array<ArrangedColumn<C>> {
  const from = arranged.findIndex((a) => a.column.key === key);
  if (from < 0) return [...arranged];
  const to = Math.min(arranged.length - 1, Math.max(0, from + by));
  const next = [...arranged];
  const [moved] = next.splice(from, 1);
  next.splice(to, 0, moved!);
  return next;
}
