import type { Kysely } from 'kysely';
import {
  TABLE_KEYS,
  TABLE_SETTINGS_LIMITS,
  TABLE_SETTINGS_MESSAGES,
  type ColumnSetting,
  type FilterValues,
  type SavedFilter,
  type TableSettings,
} from 'contracts';
import type { Database } from '../db/schema';

export * from './tables';

type Db = Kysely<Database>;

/** Thrown for input the schema lets through but the store refuses: the route answers 400 with the message. */
export class TableSettingsRefusal extends Error {}

function hasControlCharacter(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x20 || code === 0x7f) return true;
  }
  return false;
}

/** Column settings as stored: each key once, no control characters (PostgreSQL refuses NUL; none is meant). */
export function checkedColumns(columns: readonly ColumnSetting[]): ColumnSetting[] {
  const seen = new Set<string>();
  return columns.map((column) => {
    if (hasControlCharacter(column.key)) throw new TableSettingsRefusal(TABLE_SETTINGS_MESSAGES.controlCharacters('A column key'));
    if (seen.has(column.key)) throw new TableSettingsRefusal(TABLE_SETTINGS_MESSAGES.duplicateColumn(column.key));
    seen.add(column.key);
    return { key: column.key, hidden: column.hidden, width: column.width };
  });
}

/** A saved filter as stored: name and texts trimmed and not blank, fields bounded, no control characters. */
export function checkedFilter(name: string, filters: FilterValues): { name: string; filters: Record<string, string> } {
  const trimmed = name.trim();
  if (!trimmed) throw new TableSettingsRefusal(TABLE_SETTINGS_MESSAGES.blankName);
  if (hasControlCharacter(trimmed)) throw new TableSettingsRefusal(TABLE_SETTINGS_MESSAGES.controlCharacters('The name'));
  const checked: Record<string, string> = {};
  for (const [field, value] of Object.entries(filters)) {
    if (field.length === 0 || field.length > TABLE_SETTINGS_LIMITS.fieldLength || hasControlCharacter(field))
      throw new TableSettingsRefusal(TABLE_SETTINGS_MESSAGES.controlCharacters('A field name'));
    const text = value.trim();
    if (!text) throw new TableSettingsRefusal(TABLE_SETTINGS_MESSAGES.blankFilter(field));
    if (hasControlCharacter(text)) throw new TableSettingsRefusal(TABLE_SETTINGS_MESSAGES.controlCharacters(`The filter on ${field}`));
    checked[field] = text;
  }
  return { name: trimmed, filters: checked };
}

/** Refuses a key that names no table of the console (the schema only checks its shape). */
export function checkedTableKey(tableKey: string): string {
  if (!TABLE_KEYS.has(tableKey)) throw new TableSettingsRefusal(TABLE_SETTINGS_MESSAGES.unknownTable(tableKey));
  return tableKey;
}

const bytes = (...texts: string[]) => texts.reduce((sum, text) => sum + Buffer.byteLength(text, 'utf8'), 0);

/**
 * Rows of keys that are not tables (stored before keys were checked, or of a table a page dropped) can
 * no longer be read: removed before a write counts what the user keeps, so they neither count nor stay.
 */
async function forgetUnknownTables(db: Db, userId: number): Promise<void> {
  const known = [...TABLE_KEYS];
  await db.deleteFrom('table_settings').where('user_id', '=', userId).where('table_key', 'not in', known).execute();
  await db.deleteFrom('saved_filters').where('user_id', '=', userId).where('table_key', 'not in', known).execute();
}

/**
 * Refuses a write that would take the user's stored settings past TABLE_SETTINGS_LIMITS.bytesPerUser.
 * `replacing` is the row the write overwrites, so replacing a filter by a smaller one always passes.
 */
async function assertRoom(db: Db, userId: number, adding: number, replacing: { columnsOf: string } | { tableKey: string; name: string }): Promise<void> {
  const [columns, filters] = await Promise.all([
    db.selectFrom('table_settings').select(['table_key', 'columns']).where('user_id', '=', userId).execute(),
    db.selectFrom('saved_filters').select(['table_key', 'name', 'filters']).where('user_id', '=', userId).execute(),
  ]);
  let stored = 0;
  for (const row of columns) if (!('columnsOf' in replacing && row.table_key === replacing.columnsOf)) stored += bytes(row.columns);
  for (const row of filters) {
    if ('name' in replacing && row.table_key === replacing.tableKey && row.name === replacing.name) continue;
    stored += bytes(row.name, row.filters);
  }
  if (stored + adding > TABLE_SETTINGS_LIMITS.bytesPerUser) throw new TableSettingsRefusal(TABLE_SETTINGS_MESSAGES.tooManyBytes);
}

