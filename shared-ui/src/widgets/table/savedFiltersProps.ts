import type { SavedFilter } from 'contracts';

// What the Saved filters control (SavedFilters) and its lazily loaded panel (SavedFilterPanel) both read,
// in a module of its own so neither imports the other.

/** The most characters of a saved filter's name (the API's bound). */
export const FILTER_NAME_MAX = 60;

export interface SavedFiltersProps {
  tableName: string;
  saved: readonly SavedFilter[];
  /** The table's filters now (field → text). */
  current: Record<string, string>;
  /** Field → column title, to say what a filter holds. */
  titles: Record<string, string>;
  onApply: (filters: Record<string, string>) => void;
  onSave: (name: string, filters: Record<string, string>) => Promise<string | null>;
  onDelete: (name: string) => Promise<string | null>;
}
