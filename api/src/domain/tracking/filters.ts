/**
 * The list calls' filters, pure: `filters` is JSON text of { field: text }; each becomes a
 * case-insensitive "contains" on the field's stored text. Dates are stored as ISO-8601, while the
 * tables show DD-MM-YYYY HH:mm:ss, so date text typed the way it is shown is turned into the stored form.
 */

export class ListQueryError extends Error {
  override readonly name = 'ListQueryError';
  readonly statusCode = 400;
}

export const MAX_FILTER_LENGTH = 200;

export function parseFilters(text: string | undefined, fields: readonly string[]): Array<[string, string]> {
  if (text === undefined || text.trim() === '') return [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new ListQueryError('filters must be JSON text of an object { field: text }.');
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed))
    throw new ListQueryError('filters must be JSON text of an object { field: text }.');
  const result: Array<[string, string]> = [];
  for (const [field, value] of Object.entries(parsed as Record<string, unknown>)) {
    if (!fields.includes(field)) throw new ListQueryError(`Unknown filter field "${field.slice(0, 50)}".`);
    if (value === null || value === undefined) continue;
    // Table widgets send a filter as a one-element list; accept that shape too.
    const raw = Array.isArray(value) ? value[0] : value;
    if (raw === null || raw === undefined) continue;
    if (typeof raw !== 'string' && typeof raw !== 'number' && typeof raw !== 'boolean') throw new ListQueryError(`Filter "${field}" must be text.`);
    const needle = String(raw).trim();
    if (needle.length > MAX_FILTER_LENGTH) throw new ListQueryError(`Filter "${field}" is longer than ${MAX_FILTER_LENGTH} characters.`);
    if (needle !== '') result.push([field, needle]);
  }
  return result;
}

/**
 * Date text as shown (DD-MM-YYYY HH:mm:ss, or a leading part of it: "05-03-2024", "03-2024",
 * "05-03-2024 14:3") in the stored ISO form ("2024-03-05", "2024-03", "2024-03-05T14:3"); anything else as typed.
 */
export function dateFilterText(needle: string): string {
  const full = /^(\d{2})-(\d{2})-(\d{4})(?:\s+(\d{1,2}(?::\d{0,2}(?::\d{0,2})?)?))?$/.exec(needle);
  if (full) {
    const [, d, m, y, time] = full;
    return `${y}-${m}-${d}${time ? `T${time}` : ''}`;
  }
  const monthYear = /^(\d{2})-(\d{4})$/.exec(needle);
  if (monthYear) return `${monthYear[2]}-${monthYear[1]}`;
  return needle;
}

/** LIKE pattern for "contains", with the LIKE wildcards of the text escaped (escape character: backslash). */
export function containsPattern(needle: string): string {
  return `%${needle.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}
