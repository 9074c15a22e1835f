import { SearchOutlined } from '@ant-design/icons';
import { Flex, Table, Tooltip } from 'antd';
import type { ColumnType, TablePaginationConfig } from 'antd/es/table';
import type { FilterValue, SorterResult, TableCurrentDataSource } from 'antd/es/table/interface';
import {
  lazy,
  memo,
  startTransition,
  Suspense,
  useCallback,
  useEffect,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
  type HTMLAttributes,
  type ReactNode,
} from 'react';
import { formatCount, formatDate } from '../format';
import { BRAND_COLOR, MUTED_TEXT } from '../theme/tokens';
import { arrangeColumns, settingsOf, type ArrangedColumn } from './table/arrange';
import { ColumnSettings } from './table/ColumnSettings';
import { CopyLinkButton } from './table/CopyLinkButton';
import { SortButton } from './table/headerControls';
import { Pagination } from './table/Pagination';
import { PanelLoading } from './table/PanelLoading';
import { ResizableHeaderCell, type ColumnResize } from './table/ResizableHeaderCell';
import { SavedFilters } from './table/SavedFilters';
import { useTableSettings } from './table/useTableSettings';
import { readView, writeView } from './table/urlView';

const TextFilterPanel = lazy(() => import('./table/TextFilterPanel'));

export * from './table/Pagination';
export { readView, searchWithView, viewParam, type TableView } from './table/urlView';

/** Table rules of the specification (§2, §9): 10 rows a page, body 30em high, cells at most 250 px, text filters, dates DD-MM-YYYY HH:mm:ss. */
export const TABLE_PAGE_SIZE = 10;
export const TABLE_BODY_HEIGHT = '30em';
export const CELL_MAX_WIDTH = 250;

export const NO_ROWS = 'No data yet.';
export const NO_MATCHING_ROWS = 'No rows match the filters.';

export interface DataColumn<Row> {
  key: keyof Row & string;
  title: string;
  kind?: 'text' | 'date' | 'number';
  /** Column is kept for the data but not shown (e.g. ids). */
  hidden?: boolean;
  render?: (row: Row) => React.ReactNode;
  filter?: boolean;
  /**
   * Long text that must be readable whole (a comment, a problem description): one line cut with an
   * ellipsis, the whole text in a tooltip on hover or keyboard focus. Rows stay one line high, so a page
   * shows its 10 rows (issue 47: wrapped comments made a page three screens long).
   */
  wrap?: boolean;
  /** Server-side tables sort every column unless told otherwise. */
  sortable?: boolean;
  /** The page's width for the column in CSS pixels (e.g. a short id); a width the user sets replaces it. */
  width?: number;
}

export type SortOrder = 'ascend' | 'descend';

/** What a server-side table asks for: one page, sorted and filtered by the server (1-based page). */
export interface TableQuery {
  page: number;
  size: number;
  sort?: string;
  order?: SortOrder;
  /** Field → the text its cells must contain. */
  filters: Record<string, string>;
}

export interface TablePage<Row> {
  rows: Row[];
  total: number;
}

interface CommonProps<Row> {
  columns: Array<DataColumn<Row>>;
  rowKey: (keyof Row & string) | ((row: Row) => string);
  caption?: string;
  /** Text when there is nothing to show and no filter is set. */
  emptyText?: string;
  /**
   * Field → text the table starts filtered by (e.g. from a link's `?filters=`, see `filtersFromSearch`);
   * read when the table mounts, then the user's own filters take over.
   */
  initialFilters?: Record<string, string>;
  /** A click on a row (e.g. to show its details); whatever it does must also be reachable by a button in the row. */
  onRowClick?: (row: Row) => void;
  /**
   * The table's stable name (e.g. `tracking.tracker`): with it the user hides, orders and resizes the
   * columns and saves named filters, kept on the server for them (TableSettings/*). Letters, digits
   * and . _ : / - only.
   */
  tableKey?: string;
}

export interface ClientTableProps<Row> extends CommonProps<Row> {
  /** Every row, paged and filtered in the browser: for short lists. */
  rows: Row[];
  loading?: boolean;
  fetchPage?: never;
  reloadKey?: never;
}

export interface ServerTableProps<Row> extends CommonProps<Row> {
  /** Pages, sorts and filters on the server, so only one page is ever in the browser. */
  fetchPage: (query: TableQuery) => Promise<TablePage<Row>>;
  /** Change it to fetch the current page again (after an import, a sync …). */
  reloadKey?: string | number;
  rows?: never;
  loading?: never;
}

