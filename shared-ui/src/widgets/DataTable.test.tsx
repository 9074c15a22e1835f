import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { useState } from 'react';
import { ConsoleProviders } from './ConsoleProviders';
import { DataTable, NO_MATCHING_ROWS, NO_ROWS, filtersFromSearch, filtersSearch, type DataColumn, type TablePage, type TableQuery } from './DataTable';

interface Site {
  id: number;
  siteId: string;
  commDate: string | null;
}

const columns: Array<DataColumn<Site>> = [
  { key: 'id', title: 'Id', hidden: true },
  { key: 'siteId', title: 'Site Id' },
  { key: 'commDate', title: 'Comm Date', kind: 'date' },
];

/** 25 rows on a fake server that pages, sorts and filters like the API. */
const all: Site[] = Array.from({ length: 25 }, (_, i) => ({ id: i + 1, siteId: `LX${String(i + 1).padStart(4, '0')}`, commDate: '2026-03-05T14:07:09Z' }));
function fakeServer() {
  return jest.fn(async (q: TableQuery): Promise<TablePage<Site>> => {
    let rows = all.filter((r) =>
      Object.entries(q.filters).every(([field, text]) =>
        String(r[field as keyof Site])
          .toLowerCase()
          .includes(text.toLowerCase()),
      ),
    );
    if (q.sort === 'siteId' && q.order === 'descend') rows = [...rows].reverse();
    return { rows: rows.slice((q.page - 1) * q.size, q.page * q.size), total: rows.length };
  });
}

const bodyRows = () =>
  screen
    .getAllByRole('row')
    .filter((r) => r.classList.contains('ant-table-row'))
    .map((r) => Array.from(r.querySelectorAll('td')).map((td) => td.textContent));

async function filterBy(title: string, text: string) {
  // The visible header: a fixed-header table also renders a hidden measuring copy of it.
  const header = screen.getAllByRole('columnheader').find((h) => h.closest('.ant-table-header') && h.textContent?.includes(title))!;
  fireEvent.click(within(header).getByLabelText(`Filter ${title}`));
  const input = await screen.findByRole('textbox', { name: `Filter ${title}` });
  fireEvent.change(input, { target: { value: text } });
  // Enter confirms, as a keyboard user would (the key goes up again before the next filter).
  await act(async () => {
    fireEvent.keyDown(input, { key: 'Enter', code: 'Enter', keyCode: 13 });
    fireEvent.keyUp(input, { key: 'Enter', code: 'Enter', keyCode: 13 });
  });
}

