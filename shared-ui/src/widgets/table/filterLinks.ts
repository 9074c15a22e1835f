// Apart from DataTable so that a page which only links to a filtered table (the rollout charts, the
// alarm list's links) does not load the table, antd's Table and its icons with it (issue 48).

/**
 * The `?filters=` of a link (JSON text of field → contained text, as the list calls take it), or {}
 * when missing or malformed: links from other pages open a table already filtered. Reads the
 * address bar unless given a query string.
 */
export function filtersFromSearch(search: string | URLSearchParams = globalThis.location?.search ?? ''): Record<string, string> {
  const raw = (typeof search === 'string' ? new URLSearchParams(search) : search).get('filters');
  if (!raw) return {};
  try {
    const parsed: unknown = JSON.parse(raw);
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return {};
    return Object.fromEntries(Object.entries(parsed).filter((entry): entry is [string, string] => typeof entry[1] === 'string' && entry[1].trim() !== ''));
  } catch {
    return {};
  }
}

/** A link's query string that opens a page's table filtered (read back by `filtersFromSearch`). */
export function filtersSearch(filters: Record<string, string>): string {
  return `?${new URLSearchParams({ filters: JSON.stringify(filters) }).toString()}`;
}
