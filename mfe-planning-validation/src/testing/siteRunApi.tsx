import { act, fireEvent, render, waitFor } from '@testing-library/react';
import type { ComponentType } from 'react';
import { MemoryRouter } from 'react-router-dom';
import { api, type ApiError, apiRefusal, type ApiResponse, type RequestConfig, type Role, setToken, setUser } from 'shared-auth';
import { ConsoleProviders } from 'shared-ui';

/**
 * What the RAN-share and health-check page tests share (the same helpers as mfe-monitoring's
 * testing/fakeApi, which another package's tests cannot import): the API answered per path, every
 * call recorded; a signed-in engineer; the page rendered inside the console's providers.
 */

export type Answer = unknown | ((params: Record<string, unknown>) => unknown);

export interface Call {
  path: string;
  params?: Record<string, unknown>;
  config?: Record<string, unknown>;
}

/** An answer the API refuses with: status and `{ message }`, as the API client hands it to the page. */
export function refusal(status: number, message: string): ApiError {
  return apiRefusal(status, { message });
}

export function fakeApi(answers: Record<string, Answer>) {
  const calls: Call[] = [];
  jest.spyOn(api, 'get').mockImplementation(async (path: string, config?: RequestConfig) => {
    const params = config?.params as Record<string, unknown> | undefined;
    calls.push({ path, params, config: config as Record<string, unknown> });
    if (path === 'File/Download')
      return { data: new Blob(['PK']), headers: { 'content-disposition': `attachment; filename="${String(params?.file)}.xlsx"` } } as unknown as ApiResponse;
    if (!(path in answers)) throw new Error(`unexpected call ${path}`);
    const answer = answers[path];
    const data: unknown = typeof answer === 'function' ? await (answer as (p: Record<string, unknown>) => unknown)(params ?? {}) : answer;
    return { data } as ApiResponse;
  });
  return { calls, to: (path: string) => calls.filter((c) => c.path === path) };
}

/** A token the session store accepts as live (its signature is the server's business). */
function liveToken(): string {
  const encode = (part: object) => Buffer.from(JSON.stringify(part)).toString('base64url');
  return `${encode({ alg: 'HS256', typ: 'JWT' })}.${encode({ sub: '7', exp: Math.floor(Date.now() / 1000) + 3600 })}.signature`;
}

export function signIn(role: Role = 'CellwiseOS', id = 7) {
  setToken(liveToken());
  setUser({ id, firstname: 'Eva', lastname: 'Engineer', role, operator: { id: 1, name: 'NOS' }, projects: ['Operations'], avatar: null });
}

/** Downloads the page saved (the anchor's file names); URL.createObjectURL is jsdom-less. */
export function catchDownloads(): string[] {
  const saved: string[] = [];
  Object.assign(URL, { createObjectURL: jest.fn(() => 'blob:1'), revokeObjectURL: jest.fn() });
  jest.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    saved.push(this.download);
  });
  return saved;
}

export async function renderPage(Page: ComponentType) {
  render(
    <ConsoleProviders>
      <MemoryRouter>
        <Page />
      </MemoryRouter>
    </ConsoleProviders>,
  );
  await waitFor(() => expect(document.querySelector('.ant-spin-spinning')).toBeNull());
}

/** The text of each body row's cells of the table captioned `caption`. */
export function rowsOf(caption: string): string[][] {
  const title = Array.from(document.querySelectorAll('.ant-table-title')).find((t) => (t.querySelector('strong') ?? t).textContent?.trim() === caption); // the caption, not the table's tools beside it
  if (!title) throw new Error(`no table ${caption}`);
  const table = title.closest('.ant-table-wrapper') as HTMLElement;
  return Array.from(table.querySelectorAll('tr.ant-table-row')).map((r) => Array.from(r.querySelectorAll('td')).map((td) => td.textContent ?? ''));
}

export function buttonNamed(name: RegExp | string, scope: ParentNode = document): HTMLButtonElement {
  const found = Array.from(scope.querySelectorAll('button')).find((b) =>
    typeof name === 'string' ? b.textContent?.trim() === name : name.test(b.textContent ?? ''),
  );
  if (!found) throw new Error(`no button ${String(name)}`);
  return found;
}

/** Opens the site select and picks the option whose text is `text`. */
export async function chooseSite(text: string) {
  const select = document.querySelector('.ant-select')!;
  fireEvent.mouseDown(select.querySelector('input') ?? select);
  const option = await waitFor(() => {
    const found = Array.from(document.querySelectorAll<HTMLElement>('.ant-select-item-option')).find((o) => o.textContent === text);
    if (!found) throw new Error('no option yet');
    return found;
  });
  await act(async () => {
    fireEvent.click(option);
  });
}