/** Stored JSON read back defensively: a row that does not parse (edited by hand) reads as no settings rather than failing the page. */
function parseJson<T>(text: string, fallback: T): T {
  try {
    return JSON.parse(text) as T;
  } catch {
    return fallback;
  }
}

/** The caller's settings of one table; empty lists when nothing is saved. */
export async function loadTableSettings(db: Db, userId: number, tableKey: string): Promise<TableSettings> {
  checkedTableKey(tableKey);
  const [row, filters] = await Promise.all([
    db.selectFrom('table_settings').select('columns').where('user_id', '=', userId).where('table_key', '=', tableKey).executeTakeFirst(),
    db
      .selectFrom('saved_filters')
      .select(['name', 'filters', 'updated_at'])
      .where('user_id', '=', userId)
      .where('table_key', '=', tableKey)
      .orderBy('name')
      .execute(),
  ]);
  const savedFilters: SavedFilter[] = filters.map((f) => ({
    name: f.name,
    filters: parseJson<Record<string, string>>(f.filters, {}),
    updatedAt: f.updated_at,
  }));
  return { tableKey, columns: row ? parseJson<ColumnSetting[]>(row.columns, []) : [], savedFilters };
}

/** Replaces the caller's column settings of one table; an empty list forgets them (the table's own columns again). */
export async function saveColumns(db: Db, userId: number, tableKey: string, columns: readonly ColumnSetting[], now: string): Promise<void> {
  checkedTableKey(tableKey);
  const checked = checkedColumns(columns);
  if (checked.length === 0) {
    await db.deleteFrom('table_settings').where('user_id', '=', userId).where('table_key', '=', tableKey).execute();
    return;
  }
  // One row per table at most, and the tables are TABLE_KEYS: their number bounds the rows.
  await forgetUnknownTables(db, userId);
  const values = { user_id: userId, table_key: tableKey, columns: JSON.stringify(checked), updated_at: now };
  await assertRoom(db, userId, bytes(values.columns), { columnsOf: tableKey });
  await db
    .insertInto('table_settings')
    .values(values)
    .onConflict((oc) => oc.columns(['user_id', 'table_key']).doUpdateSet({ columns: values.columns, updated_at: now }))
    .execute();
}

/** Saves a named filter of one table for the caller, replacing one of the same name. */
export async function saveFilter(db: Db, userId: number, tableKey: string, name: string, filters: FilterValues, now: string): Promise<void> {
  checkedTableKey(tableKey);
  const checked = checkedFilter(name, filters);
  await forgetUnknownTables(db, userId);
  const existing = await db
    .selectFrom('saved_filters')
    .select('id')
    .where('user_id', '=', userId)
    .where('table_key', '=', tableKey)
    .where('name', '=', checked.name)
    .executeTakeFirst();
  if (!existing) {
    const counts = await db
      .selectFrom('saved_filters')
      .select((eb) => [
        eb.fn.countAll<number | string>().as('all'),
        eb.fn.sum<number | string | null>(eb.case().when('table_key', '=', tableKey).then(1).else(0).end()).as('here'),
      ])
      .where('user_id', '=', userId)
      .executeTakeFirstOrThrow();
    if (Number(counts.here ?? 0) >= TABLE_SETTINGS_LIMITS.filtersPerTable) throw new TableSettingsRefusal(TABLE_SETTINGS_MESSAGES.tooManyFilters);
    if (Number(counts.all) >= TABLE_SETTINGS_LIMITS.filtersPerUser) throw new TableSettingsRefusal(TABLE_SETTINGS_MESSAGES.tooManyFiltersInAll);
  }
  const values = { user_id: userId, table_key: tableKey, name: checked.name, filters: JSON.stringify(checked.filters), updated_at: now };
  await assertRoom(db, userId, bytes(values.name, values.filters), { tableKey, name: checked.name });
  await db
    .insertInto('saved_filters')
    .values(values)
    .onConflict((oc) => oc.columns(['user_id', 'table_key', 'name']).doUpdateSet({ filters: values.filters, updated_at: now }))
    .execute();
}

/** Deletes the caller's named filter of one table; false when there was none. */
export async function deleteFilter(db: Db, userId: number, tableKey: string, name: string): Promise<boolean> {
  checkedTableKey(tableKey);
  const result = await db
    .deleteFrom('saved_filters')
    .where('user_id', '=', userId)
    .where('table_key', '=', tableKey)
    .where('name', '=', name.trim())
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}