describe('DataTable, server-side', () => {
  test('asks for one page of 10, then the page the user picks; dates read DD-MM-YYYY HH:mm:ss', async () => {
    const fetchPage = fakeServer();
    render(
      <ConsoleProviders>
        <DataTable columns={columns} fetchPage={fetchPage} rowKey="id" />
      </ConsoleProviders>,
    );
    await waitFor(() => expect(bodyRows()).toHaveLength(10));
    expect(fetchPage).toHaveBeenLastCalledWith({ page: 1, size: 10, filters: {} });
    expect(bodyRows()[0]).toEqual(['LX0001', '05-03-2026 14:07:09']);
    expect(screen.getByText('1-10 of 25')).toBeInTheDocument();
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Page 3' }));
    });
    expect(fetchPage).toHaveBeenLastCalledWith({ page: 3, size: 10, filters: {} });
    await waitFor(() => expect(bodyRows().map((r) => r[0])).toEqual(['LX0021', 'LX0022', 'LX0023', 'LX0024', 'LX0025']));
  });

  test('a filter or a sort goes to the server and starts again at page 1', async () => {
    const fetchPage = fakeServer();
    render(
      <ConsoleProviders>
        <DataTable columns={columns} fetchPage={fetchPage} rowKey="id" />
      </ConsoleProviders>,
    );
    await waitFor(() => expect(bodyRows()).toHaveLength(10));
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Page 2' }));
    });
    await filterBy('Site Id', 'lx001');
    expect(fetchPage).toHaveBeenLastCalledWith({ page: 1, size: 10, filters: { siteId: 'lx001' } });
    await waitFor(() => expect(bodyRows()).toHaveLength(10));
    await act(async () => {
      fireEvent.click(screen.getAllByText('Site Id')[0]!);
    });
    expect(fetchPage).toHaveBeenLastCalledWith({ page: 1, size: 10, sort: 'siteId', order: 'ascend', filters: { siteId: 'lx001' } });
    await act(async () => {
      fireEvent.click(screen.getAllByText('Site Id')[0]!);
    });
    expect(fetchPage).toHaveBeenLastCalledWith({ page: 1, size: 10, sort: 'siteId', order: 'descend', filters: { siteId: 'lx001' } });
    await filterBy('Site Id', 'nothing-like-it');
    expect(await screen.findByText(NO_MATCHING_ROWS)).toBeInTheDocument();
  });

  test('a sortable header says it sorts to assistive technology, with no tooltip popping up over the table', async () => {
    jest.useFakeTimers();
    try {
      render(
        <ConsoleProviders>
          <DataTable columns={columns} fetchPage={fakeServer()} rowKey="id" />
        </ConsoleProviders>,
      );
      await act(async () => {
        await jest.advanceTimersByTimeAsync(50);
      });
      const header = screen.getAllByRole('columnheader').find((h) => h.closest('.ant-table-header') && h.textContent?.includes('Site Id'))!;
      expect(header).toHaveAttribute('aria-description', 'sortable');
      await act(async () => {
        fireEvent.mouseEnter(header);
        fireEvent.mouseEnter(within(header).getByText('Site Id'));
        await jest.advanceTimersByTimeAsync(1000);
      });
      expect(document.querySelector('.ant-tooltip')).toBeNull();
    } finally {
      jest.useRealTimers();
    }
  });

  test('a new reloadKey fetches the current page again; an empty data set says so', async () => {
    const fetchPage = jest.fn(async (): Promise<TablePage<Site>> => ({ rows: [], total: 0 }));
    const view = (reloadKey: number) => (
      <ConsoleProviders>
        <DataTable columns={columns} fetchPage={fetchPage} rowKey="id" reloadKey={reloadKey} />
      </ConsoleProviders>
    );
    const { rerender } = render(view(0));
    expect(await screen.findByText(NO_ROWS)).toBeInTheDocument();
    expect(fetchPage).toHaveBeenCalledTimes(1);
    await act(async () => {
      rerender(view(1));
    });
    expect(fetchPage).toHaveBeenCalledTimes(2);
  });

  test('a data set that shrank under the current page falls back to its last page', async () => {
    let size = 25;
    const fetchPage = jest.fn(async (q: TableQuery): Promise<TablePage<Site>> => ({
      rows: all.slice(0, size).slice((q.page - 1) * 10, q.page * 10),
      total: size,
    }));
    const view = (reloadKey: number) => (
      <ConsoleProviders>
        <DataTable columns={columns} fetchPage={fetchPage} rowKey="id" reloadKey={reloadKey} />
      </ConsoleProviders>
    );
    const { rerender } = render(view(0));
    await waitFor(() => expect(bodyRows()).toHaveLength(10));
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Page 3' }));
    });
    size = 12;
    await act(async () => {
      rerender(view(1));
    });
    await waitFor(() => expect(fetchPage).toHaveBeenLastCalledWith({ page: 2, size: 10, filters: {} }));
    await waitFor(() => expect(bodyRows().map((r) => r[0])).toEqual(['LX0011', 'LX0012']));
  });
});

/** What the pagination control shows, in order: its page numbers, breaks as '…', and its two labels. */
const paginationItems = () => Array.from(screen.getByRole('navigation', { name: 'Pagination' }).querySelectorAll('li')).map((li) => li.textContent);

