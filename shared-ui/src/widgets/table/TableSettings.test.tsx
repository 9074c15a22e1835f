import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { TABLE_SETTINGS_LIMITS, type TableSettings } from 'contracts';
import { api, apiRefusal, clearSession, sessionStore } from 'shared-auth';
import { ConsoleProviders } from '../ConsoleProviders';
import { DataTable, type DataColumn, type TablePage, type TableQuery } from '../DataTable';
import { arrangeColumns, moveColumn } from './arrange';
import { MAX_COLUMN_WIDTH, MIN_COLUMN_WIDTH } from './columnSettingsProps';
import { RESIZE_STEP_PX } from './ResizableHeaderCell';
import { FILTER_NAME_MAX } from './savedFiltersProps';
import { COLUMN_SAVE_DELAY_MS } from './useTableSettings';

jest.mock('shared-auth', () => ({ ...jest.requireActual('shared-auth'), api: { get: jest.fn(), put: jest.fn(), delete: jest.fn() } }));
const get = api.get as jest.Mock;
const put = api.put as jest.Mock;
const del = api.delete as jest.Mock;

interface Site {
  id: number;
  siteId: string;
  supplier: string;
  status: string;
}

const columns: Array<DataColumn<Site>> = [
  { key: 'id', title: 'Id', hidden: true },
  { key: 'siteId', title: 'Site Id' },
  { key: 'supplier', title: 'Supplier' },
  { key: 'status', title: 'Status' },
];
const rows: Site[] = Array.from({ length: 12 }, (_, i) => ({
  id: i + 1,
  siteId: `LX${String(i + 1).padStart(4, '0')}`,
  supplier: i % 2 ? 'Nokia' : 'Ericsson',
  status: i % 3 ? 'Open' : 'Closed',
}));

const KEY = 'tests.sites';
const EMPTY: TableSettings = { tableKey: KEY, columns: [], savedFilters: [] };

/** A token the session believes (it reads `exp`, the server verifies). */
function signIn(userId = 7) {
  const payload = btoa(JSON.stringify({ sub: String(userId), exp: Math.floor(Date.now() / 1000) + 3600 }));
  sessionStore.setState({ token: `x.${payload}.y`, user: { ...sessionStore.getState().user, id: userId } });
}

function serverFetch() {
  return jest.fn(async (q: TableQuery): Promise<TablePage<Site>> => {
    const matching = rows.filter((r) =>
      Object.entries(q.filters).every(([f, t]) =>
        String(r[f as keyof Site])
          .toLowerCase()
          .includes(t.toLowerCase()),
      ),
    );
    return { rows: matching.slice((q.page - 1) * q.size, q.page * q.size), total: matching.length };
  });
}

// Plain DOM queries: role queries walk the accessibility tree of an antd table and take seconds each in jsdom.
const headerCells = () => Array.from(document.querySelectorAll<HTMLElement>('.ant-table-header th')).filter((th) => th.textContent);

/** The visible header's column titles, in order. */
const headerTitles = () => headerCells().map((th) => th.querySelector('.ant-table-column-title')?.textContent ?? th.textContent);

const headerCell = (title: string) => headerCells().find((th) => th.textContent?.includes(title))!;

/** The one element with this accessible label (a button, a checkbox, an input). */
const labelled = (label: string, container: ParentNode = document) => {
  const found = container.querySelector<HTMLElement>(`[aria-label="${label}"]`);
  if (!found) throw new Error(`nothing labelled ${label}`);
  return found;
};
const findLabelled = (label: string) => waitFor(() => labelled(label));
const buttonWithText = (text: string) => Array.from(document.querySelectorAll('button')).find((b) => b.textContent?.trim() === text)!;
/** A column's checkbox in the Columns list, by the column's title. */
const checkboxOf = (list: HTMLElement, title: string) =>
  Array.from(list.querySelectorAll('li'))
    .find((li) => li.textContent?.includes(title))!
    .querySelector<HTMLInputElement>('input[type="checkbox"]')!;

