import { render, waitFor } from '@testing-library/react';
import type { RunResponse, RunView } from 'contracts';
import type { ComponentType } from 'react';
import { MemoryRouter, useLocation } from 'react-router-dom';
import { ConsoleProviders } from 'shared-ui';
import { fakeRunFindings } from 'shared-ui/testing';

/** Test-only helpers of this remote's page tests: what every remote's tests share, and the page rendered as the console mounts it. */
export {
  buttonNamed,
  catchDownloads,
  chooseOption as chooseSite,
  fakeApi,
  fakeRunFindings,
  fakeSheet,
  refusal,
  rowsOf,
  signIn,
  type Answer,
  type Answers,
  type Call,
} from 'shared-ui/testing';

/** The router's current address, shown for a test to read (addressNow). */
function AddressProbe() {
  const { pathname, search } = useLocation();
  return <output data-testid="address" hidden>{`${pathname}${search}`}</output>;
}

/** Where the page's router stands now (path and query), as a link copied from it would read. */
export const addressNow = () => document.querySelector('[data-testid="address"]')?.textContent ?? '';

/** Renders a page inside the console's providers and a router (at `address`, e.g. '/validation/cpichvalidation?run=3'), then waits for its first answers. */
export async function renderPage(Page: ComponentType, address = '/') {
  render(
    <ConsoleProviders>
      <MemoryRouter initialEntries={[address]}>
        <Page />
        <AddressProbe />
      </MemoryRouter>
    </ConsoleProviders>,
  );
  await waitFor(() => expect(document.querySelector('.ant-spin-spinning')).toBeNull());
}

/**
 * A run kind's findings route for a run the page just ran (its answer `result`): one sheet, the
 * answer's preview rows as the server lists them, the verdict column's rows tagged.
 */
export function findingsOf(result: RunResponse, run: Partial<RunView> = {}) {
  const { preview } = result;
  const verdictKey = preview.columns.some((c) => c.key === 'verdict') ? 'verdict' : preview.columns.some((c) => c.key === 'status') ? 'status' : null;
  const rows = preview.rows.map((values, i) => ({ rowNo: i + 1, verdict: verdictKey === null ? null : (values[verdictKey] as string | null), values }));
  const view: RunView = {
    runId: result.runId,
    user: 'Eva Engineer',
    sites: 'LX0001',
    files: '',
    runDate: '2026-11-20T10:00:00.000Z',
    message: result.message ?? null,
    summary: result.summary,
    sheets: [{ name: preview.title, columns: preview.columns.map((c) => ({ ...c, kind: 'text' as const })), total: rows.length, verdictKey, worst: null }],
    hasFile: result.file !== undefined,
    ...run,
  };
  return fakeRunFindings(view, { [preview.title]: rows });
}