describe('DataTable, pagination (specification §9: 5 pages in range, 2 margin pages, labels previous and next)', () => {
  const many: Site[] = Array.from({ length: 200 }, (_, i) => ({ id: i + 1, siteId: `LX${String(i + 1).padStart(4, '0')}`, commDate: null }));

  test('20 pages: the 5 around the current one, 2 at each end, breaks between, previous and next', async () => {
    render(
      <ConsoleProviders>
        <DataTable columns={columns} rows={many} rowKey="id" />
      </ConsoleProviders>,
    );
    expect(paginationItems()).toEqual(['previous', '1', '2', '3', '4', '5', '…', '19', '20', 'next']);
    expect(screen.getByRole('button', { name: 'previous' })).toBeDisabled();
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Page 5' }));
    });
    expect(paginationItems()).toEqual(['previous', '1', '2', '3', '4', '5', '6', '7', '…', '19', '20', 'next']);
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Page 7' }));
    });
    expect(paginationItems()).toEqual(['previous', '1', '2', '…', '5', '6', '7', '8', '9', '…', '19', '20', 'next']);
    expect(screen.getByRole('button', { name: 'Page 7' })).toHaveAttribute('aria-current', 'page');
    expect(bodyRows()[0]).toEqual(['LX0061', '']);
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'next' }));
    });
    expect(bodyRows()[0]).toEqual(['LX0071', '']);
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Page 20' }));
    });
    expect(paginationItems()).toEqual(['previous', '1', '2', '…', '16', '17', '18', '19', '20', 'next']);
    expect(screen.getByRole('button', { name: 'next' })).toBeDisabled();
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'previous' }));
    });
    expect(bodyRows()[0]).toEqual(['LX0181', '']);
  });

  test('a server-side table pages through the same control and says which rows it shows', async () => {
    const fetchPage = jest.fn(async (q: TableQuery): Promise<TablePage<Site>> => ({
      rows: many.slice((q.page - 1) * q.size, q.page * q.size),
      total: many.length,
    }));
    render(
      <ConsoleProviders>
        <DataTable columns={columns} fetchPage={fetchPage} rowKey="id" />
      </ConsoleProviders>,
    );
    await waitFor(() => expect(paginationItems()).toEqual(['previous', '1', '2', '3', '4', '5', '…', '19', '20', 'next']));
    expect(screen.getByText('1-10 of 200')).toBeInTheDocument();
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Page 19' }));
    });
    expect(fetchPage).toHaveBeenLastCalledWith({ page: 19, size: 10, filters: {} });
    await waitFor(() => expect(screen.getByText('181-190 of 200')).toBeInTheDocument());
    expect(paginationItems()).toEqual(['previous', '1', '2', '…', '16', '17', '18', '19', '20', 'next']);
  });
});

describe('DataTable, in the browser', () => {
  test('pages by 10 and filters the rows it holds, dates as shown', async () => {
    render(
      <ConsoleProviders>
        <DataTable columns={columns} rows={all} rowKey="id" />
      </ConsoleProviders>,
    );
    expect(bodyRows()).toHaveLength(10);
    await filterBy('Comm Date', '05-03-2026');
    expect(bodyRows()).toHaveLength(10);
    await filterBy('Site Id', 'LX0025');
    expect(bodyRows().map((r) => r[0])).toEqual(['LX0025']);
  });
});