async function openColumns() {
  await act(async () => {
    fireEvent.click(labelled('Columns of Sites'));
  });
  return findLabelled('Columns');
}

beforeEach(() => {
  get.mockReset();
  put.mockReset();
  del.mockReset();
  clearSession();
});

describe('arranging columns', () => {
  const plain = columns.map(({ key, title, hidden }) => ({ key: key as string, title, hidden }));
  test('saved order first, columns the page added since after them, columns the page dropped and its own hidden ones left out', () => {
    const arranged = arrangeColumns(plain, [
      { key: 'status', hidden: false, width: 120 },
      { key: 'gone', hidden: false, width: null },
      { key: 'siteId', hidden: true, width: null },
      { key: 'id', hidden: false, width: null },
    ]);
    expect(arranged.map((a) => [a.column.key, a.hidden, a.width])).toEqual([
      ['status', false, 120],
      ['siteId', true, null],
      ['supplier', false, null],
    ]);
  });

  test('never every column hidden; a move stops at either end', () => {
    const arranged = arrangeColumns(
      plain,
      ['siteId', 'supplier', 'status'].map((key) => ({ key, hidden: true, width: null })),
    );
    expect(arranged.map((a) => a.hidden)).toEqual([false, true, true]);
    expect(moveColumn(arranged, 'status', -5).map((a) => a.column.key)).toEqual(['status', 'siteId', 'supplier']);
    expect(moveColumn(arranged, 'siteId', 1).map((a) => a.column.key)).toEqual(['supplier', 'siteId', 'status']);
  });

  test("the browser's bounds are the API's", () => {
    expect({ min: MIN_COLUMN_WIDTH, max: MAX_COLUMN_WIDTH, name: FILTER_NAME_MAX }).toEqual({
      min: TABLE_SETTINGS_LIMITS.minWidth,
      max: TABLE_SETTINGS_LIMITS.maxWidth,
      name: TABLE_SETTINGS_LIMITS.filterNameLength,
    });
  });
});

