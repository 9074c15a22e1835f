import type { ListQuery } from 'contracts';
import { api } from 'shared-auth';
import type { TablePage, TableQuery } from '../widgets/DataTable';

/** The query string a server-side table sends: filters travel as JSON text of field → contained text. */
export function listParams(query: TableQuery): ListQuery {
  const params: ListQuery = { page: query.page, size: query.size };
  if (query.sort && query.order) {
    params.sort = query.sort;
    params.order = query.order;
  }
  if (Object.keys(query.filters).length > 0) params.filters = JSON.stringify(query.filters);
  return params;
}

/**
 * The `fetchPage` of a server-side DataTable for a list call answering `{ rows, total }`. Create it
 * once per page module so the table does not refetch on every render. The table shows its own
 * loading state, so the full-screen overlay stays off.
 */
export function listFetcher<Row>(path: string): (query: TableQuery) => Promise<TablePage<Row>> {
  return async (query) => {
    const { data } = await api.get<TablePage<Row>>(path, { params: listParams(query), skipLoading: true });
    return data;
  };
}