describe('DataTable, keyboard', () => {
  /** The table drawn with its first page, and the visible header cell of the column titled `title`. */
  async function renderedTable(title: string) {
    const fetchPage = fakeServer();
    render(
      <ConsoleProviders>
        <DataTable columns={columns} fetchPage={fetchPage} rowKey="id" />
      </ConsoleProviders>,
    );
    await waitFor(() => expect(bodyRows()).toHaveLength(10));
    const header = screen.getAllByRole('columnheader').find((h) => h.closest('.ant-table-header') && h.textContent?.includes(title))!;
    return { fetchPage, header };
  }
  test('a filter opens from the keyboard without sorting the column', async () => {
    const { fetchPage, header } = await renderedTable('Site Id');
    const trigger = within(header).getByRole('button', { name: 'Filter Site Id' });
    expect(trigger).toHaveAttribute('tabindex', '0');
    await act(async () => {
      fireEvent.keyDown(trigger, { key: 'Enter', code: 'Enter', keyCode: 13 });
    });
    expect(await screen.findByRole('textbox', { name: 'Filter Site Id' })).toBeInTheDocument();
    expect(fetchPage).toHaveBeenCalledTimes(1);
  });
  test('a sortable column sorts from its own button, once per Enter; the header cell holding it is out of the tab order', async () => {
    const { fetchPage, header } = await renderedTable('Site Id');
    expect(header).not.toHaveAttribute('tabindex');
    const sort = within(header).getByRole('button', { name: 'Sort by Site Id' });
    expect(sort.tagName).toBe('BUTTON');
    await act(async () => {
      // A browser turns Enter on a button into a click; the key itself must not sort too.
      fireEvent.keyDown(sort, { key: 'Enter', code: 'Enter', keyCode: 13 });
      fireEvent.click(sort);
    });
    expect(fetchPage).toHaveBeenCalledTimes(2);
    expect(fetchPage).toHaveBeenLastCalledWith({ page: 1, size: 10, sort: 'siteId', order: 'ascend', filters: {} });
    // The copy antd draws hidden to measure the columns keeps its buttons out of the tab order.
    for (const hidden of document.querySelectorAll('[aria-hidden="true"] button')) expect(hidden).toHaveAttribute('tabindex', '-1');
  });

  test('a filter confirmed with Enter gives the focus back to the button that opened it', async () => {
    const { fetchPage, header } = await renderedTable('Site Id');
    const trigger = within(header).getByRole('button', { name: 'Filter Site Id' });
    trigger.focus();
    await act(async () => {
      fireEvent.keyDown(trigger, { key: 'Enter', code: 'Enter', keyCode: 13 });
    });
    const input = await screen.findByRole('textbox', { name: 'Filter Site Id' });
    input.focus();
    fireEvent.change(input, { target: { value: 'LX0002' } });
    await act(async () => {
      fireEvent.keyDown(input, { key: 'Enter', code: 'Enter', keyCode: 13 });
    });
    expect(fetchPage).toHaveBeenLastCalledWith({ page: 1, size: 10, filters: { siteId: 'LX0002' } });
    expect(trigger).toHaveFocus();
  });

  test('a long text cell is reachable with Tab and shows its whole text when focused', async () => {
    interface Note {
      id: number;
      comment: string;
    }
    const comment = 'RF Reflected Power High; Service Unavailable since the last upload of the site';
    render(
      <ConsoleProviders>
        <DataTable<Note> columns={[{ key: 'comment', title: 'Comments', wrap: true }]} rows={[{ id: 1, comment }]} rowKey="id" />
      </ConsoleProviders>,
    );
    const cell = screen.getByText(comment, { selector: '.cw-long-text' });
    expect(cell).toHaveAttribute('tabindex', '0');
    await act(async () => {
      fireEvent.focus(cell);
    });
    expect(await screen.findByRole('tooltip')).toHaveTextContent(comment);
  });
});

describe('DataTable, initial filters from a link', () => {
  test('the first request carries them and the column shows it is filtered; unknown or hidden fields are left out', async () => {
    const fetchPage = fakeServer();
    render(
      <ConsoleProviders>
        <DataTable columns={columns} fetchPage={fetchPage} rowKey="id" initialFilters={{ siteId: 'LX0002', id: '3', nope: 'x' }} />
      </ConsoleProviders>,
    );
    await waitFor(() => expect(bodyRows()).toHaveLength(1));
    expect(fetchPage.mock.calls[0]![0]).toEqual({ page: 1, size: 10, filters: { siteId: 'LX0002' } });
    const header = screen.getAllByRole('columnheader').find((h) => h.closest('.ant-table-header') && h.textContent?.includes('Site Id'))!;
    expect(within(header).getByLabelText('Filter Site Id')).toHaveAttribute('aria-pressed', 'true');
  });

  test('?filters= is read as JSON text of field → text; anything malformed is no filter', () => {
    expect(filtersFromSearch(filtersSearch({ localId: 'LX0001' }))).toEqual({ localId: 'LX0001' });
    expect(filtersFromSearch('?filters=%7Bnot-json')).toEqual({});
    expect(filtersFromSearch('?filters=%5B1%5D')).toEqual({});
    expect(filtersFromSearch('?filters=%7B%22a%22%3A1%2C%22b%22%3A%22x%22%7D')).toEqual({ b: 'x' });
    expect(filtersFromSearch('')).toEqual({});
  });
});