describe('DataTable column settings', () => {
  test("a signed-in user's saved columns apply when the table opens: order, hidden, width", async () => {
    signIn();
    get.mockResolvedValue({
      data: {
        ...EMPTY,
        columns: [
          { key: 'status', hidden: false, width: 180 },
          { key: 'supplier', hidden: true, width: null },
        ],
      },
    });
    render(
      <ConsoleProviders>
        <DataTable caption="Sites" tableKey={KEY} columns={columns} rows={rows} rowKey="id" />
      </ConsoleProviders>,
    );
    await waitFor(() => expect(headerTitles()).toEqual(['Status', 'Site Id']));
    expect(get).toHaveBeenCalledWith('TableSettings/GetSettings', expect.objectContaining({ params: { tableKey: KEY } }));
    expect(headerCell('Status').style.width).toBe('180px');
  });

  test('settings that come back as none, as the table started, do not draw its rows again', async () => {
    signIn();
    let answer: (value: { data: TableSettings }) => void = () => undefined;
    get.mockReturnValue(new Promise((resolve) => (answer = resolve)));
    const cellsDrawn = jest.fn();
    const counted: Array<DataColumn<Site>> = columns.map((c) => (c.key === 'siteId' ? { ...c, render: (row: Site) => (cellsDrawn(), row.siteId) } : c));
    render(
      <ConsoleProviders>
        <DataTable caption="Sites" tableKey={KEY} columns={counted} rows={rows} rowKey="id" />
      </ConsoleProviders>,
    );
    await waitFor(() => expect(cellsDrawn).toHaveBeenCalled());
    const drawnBefore = cellsDrawn.mock.calls.length;
    await act(async () => answer({ data: EMPTY }));
    expect(get).toHaveBeenCalledTimes(1);
    expect(cellsDrawn).toHaveBeenCalledTimes(drawnBefore);
  });

  test('hide, move and size columns from the Columns control; each change is kept on the server for the user', async () => {
    jest.useFakeTimers();
    try {
      signIn();
      get.mockResolvedValue({ data: EMPTY });
      put.mockImplementation(async (_path: string, body: { columns: TableSettings['columns'] }) => ({ data: { ...EMPTY, columns: body.columns } }));
      render(
        <ConsoleProviders>
          <DataTable caption="Sites" tableKey={KEY} columns={columns} rows={rows} rowKey="id" />
        </ConsoleProviders>,
      );
      await act(async () => {
        await jest.runOnlyPendingTimersAsync();
      });
      expect(headerTitles()).toEqual(['Site Id', 'Supplier', 'Status']);
      const list = await openColumns();
      // Ids the page keeps out of view are not offered.
      expect(Array.from(list.querySelectorAll('li')).map((li) => li.textContent)).toEqual(['Site Id', 'Supplier', 'Status']);

      fireEvent.click(checkboxOf(list, 'Supplier'));
      expect(headerTitles()).toEqual(['Site Id', 'Status']);
      // The list holds hidden columns too: Status passes Supplier, then Site Id.
      fireEvent.click(labelled('Move Status up', list));
      expect(headerTitles()).toEqual(['Site Id', 'Status']);
      fireEvent.click(labelled('Move Status up', list));
      expect(headerTitles()).toEqual(['Status', 'Site Id']);
      fireEvent.change(labelled('Width of Site Id', list), { target: { value: '240' } });
      expect(headerCell('Site Id').style.width).toBe('240px');
      // Quick changes go to the server once, when they stop.
      expect(put).not.toHaveBeenCalled();
      await act(async () => {
        await jest.advanceTimersByTimeAsync(COLUMN_SAVE_DELAY_MS);
      });
      expect(put).toHaveBeenCalledTimes(1);
      expect(put).toHaveBeenCalledWith(
        'TableSettings/SaveColumns',
        {
          tableKey: KEY,
          columns: [
            { key: 'status', hidden: false, width: null },
            { key: 'siteId', hidden: false, width: 240 },
            { key: 'supplier', hidden: true, width: null },
          ],
        },
        expect.objectContaining({ skipLoading: true }),
      );

      fireEvent.click(buttonWithText('Reset columns'));
      expect(headerTitles()).toEqual(['Site Id', 'Supplier', 'Status']);
      await act(async () => {
        await jest.advanceTimersByTimeAsync(COLUMN_SAVE_DELAY_MS);
      });
      expect(put).toHaveBeenLastCalledWith('TableSettings/SaveColumns', { tableKey: KEY, columns: [] }, expect.anything());
    } finally {
      jest.useRealTimers();
    }
  });

  test("a page's own column width applies until the user sets one", async () => {
    const narrowId: Array<DataColumn<Site>> = columns.map((c) => (c.key === 'siteId' ? { ...c, width: 90 } : c));
    render(
      <ConsoleProviders>
        <DataTable caption="Sites" tableKey={KEY} columns={narrowId} rows={rows} rowKey="id" />
      </ConsoleProviders>,
    );
    expect(headerCell('Site Id').style.width).toBe('90px');
    const list = await openColumns();
    expect(labelled('Width of Site Id', list)).toHaveAttribute('placeholder', '90');
    fireEvent.change(labelled('Width of Site Id', list), { target: { value: '150' } });
    expect(headerCell('Site Id').style.width).toBe('150px');
  });

  test('the last column shown cannot be hidden', async () => {
    render(
      <ConsoleProviders>
        <DataTable caption="Sites" tableKey={KEY} columns={columns} rows={rows} rowKey="id" />
      </ConsoleProviders>,
    );
    const list = await openColumns();
    fireEvent.click(checkboxOf(list, 'Site Id'));
    fireEvent.click(checkboxOf(list, 'Supplier'));
    expect(checkboxOf(list, 'Status')).toBeDisabled();
    expect(headerTitles()).toEqual(['Status']);
  });

  test('a column resizes from the keyboard on its header edge, without sorting it; signed out, nothing is sent', async () => {
    const fetchPage = serverFetch();
    render(
      <ConsoleProviders>
        <DataTable caption="Sites" tableKey={KEY} columns={columns} fetchPage={fetchPage} rowKey="id" />
      </ConsoleProviders>,
    );
    await waitFor(() => expect(fetchPage).toHaveBeenCalledTimes(1));
    const handle = labelled('Resize Supplier', headerCell('Supplier'));
    expect(handle).toHaveAttribute('tabindex', '0');
    // jsdom lays nothing out: the start is 0, held to the least width.
    await act(async () => {
      fireEvent.keyDown(handle, { key: 'ArrowRight' });
    });
    expect(headerCell('Supplier').style.width).toBe(`${MIN_COLUMN_WIDTH}px`);
    await act(async () => {
      fireEvent.keyDown(handle, { key: 'ArrowRight' });
      fireEvent.keyDown(handle, { key: 'Enter' });
    });
    expect(headerCell('Supplier').style.width).toBe(`${MIN_COLUMN_WIDTH + RESIZE_STEP_PX}px`);
    expect(handle).toHaveAttribute('aria-valuenow', String(MIN_COLUMN_WIDTH + RESIZE_STEP_PX));
    expect(fetchPage).toHaveBeenCalledTimes(1);
    expect(get).not.toHaveBeenCalled();
    expect(put).not.toHaveBeenCalled();
  });

  test('a table without a key has no settings controls and calls nothing', () => {
    signIn();
    render(
      <ConsoleProviders>
        <DataTable caption="Sites" columns={columns} rows={rows} rowKey="id" />
      </ConsoleProviders>,
    );
    expect(document.querySelector('[aria-label="Columns of Sites"]')).toBeNull();
    expect(document.querySelector('[role="separator"]')).toBeNull();
    expect(get).not.toHaveBeenCalled();
  });
});

