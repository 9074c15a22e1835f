import { act, fireEvent, render, waitFor, within } from '@testing-library/react';
import type { ComponentType } from 'react';
import { api } from 'shared-auth';
import { ConsoleProviders } from 'shared-ui';
import { buttonNamed, catchDownloads } from 'shared-ui/testing';

// Test-only helpers of this remote's page tests. Each test file mocks shared-auth's api itself
// (`jest.mock('shared-auth', …)`: jest hoists that above the imports only in the test file), so the api
// read here is the mock.
export { buttonNamed } from 'shared-ui/testing';

const get = () => api.get as jest.Mock;
/** The mocked `api.post` (uploads). */
export const post = () => api.post as jest.Mock;

type Answers = Record<string, unknown | ((params: Record<string, unknown>) => unknown)>;

/** A fake API: each path answers its value (or the value computed from the query). */
export function serve(answers: Answers) {
  get().mockImplementation(async (path: string, config?: { params?: Record<string, unknown> }) => {
    if (path === 'File/Download') return { data: new Blob(['PK']), headers: { 'content-disposition': 'attachment; filename="export.xlsx"' } };
    if (!(path in answers)) throw new Error(`unexpected call ${path}`);
    const answer = answers[path];
    return { data: typeof answer === 'function' ? answer(config?.params ?? {}) : answer };
  });
}

/** The GET calls made to `path`, each as its arguments. */
export const calls = (path: string) => get().mock.calls.filter(([p]) => p === path);

let clicked: string[] = [];
/** The file names downloaded since the test began. */
export const downloads = () => clicked;

/** Resets the fake API and catches downloads before each test of the calling file. */
export function fakeTrackingApi() {
  beforeEach(() => {
    get().mockReset();
    post().mockReset();
    clicked = catchDownloads();
  });
  afterEach(() => jest.restoreAllMocks());
}

export async function renderPage(Page: ComponentType) {
  render(
    <ConsoleProviders>
      <Page />
    </ConsoleProviders>,
  );
  await waitFor(() => expect(document.querySelector('.ant-spin-spinning')).toBeNull());
}

// Plain DOM queries: role queries walk the accessibility tree of a 20-column antd table and take
// seconds each in jsdom, which pushed these tests past their timeout on a loaded machine.
export const bodyRows = () =>
  Array.from(document.querySelectorAll('tr.ant-table-row')).map((r) => Array.from(r.querySelectorAll('td')).map((td) => td.textContent));

/** Opens the import dialog by its button, checks its title, picks a workbook and uploads it. */
export async function importWorkbook(button: string, dialogTitle: string) {
  fireEvent.click(buttonNamed(new RegExp(button)));
  const dialog = await waitFor(() => {
    const open = document.querySelector<HTMLElement>('.ant-modal');
    if (!open) throw new Error('no dialog yet');
    return open;
  });
  expect(within(dialog).getByText(dialogTitle)).toBeInTheDocument();
  fireEvent.change(dialog.querySelector('input[type="file"]')!, { target: { files: [new File(['PK'], 'data.xlsx')] } });
  const upload = await waitFor(() => buttonNamed(/Upload/, dialog));
  await waitFor(() => expect(upload).toBeEnabled());
  await act(async () => {
    fireEvent.click(upload);
  });
}