export type DataTableProps<Row> = ClientTableProps<Row> | ServerTableProps<Row>;

/** The initial filters a table can show (a filterable column of that key), so none applies unseen. */
function shownFilters<Row>(columns: Array<DataColumn<Row>>, filters: Record<string, string> | undefined): Record<string, string> {
  const shown: Record<string, string> = {};
  for (const c of columns) {
    const text = filters?.[c.key]?.trim();
    if (text && !c.hidden && c.filter !== false) shown[c.key] = text;
  }
  return shown;
}

export { filtersFromSearch, filtersSearch } from './table/filterLinks';

/** A long cell's text on one line, whole in a tooltip; focusable so the keyboard can open it too. */
function LongText({ text }: { text: string }) {
  if (text === '') return null;
  return (
    // Focus as well as hover: antd's tooltip opens on hover alone, so Tab reached the cell and showed nothing.
    <Tooltip title={<span style={{ whiteSpace: 'pre-wrap' }}>{text}</span>} placement="topLeft" trigger={['hover', 'focus']} destroyOnHidden>
      <span tabIndex={0} className="cw-long-text" style={{ display: 'block', overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}>
        {text}
      </span>
    </Tooltip>
  );
}

function cellText<Row>(column: DataColumn<Row>, row: Row): string {
  const cell = row[column.key];
  return column.kind === 'date' ? formatDate(cell as string) : String(cell ?? '');
}

/**
 * A column's filter button. antd's own trigger is out of the tab order; this one is reachable and opens
 * on Enter or Space without the header cell taking the key as a sort. antd wraps it in a span with
 * role="button" (a click-stopper, never focused), which made this a control inside a control for
 * assistive technology (axe nested-interactive, issue 47): that role is taken off. antd also draws the
 * header once more, hidden, to measure the columns; the copy there is left out of the tab order
 * (aria-hidden-focus).
 */
function FilterTrigger({ title, filtered }: { title: string; filtered: boolean }) {
  const ref = useRef<HTMLSpanElement>(null);
  const [measureCopy, setMeasureCopy] = useState(false);
  useLayoutEffect(() => {
    const trigger = ref.current;
    if (!trigger) return;
    const wrapper = trigger.parentElement;
    if (wrapper?.getAttribute('role') === 'button') wrapper.removeAttribute('role');
    setMeasureCopy(trigger.closest('[aria-hidden="true"]') !== null);
  }, []);
  return (
    <span
      ref={ref}
      role="button"
      tabIndex={measureCopy ? -1 : 0}
      aria-label={`Filter ${title}`}
      aria-pressed={filtered}
      className="cw-filter-trigger"
      onKeyDown={(event) => {
        if (event.key !== 'Enter' && event.key !== ' ') return;
        event.preventDefault();
        event.stopPropagation();
        event.currentTarget.click();
      }}
    >
      <SearchOutlined style={{ color: filtered ? BRAND_COLOR : undefined }} />
    </span>
  );
}

function textFilter<Row>(column: DataColumn<Row>, inBrowser: boolean): Partial<ColumnType<Row>> {
  return {
    filterIcon: (filtered: boolean) => <FilterTrigger title={column.title} filtered={filtered} />,
    // Opened from the trigger's left edge, rightwards: antd's bottomRight opened the first column's
    // panel leftwards over the side menu, covering its active entry (issue 47). Near the screen's right
    // edge antd shifts it back inside.
    filterDropdownProps: { placement: 'bottomLeft' },
    filterDropdown: ({ selectedKeys, setSelectedKeys, confirm, clearFilters }) => (
      <Suspense fallback={<PanelLoading />}>
        <TextFilterPanel
          label={`Filter ${column.title}`}
          placeholder={column.kind === 'date' && !inBrowser ? `${column.title}, e.g. 05-03-2024 or 2024-03` : `Filter ${column.title}`}
          selectedKeys={selectedKeys}
          setSelectedKeys={setSelectedKeys}
          confirm={confirm}
          clearFilters={clearFilters}
        />
      </Suspense>
    ),
  };
}

/** Whether a row passes every text filter (field → text its cell must contain, any case), as the list calls filter on the server. */
function rowMatches<Row>(columns: Array<DataColumn<Row>>, row: Row, filters: Record<string, string>): boolean {
  return Object.entries(filters).every(([field, text]) => {
    const column = columns.find((c) => c.key === field);
    return column ? cellText(column, row).toLowerCase().includes(text.toLowerCase()) : true;
  });
}

/** antd's filter values as field → trimmed text; empty filters are none. */
function textFiltersOf(filters: Record<string, FilterValue | null>): Record<string, string> {
  const textFilters: Record<string, string> = {};
  for (const [field, values] of Object.entries(filters)) {
    const text = values?.[0];
    if (text !== undefined && String(text).trim() !== '') textFilters[field] = String(text).trim();
  }
  return textFilters;
}

interface ShownColumn<Row> {
  column: DataColumn<Row>;
  /** Set by the user or the page (CSS pixels), or null for the table's own. */
  width: number | null;
}

function toAntColumns<Row>(
  shown: Array<ShownColumn<Row>>,
  server: boolean,
  filters: Record<string, string>,
  resizeOf?: (key: string) => ColumnResize,
  sort?: { field?: string; order?: SortOrder },
): Array<ColumnType<Row>> {
  return shown.map(({ column: c, width }) => {
    // A width the user set is theirs, past the specification's default cell limit.
    const size = width === null ? { maxWidth: CELL_MAX_WIDTH } : { width, minWidth: width, maxWidth: width };
    const sortable = server && c.sortable !== false;
    return {
      key: c.key,
      dataIndex: c.key,
      title: c.title,
      ellipsis: true,
      align: c.kind === 'number' ? 'right' : undefined,
      ...(width === null ? {} : { width }),
      onCell: () => ({ style: size }),
      // antd hands these props to the header cell component (ResizableHeaderCell), which takes `resize` and `sortButton` off.
      onHeaderCell: () => ({ style: size, resize: resizeOf?.(c.key), sortButton: sortable }) as HTMLAttributes<HTMLElement>,
      render: (_: unknown, row: Row) => (c.render ? c.render(row) : c.wrap ? <LongText text={cellText(c, row)} /> : cellText(c, row)),
      // Controlled, so a sort read from the address (urlView.ts) shows in its header.
      ...(sortable
        ? {
            sorter: true,
            sortDirections: ['ascend', 'descend'] as SortOrder[],
            sortOrder: sort?.field === c.key ? (sort.order ?? null) : null,
            sortIcon: ({ sortOrder }: { sortOrder: SortOrder | null | undefined }) => <SortButton title={c.title} order={sortOrder} />,
          }
        : {}),
      ...(c.filter === false ? {} : textFilter(c, !server)),
      // Controlled, so the table's own state (and a saved filter applied later) is what the header shows.
      ...(c.filter === false ? {} : { filteredValue: filters[c.key] !== undefined ? [filters[c.key]!] : null }),
    };
  });
}

const HEADER_COMPONENTS = { header: { cell: ResizableHeaderCell } };

/**
 * The columns as the user arranged them (order, hidden, widths; see useTableSettings), the width of a
 * column being dragged, and the Columns and Saved filters controls when the table has a key.
 * `onHidden` is told which columns the user just hid, so their filters go too (none applies unseen).
 */
function useArrangement<Row>(columns: Array<DataColumn<Row>>, tableKey: string | undefined, onHidden: (keys: string[]) => void) {
  const settings = useTableSettings(tableKey);
  const arranged = useMemo(() => arrangeColumns(columns, settings.columns), [columns, settings.columns]);
  const [dragging, setDragging] = useState<{ key: string; width: number } | null>(null);
  // Kept while nothing they derive from changes: new columns make antd redraw every header cell (with
  // its filter and sort icons), so rows arriving, a banner loading above or a menu opening redrew the
  // whole table each time.
  const shown: Array<ShownColumn<Row>> = useMemo(
    () =>
      arranged
        .filter((a) => !a.hidden)
        .map((a) => ({ column: a.column, width: dragging?.key === a.column.key ? dragging.width : (a.width ?? a.column.width ?? null) })),
    [arranged, dragging],
  );
  const { saveColumns } = settings;
  const arrange = useCallback(
    (next: Array<ArrangedColumn<DataColumn<Row>>>) => {
      const hidden = next.filter((a) => a.hidden && !arranged.find((b) => b.column.key === a.column.key)?.hidden).map((a) => a.column.key);
      if (hidden.length > 0) onHidden(hidden);
      saveColumns(settingsOf(next));
    },
    [arranged, onHidden, saveColumns],
  );
  const resizeOf = useMemo(
    () =>
      tableKey
        ? (key: string): ColumnResize => {
            const current = arranged.find((a) => a.column.key === key)!;
            return {
              title: current.column.title,
              width: current.width ?? current.column.width ?? null,
              onResize: (width) => setDragging({ key, width }),
              onResizeEnd: (width) => {
                setDragging(null);
                arrange(arranged.map((a) => (a.column.key === key ? { ...a, width } : a)));
              },
            };
          }
        : undefined,
    [arrange, arranged, tableKey],
  );
  return { settings, arranged, shown, arrange, resizeOf };
}

/** The Columns and Saved filters controls of a table with a key. */
function tableTools<Row>(props: {
  tableKey: string | undefined;
  caption: string | undefined;
  columns: Array<DataColumn<Row>>;
  arrangement: ReturnType<typeof useArrangement<Row>>;
  filters: Record<string, string>;
  onApplyFilters: (filters: Record<string, string>) => void;
}): ReactNode {
  if (!props.tableKey) return null;
  const { settings, arranged, arrange } = props.arrangement;
  const tableName = props.caption ?? 'the table';
  return (
    <>
      <SavedFilters
        tableName={tableName}
        saved={settings.savedFilters}
        current={props.filters}
        titles={Object.fromEntries(props.columns.map((c) => [c.key, c.title]))}
        onApply={props.onApplyFilters}
        onSave={settings.saveFilter}
        onDelete={settings.deleteFilter}
      />
      <CopyLinkButton tableName={tableName} />
      <ColumnSettings tableName={tableName} arranged={arranged} onChange={arrange} onReset={() => settings.saveColumns([])} />
    </>
  );
}

function renderTable<Row extends object>(props: {
  columns: Array<ColumnType<Row>>;
  rows: readonly Row[];
  rowKey: CommonProps<Row>['rowKey'];
  caption?: string;
  tools: ReactNode;
  loading: boolean;
  emptyText: ReactNode;
  page: number;
  total: number;
  totalText?: string;
  /** False until the table has a first page to show: the control would be pushed down when its rows arrive. */
  paged: boolean;
  onPage: (page: number) => void;
  onRowClick?: (row: Row) => void;
  onChange: (
    pagination: TablePaginationConfig,
    filters: Record<string, FilterValue | null>,
    sorter: SorterResult<Row> | Array<SorterResult<Row>>,
    extra: TableCurrentDataSource<Row>,
  ) => void;
}) {
  const titled = Boolean(props.caption) || Boolean(props.tools);
  return (
    <div className="cw-data-table">
      <Table<Row>
        size="middle"
        columns={props.columns}
        components={HEADER_COMPONENTS}
        // No rows yet while loading: antd then shows its spinner alone, not the empty text under it
        // ('No commissioning plan imported yet.' while the first page is on its way).
        dataSource={props.loading && props.rows.length === 0 ? undefined : props.rows}
        rowKey={props.rowKey}
        loading={props.loading}
        title={
          titled
            ? () => (
                <Flex justify="space-between" align="center" gap={8} wrap>
                  <strong>{props.caption}</strong>
                  {/* Right-aligned on a line of their own too (a long caption on a phone), so their popovers open inside the screen. */}
                  <Flex gap={4} wrap style={{ marginInlineStart: 'auto' }}>
                    {props.tools}
                  </Flex>
                </Flex>
              )
            : undefined
        }
        scroll={{ y: TABLE_BODY_HEIGHT, x: 'max-content' }}
        // No 'Click to sort' tooltip on every sortable header: the arrows say it, the header cell tells
        // assistive technology (aria-sort, 'sortable'), and a tooltip per column was a tenth of the
        // work of drawing a table page.
        showSorterTooltip={false}
        // antd greys the empty text to #bfbfbf (1.8:1), text a user has to read (axe color-contrast).
        locale={{ emptyText: <span style={{ color: MUTED_TEXT }}>{props.emptyText}</span> }}
        // The rows given are the page: paging is the shared Pagination's (§9), below.
        pagination={false}
        onChange={props.onChange}
        onRow={props.onRowClick ? (row) => ({ onClick: () => props.onRowClick!(row), style: { cursor: 'pointer' } }) : undefined}
      />
      {props.paged ? (
        <Pagination current={props.page} total={props.total} pageSize={TABLE_PAGE_SIZE} onChange={props.onPage} totalText={props.totalText} />
      ) : null}
    </div>
  );
}

const rangeText = (page: number, total: number) =>
  total === 0 ? '' : `${(page - 1) * TABLE_PAGE_SIZE + 1}-${Math.min(total, page * TABLE_PAGE_SIZE)} of ${formatCount(total)}`;

/**
 * What a table opens on: the filters a page gives it (a link's ?filters=, a node picked), else the view
 * the address holds for it (a shared link, urlView.ts), else the first page unfiltered.
 */
function initialView(tableKey: string | undefined, initialFilters: Record<string, string> | undefined): Omit<TableQuery, 'size'> {
  const given = Object.values(initialFilters ?? {}).some((text) => text.trim() !== '');
  const view = tableKey && !given ? readView(tableKey) : null;
  if (view) return view;
  return { page: 1, filters: initialFilters ?? {} };
}

const without = (filters: Record<string, string>, keys: readonly string[]) =>
  Object.fromEntries(Object.entries(filters).filter(([field]) => !keys.includes(field)));

function ClientTable<Row extends object>({
  columns,
  rows,
  rowKey,
  loading,
  caption,
  emptyText = NO_ROWS,
  initialFilters,
  onRowClick,
  tableKey,
}: ClientTableProps<Row>) {
  // Only the first value counts (see initialFilters), so a new object each render does not reset the filters.
  // A page's own filters win over the address's view; the view is the table as it was shared (urlView.ts).
  const [opened] = useState(() => initialView(tableKey, initialFilters));
  const [filters, setFilters] = useState(() => shownFilters(columns, opened.filters));
  const [page, setPage] = useState(opened.page);
  useEffect(() => {
    if (tableKey) writeView(tableKey, { page, filters });
  }, [tableKey, page, filters]);
  const dropFilters = useCallback((hidden: string[]) => setFilters((prev) => without(prev, hidden)), []);
  const arrangement = useArrangement(columns, tableKey, dropFilters);
  const antColumns = useMemo(() => toAntColumns(arrangement.shown, false, filters, arrangement.resizeOf), [arrangement.shown, arrangement.resizeOf, filters]);
  const matching = useMemo(() => rows.filter((row) => rowMatches(columns, row, filters)), [columns, rows, filters]);
  // Rows can shrink under the current page (a reload, a delete): show the last page that exists.
  const shownPage = Math.min(page, Math.max(1, Math.ceil(matching.length / TABLE_PAGE_SIZE)));
  const filtered = Object.keys(filters).length > 0;
  const applyFilters = (next: Record<string, string>) => {
    setFilters(
      shownFilters(
        arrangement.shown.map((s) => s.column),
        next,
      ),
    );
    setPage(1);
  };
  return renderTable<Row>({
    columns: antColumns,
    rows: matching.slice((shownPage - 1) * TABLE_PAGE_SIZE, shownPage * TABLE_PAGE_SIZE),
    rowKey,
    caption,
    tools: tableTools({ tableKey, caption, columns, arrangement, filters, onApplyFilters: applyFilters }),
    loading: Boolean(loading),
    emptyText: filtered && rows.length > 0 ? NO_MATCHING_ROWS : emptyText,
    page: shownPage,
    total: matching.length,
    totalText: rangeText(shownPage, matching.length),
    paged: !(loading && rows.length === 0),
    onPage: setPage,
    onRowClick,
    onChange: (_pagination, antFilters) => applyFilters(textFiltersOf(antFilters)),
  });
}

interface Loaded<Row> {
  /** The request these rows answer; while it differs from the current one, the table is loading. */
  key: string;
  page: TablePage<Row>;
  failed: boolean;
}

function ServerTable<Row extends object>({
  columns,
  fetchPage,
  reloadKey = 0,
  rowKey,
  caption,
  emptyText = NO_ROWS,
  initialFilters,
  onRowClick,
  tableKey,
}: ServerTableProps<Row>) {
  const [query, setQuery] = useState<TableQuery>(() => {
    const { filters, ...view } = initialView(tableKey, initialFilters);
    return { ...view, size: TABLE_PAGE_SIZE, filters: shownFilters(columns, filters) };
  });
  useEffect(() => {
    if (tableKey)
      writeView(tableKey, { page: query.page, filters: query.filters, ...(query.sort && query.order ? { sort: query.sort, order: query.order } : {}) });
  }, [tableKey, query]);
  const dropFilters = useCallback((hidden: string[]) => setQuery((prev) => ({ ...prev, page: 1, filters: without(prev.filters, hidden) })), []);
  const arrangement = useArrangement(columns, tableKey, dropFilters);
  const antColumns = useMemo(
    () => toAntColumns(arrangement.shown, true, query.filters, arrangement.resizeOf, { field: query.sort, order: query.order }),
    [arrangement.shown, arrangement.resizeOf, query.filters, query.sort, query.order],
  );
  const [loaded, setLoaded] = useState<Loaded<Row>>({ key: '', page: { rows: [], total: 0 }, failed: false });
  const requestKey = JSON.stringify([query, reloadKey]);

  useEffect(() => {
    let live = true;
    fetchPage(query).then(
      (page) => {
        if (!live) return;
        // A reload after an import can shrink the data set under the current page: go to the last page that exists.
        const lastPage = Math.max(1, Math.ceil(page.total / query.size));
        if (page.rows.length === 0 && query.page > lastPage) setQuery({ ...query, page: lastPage });
        // A transition: a page of rows (hundreds of cells) is drawn in slices, between the user's own input.
        else startTransition(() => setLoaded({ key: requestKey, page, failed: false }));
      },
      // The API client has already told the user why; the table says it has nothing to show.
      () => live && setLoaded((prev) => ({ key: requestKey, page: { rows: [], total: prev.page.total }, failed: true })),
    );
    return () => {
      live = false;
    };
  }, [fetchPage, query, requestKey]);

  const filtered = Object.keys(query.filters).length > 0;
  return renderTable<Row>({
    columns: antColumns,
    rows: loaded.page.rows,
    rowKey,
    caption,
    tools: tableTools({
      tableKey,
      caption,
      columns,
      arrangement,
      filters: query.filters,
      // A saved filter keeps the sort and starts at the first page, like a filter typed in.
      onApplyFilters: (filters) =>
        setQuery({
          ...query,
          page: 1,
          filters: shownFilters(
            arrangement.shown.map((s) => s.column),
            filters,
          ),
        }),
    }),
    loading: loaded.key !== requestKey,
    onRowClick,
    emptyText: loaded.failed ? 'The rows could not be loaded.' : filtered ? NO_MATCHING_ROWS : emptyText,
    page: query.page,
    total: loaded.page.total,
    totalText: rangeText(query.page, loaded.page.total),
    // The first page's rows arrive below the header: the control appears with them rather than being pushed down.
    paged: loaded.key !== '',
    onPage: (page) => setQuery({ ...query, page }),
    onChange: (_pagination, filters, sorter) => {
      const single = Array.isArray(sorter) ? sorter[0] : sorter;
      const order = single?.order ?? undefined;
      setQuery({
        // A new sort or filter starts again at the first page.
        page: 1,
        size: TABLE_PAGE_SIZE,
        ...(order && single?.columnKey ? { sort: String(single.columnKey), order } : {}),
        filters: textFiltersOf(filters),
      });
    },
  });
}

function AnyDataTable<Row extends object>(props: DataTableProps<Row>) {
  if (props.fetchPage) return <ServerTable<Row> {...props} />;
  return <ClientTable<Row> {...(props as ClientTableProps<Row>)} />;
}

/**
 * Props equal but for `initialFilters`, which only counts on the first render (pages pass a new object
 * each time, read from the address).
 */
function sameTableProps<Row extends object>(before: DataTableProps<Row>, after: DataTableProps<Row>): boolean {
  const keys = new Set([...Object.keys(before), ...Object.keys(after)]) as Set<keyof DataTableProps<Row>>;
  for (const key of keys) if (key !== 'initialFilters' && before[key] !== after[key]) return false;
  return true;
}

/**
 * The one table of the console. With `rows` it pages and filters in the browser; with `fetchPage`
 * it asks the server for one page at a time, so 100,000 rows cost the browser one page. It is not
 * drawn again when its page is drawn again for something else (a banner's date arriving, a dialog opening):
 * antd redraws every header cell and its icons whenever the table itself is drawn.
 */
export const DataTable = memo(AnyDataTable, sameTableProps) as typeof AnyDataTable;
