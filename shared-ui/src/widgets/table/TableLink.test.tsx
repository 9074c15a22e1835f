import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import type { TableSettings } from 'contracts';
import { api } from 'shared-auth';
import { ConsoleProviders } from '../ConsoleProviders';
import { DataTable, type DataColumn, type TablePage, type TableQuery } from '../DataTable';
import { LINK_COPIED } from './CopyLinkButton';
import { viewParam } from './urlView';

jest.mock('shared-auth', () => ({ ...jest.requireActual('shared-auth'), api: { get: jest.fn(), put: jest.fn(), delete: jest.fn() } }));
const get = api.get as jest.Mock;

interface Site {
  id: number;
  siteId: string;
}
const columns: Array<DataColumn<Site>> = [
  { key: 'id', title: 'Id', hidden: true },
  { key: 'siteId', title: 'Site Id' },
];
const KEY = 'tests.links';
const EMPTY: TableSettings = { tableKey: KEY, columns: [], savedFilters: [] };
const all: Site[] = Array.from({ length: 25 }, (_, i) => ({ id: i + 1, siteId: `LX${String(i + 1).padStart(4, '0')}` }));
const server = () =>
  jest.fn(async (q: TableQuery): Promise<TablePage<Site>> => {
    let rows = all.filter((r) => Object.entries(q.filters).every(([, t]) => r.siteId.toLowerCase().includes(t.toLowerCase())));
    if (q.sort === 'siteId' && q.order === 'descend') rows = [...rows].reverse();
    return { rows: rows.slice((q.page - 1) * q.size, q.page * q.size), total: rows.length };
  });

const table = (fetchPage: ReturnType<typeof server>, initialFilters?: Record<string, string>) => (
  <ConsoleProviders>
    <DataTable tableKey={KEY} caption="Sites" columns={columns} fetchPage={fetchPage} rowKey="id" initialFilters={initialFilters} />
  </ConsoleProviders>
);

beforeEach(() => get.mockResolvedValue({ data: EMPTY }));

describe('a shareable table view', () => {
  test("the view goes into the address as it changes, and the address's view opens the table", async () => {
    const first = server();
    const { unmount } = render(table(first));
    await screen.findByText('LX0001');
    fireEvent.click(screen.getAllByText('Site Id')[0]!);
    await waitFor(() => expect(first).toHaveBeenLastCalledWith(expect.objectContaining({ order: 'ascend' })));
    fireEvent.click(screen.getAllByText('Site Id')[0]!);
    await screen.findByText('LX0025');
    fireEvent.click(screen.getByRole('button', { name: 'Page 2' }));
    await screen.findByText('LX0015');
    const view = JSON.parse(new URLSearchParams(window.location.search).get(viewParam(KEY))!) as unknown;
    expect(view).toEqual({ s: 'siteId', o: 'descend', p: 2 });
    unmount();

    // Someone opens the link: the same page of the same sort, the header showing it.
    const second = server();
    render(table(second));
    await screen.findByText('LX0015');
    expect(second).toHaveBeenCalledTimes(1);
    expect(second).toHaveBeenLastCalledWith({ page: 2, size: 10, sort: 'siteId', order: 'descend', filters: {} });
    expect(document.querySelector('th[aria-sort="descending"]')?.textContent).toContain('Site Id');
  });

  test("a page's own filters win over the address's view", async () => {
    window.history.replaceState(null, '', `/?${viewParam(KEY)}=${encodeURIComponent(JSON.stringify({ p: 2 }))}`);
    const fetchPage = server();
    render(table(fetchPage, { siteId: 'LX001' }));
    await screen.findByText('LX0010');
    expect(fetchPage).toHaveBeenCalledWith({ page: 1, size: 10, filters: { siteId: 'LX001' } });
    await waitFor(() => expect(JSON.parse(new URLSearchParams(window.location.search).get(viewParam(KEY))!)).toEqual({ f: { siteId: 'LX001' } }));
  });

  test('Copy link copies the address with the view in it', async () => {
    const writeText = jest.fn(async () => undefined);
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    window.history.replaceState(null, '', `/x?${viewParam(KEY)}=${encodeURIComponent(JSON.stringify({ p: 3 }))}`);
    render(table(server()));
    await screen.findByText('LX0021');
    fireEvent.click(screen.getByRole('button', { name: 'Copy a link to Sites' }));
    expect(await screen.findByText(LINK_COPIED)).toBeInTheDocument();
    expect(writeText).toHaveBeenCalledWith(window.location.href);
    expect(new URL((writeText.mock.calls[0] as unknown[])[0] as string).searchParams.get(viewParam(KEY))).toBe('{"p":3}');
  });
});