describe('DataTable, row clicks', () => {
  test('onRowClick gets the row clicked', async () => {
    const clicked = jest.fn();
    render(
      <ConsoleProviders>
        <DataTable columns={columns} rows={all.slice(0, 3)} rowKey="id" onRowClick={clicked} />
      </ConsoleProviders>,
    );
    await waitFor(() => expect(bodyRows()).toHaveLength(3));
    fireEvent.click(screen.getByText('LX0002'));
    expect(clicked).toHaveBeenCalledWith(all[1]);
  });
});

describe('DataTable, drawing', () => {
  /** A page with a table and a counter of its own, redrawn on every click of 'Redraw the page'. */
  function PageWithTable({ fetchPage, cellsDrawn }: { fetchPage: (q: TableQuery) => Promise<TablePage<Site>>; cellsDrawn: jest.Mock }) {
    const [clicks, setClicks] = useState(0);
    return (
      <>
        <button type="button" onClick={() => setClicks((n) => n + 1)}>
          Redraw the page ({clicks})
        </button>
        {/* A new object on every draw, as pages pass the filters of their address. */}
        <DataTable columns={drawnColumns(cellsDrawn)} fetchPage={fetchPage} rowKey="id" initialFilters={{}} />
      </>
    );
  }
  const columnsByCounter = new Map<jest.Mock, Array<DataColumn<Site>>>();
  /** The same columns for one counter (a page's columns are a constant), counting each cell drawn. */
  function drawnColumns(cellsDrawn: jest.Mock): Array<DataColumn<Site>> {
    if (!columnsByCounter.has(cellsDrawn)) {
      columnsByCounter.set(cellsDrawn, [
        { key: 'id', title: 'Id', hidden: true },
        { key: 'siteId', title: 'Site Id', render: (row) => (cellsDrawn(row.siteId), row.siteId) },
      ]);
    }
    return columnsByCounter.get(cellsDrawn)!;
  }

  test('while the first page loads there is no empty text, and the pagination appears with the rows (nothing is pushed down when they arrive)', async () => {
    let answer: (page: TablePage<Site>) => void = () => undefined;
    const fetchPage = jest.fn(() => new Promise<TablePage<Site>>((resolve) => (answer = resolve)));
    render(
      <ConsoleProviders>
        <DataTable columns={columns} fetchPage={fetchPage} rowKey="id" />
      </ConsoleProviders>,
    );
    await waitFor(() => expect(fetchPage).toHaveBeenCalled());
    expect(screen.queryByRole('navigation', { name: 'Pagination' })).toBeNull();
    // The spinner alone says the rows are coming: no 'nothing here' text under it.
    expect(screen.queryByText(NO_ROWS)).toBeNull();
    await act(async () => answer({ rows: all.slice(0, 10), total: 25 }));
    expect(await screen.findByRole('navigation', { name: 'Pagination' })).toHaveTextContent('1-10 of 25');
  });

  test('a page drawn again for something else does not draw the table again; a new page of rows does', async () => {
    const cellsDrawn = jest.fn();
    render(
      <ConsoleProviders>
        <PageWithTable fetchPage={fakeServer()} cellsDrawn={cellsDrawn} />
      </ConsoleProviders>,
    );
    await waitFor(() => expect(bodyRows()).toHaveLength(10));
    const drawnBefore = cellsDrawn.mock.calls.length;
    expect(drawnBefore).toBeGreaterThanOrEqual(10);

    fireEvent.click(screen.getByRole('button', { name: 'Redraw the page (0)' }));
    await screen.findByRole('button', { name: 'Redraw the page (1)' });
    expect(cellsDrawn.mock.calls.length).toBe(drawnBefore);

    fireEvent.click(screen.getByRole('button', { name: 'Page 2' }));
    await waitFor(() => expect(bodyRows()[0]).toEqual(['LX0011']));
    expect(cellsDrawn).toHaveBeenCalledWith('LX0011');
  });
});