describe('DataTable saved filters', () => {
  async function filterBy(title: string, text: string) {
    fireEvent.click(labelled(`Filter ${title}`, headerCell(title)));
    const input = await waitFor(() => {
      const open = Array.from(document.querySelectorAll<HTMLInputElement>(`input[aria-label="Filter ${title}"]`)).find(
        (i) => !i.closest('.ant-dropdown-hidden'),
      );
      if (!open) throw new Error(`no filter input for ${title}`);
      return open;
    });
    fireEvent.change(input, { target: { value: text } });
    await act(async () => {
      fireEvent.keyDown(input, { key: 'Enter', code: 'Enter', keyCode: 13 });
      fireEvent.keyUp(input, { key: 'Enter', code: 'Enter', keyCode: 13 });
    });
  }

  test('the current filters are saved under a name, applied again later, and deleted', async () => {
    signIn();
    const saved = { name: 'Ericsson open', filters: { supplier: 'Ericsson', status: 'Open' }, updatedAt: '2026-03-05T10:00:00Z' };
    get.mockResolvedValue({ data: EMPTY });
    put.mockResolvedValue({ data: { ...EMPTY, savedFilters: [saved] } });
    del.mockResolvedValue({ data: EMPTY });
    const fetchPage = serverFetch();
    render(
      <ConsoleProviders>
        <DataTable caption="Sites" tableKey={KEY} columns={columns} fetchPage={fetchPage} rowKey="id" />
      </ConsoleProviders>,
    );
    await waitFor(() => expect(get).toHaveBeenCalled());
    await filterBy('Supplier', 'Ericsson');
    await filterBy('Status', 'Open');
    expect(fetchPage).toHaveBeenLastCalledWith({ page: 1, size: 10, filters: { supplier: 'Ericsson', status: 'Open' } });

    await act(async () => {
      fireEvent.click(labelled('Saved filters of Sites'));
    });
    expect(await screen.findByText('No saved filters yet. Filter the table, then save its filters under a name.')).toBeInTheDocument();
    expect(screen.getByText('Now: Supplier: Ericsson, Status: Open')).toBeInTheDocument();
    fireEvent.change(labelled('Name of the filter'), { target: { value: ' Ericsson open ' } });
    await act(async () => {
      fireEvent.click(buttonWithText('Save'));
    });
    expect(put).toHaveBeenCalledWith(
      'TableSettings/SaveFilter',
      { tableKey: KEY, name: 'Ericsson open', filters: { supplier: 'Ericsson', status: 'Open' } },
      expect.objectContaining({ skipErrorHandling: true }),
    );
    expect(await findLabelled('Apply saved filter Ericsson open')).toBeInTheDocument();

    // Cleared by hand, then the saved filter brings both back.
    await filterBy('Supplier', '');
    await filterBy('Status', '');
    expect(fetchPage).toHaveBeenLastCalledWith({ page: 1, size: 10, filters: {} });
    await act(async () => {
      fireEvent.click(labelled('Apply saved filter Ericsson open'));
    });
    expect(fetchPage).toHaveBeenLastCalledWith({ page: 1, size: 10, filters: { supplier: 'Ericsson', status: 'Open' } });
    expect(labelled('Filter Supplier', headerCell('Supplier'))).toHaveAttribute('aria-pressed', 'true');

    await act(async () => {
      fireEvent.click(labelled('Saved filters of Sites'));
    });
    await act(async () => {
      fireEvent.click(await findLabelled('Delete saved filter Ericsson open'));
    });
    expect(del).toHaveBeenCalledWith('TableSettings/DeleteFilter', expect.objectContaining({ data: { tableKey: KEY, name: 'Ericsson open' } }));
    await waitFor(() => expect(document.querySelector('[aria-label="Apply saved filter Ericsson open"]')).toBeNull());
  });

  test("a refusal is shown next to the form; hiding a filtered column drops its filter; a saved filter's hidden fields stay off", async () => {
    signIn();
    get.mockResolvedValue({
      data: { ...EMPTY, savedFilters: [{ name: 'Nokia', filters: { supplier: 'Nokia', siteId: 'LX' }, updatedAt: '2026-03-05T10:00:00Z' }] },
    });
    put.mockImplementation(async (path: string, body: { columns?: TableSettings['columns'] }) => {
      if (path === 'TableSettings/SaveFilter') throw apiRefusal(400, { message: 'refused' });
      return { data: { ...EMPTY, columns: body.columns ?? [] } };
    });
    render(
      <ConsoleProviders>
        <DataTable caption="Sites" tableKey={KEY} columns={columns} rows={rows} rowKey="id" />
      </ConsoleProviders>,
    );
    await waitFor(() => expect(get).toHaveBeenCalled());
    await filterBy('Supplier', 'Nokia');
    expect(screen.getByText('1-6 of 6')).toBeInTheDocument();
    await act(async () => {
      fireEvent.click(labelled('Saved filters of Sites'));
    });
    fireEvent.change(await findLabelled('Name of the filter'), { target: { value: 'Mine' } });
    await act(async () => {
      fireEvent.click(buttonWithText('Save'));
    });
    expect(await waitFor(() => document.querySelector('[role="alert"]'))).toHaveTextContent('refused');

    const list = await openColumns();
    fireEvent.click(checkboxOf(list, 'Supplier'));
    expect(screen.getByText('1-10 of 12')).toBeInTheDocument();
    await act(async () => {
      fireEvent.click(labelled('Apply saved filter Nokia'));
    });
    // Supplier is hidden: only the Site Id part applies (every row matches 'LX').
    expect(screen.getByText('1-10 of 12')).toBeInTheDocument();
    expect(labelled('Filter Site Id', headerCell('Site Id'))).toHaveAttribute('aria-pressed', 'true');
  });
});
