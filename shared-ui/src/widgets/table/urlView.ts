/**
 * A table's view in the page's address (issue 47, shareable views): its filters, sort and page, so a
 * copied link opens the same view for whoever follows it. One search parameter per table, named by the
 * table's key (`tableKey`), holding `{ f, s, o, p }`; a table at its defaults leaves no parameter.
 *
 * The address is rewritten with `history.replaceState`, keeping the router's own state object: the
 * view changes no route and adds no history entry (Back leaves the page, as before), and pages that
 * read the address for their links (`?filters=`, `?run=`) are not drawn again for it.
 */

export type ViewOrder = 'ascend' | 'descend';

export interface TableView {
  page: number;
  sort?: string;
  order?: ViewOrder;
  filters: Record<string, string>;
}

interface Stored {
  f?: Record<string, string>;
  s?: string;
  o?: ViewOrder;
  p?: number;
}

/** The parameter of a table's view. */
export const viewParam = (tableKey: string) => `view.${tableKey}`;

const MAX_PAGE = 1_000_000;

/** The view the address holds for the table, or null (none, or not one a table can show). */
export function readView(tableKey: string, search: string = globalThis.location?.search ?? ''): TableView | null {
  const raw = new URLSearchParams(search).get(viewParam(tableKey));
  if (!raw) return null;
  try {
    const stored = JSON.parse(raw) as Stored;
    if (!stored || typeof stored !== 'object' || Array.isArray(stored)) return null;
    const filters: Record<string, string> = {};
    if (stored.f && typeof stored.f === 'object' && !Array.isArray(stored.f))
      for (const [field, text] of Object.entries(stored.f)) if (typeof text === 'string' && text.trim() !== '') filters[field] = text.trim();
    const page = Number.isInteger(stored.p) && stored.p! >= 1 && stored.p! <= MAX_PAGE ? stored.p! : 1;
    const sorted = typeof stored.s === 'string' && stored.s !== '' && (stored.o === 'ascend' || stored.o === 'descend');
    return { page, filters, ...(sorted ? { sort: stored.s, order: stored.o } : {}) };
  } catch {
    return null;
  }
}

/** The address with the table's view in it (and without a `?filters=` it has taken over). */
export function searchWithView(tableKey: string, view: TableView, search: string): string {
  const params = new URLSearchParams(search);
  const stored: Stored = {};
  if (Object.keys(view.filters).length > 0) stored.f = view.filters;
  if (view.sort && view.order) {
    stored.s = view.sort;
    stored.o = view.order;
  }
  if (view.page > 1) stored.p = view.page;
  if (Object.keys(stored).length > 0) params.set(viewParam(tableKey), JSON.stringify(stored));
  else params.delete(viewParam(tableKey));
  // A link's ?filters= opened the table filtered; from the first change the view says it (both would disagree).
  params.delete('filters');
  const text = params.toString();
  return text === '' ? '' : `?${text}`;
}

/** Writes the view into the address bar, in place (see above). */
export function writeView(tableKey: string, view: TableView): void {
  const location = globalThis.location;
  const history = globalThis.history;
  if (!location || !history) return;
  const search = searchWithView(tableKey, view, location.search);
  if (search === location.search) return;
  history.replaceState(history.state, '', `${location.pathname}${search}${location.hash}`);
}
