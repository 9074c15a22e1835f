import { fireEvent, render, waitFor } from '@testing-library/react';
import type { ComponentType } from 'react';
import { MemoryRouter } from 'react-router-dom';
import { api, type ApiError, apiRefusal, type ApiResponse, type RequestConfig, setToken, setUser } from 'shared-auth';
import { ConsoleProviders } from 'shared-ui';

/** Test-only helpers of the validation pages' component tests: the API answered from a table, and the widgets driven as a user does. */

export type Answers = Record<string, unknown | ((params: Record<string, unknown>) => unknown)>;
export interface Call {
  method: 'GET' | 'POST';
  path: string;
  params?: Record<string, unknown>;
  body?: unknown;
  config?: Record<string, unknown>;
}

export function refusal(status: number, message: string): ApiError {
  return apiRefusal(status, { message });
}

export function fakeApi(answers: Answers) {
  const calls: Call[] = [];
  const reply = async (path: string, input: Record<string, unknown>) => {
    if (!(path in answers)) throw new Error(`unexpected call ${path}`);
    const answer = answers[path];
    const data: unknown = typeof answer === 'function' ? await (answer as (p: Record<string, unknown>) => unknown)(input) : answer;
    return { data } as ApiResponse;
  };
  jest.spyOn(api, 'get').mockImplementation(async (path: string, config?: RequestConfig) => {
    const params = config?.params as Record<string, unknown> | undefined;
    calls.push({ method: 'GET', path, params, config: config as Record<string, unknown> });
    if (path === 'File/Download')
      return { data: new Blob(['PK']), headers: { 'content-disposition': 'attachment; filename="export.xlsx"' } } as unknown as ApiResponse;
    return reply(path, params ?? {});
  });
  jest.spyOn(api, 'post').mockImplementation(async (path: string, body?: unknown, config?: unknown) => {
    calls.push({ method: 'POST', path, body, config: config as Record<string, unknown> });
    return reply(path, (body ?? {}) as Record<string, unknown>);
  });
  return { calls, to: (path: string) => calls.filter((c) => c.path === path) };
}

export function signIn(id = 7) {
  const encode = (part: object) => Buffer.from(JSON.stringify(part)).toString('base64url');
  setToken(`${encode({ alg: 'HS256', typ: 'JWT' })}.${encode({ sub: String(id), exp: Math.floor(Date.now() / 1000) + 3600 })}.signature`);
  setUser({ id, firstname: 'Eva', lastname: 'Engineer', role: 'CellwiseHQ', operator: { id: 1, name: 'NOS' }, projects: ['Operations'], avatar: null });
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

/** The text of each body row of the table captioned `caption`. */
export function rowsOf(caption: string): string[][] {
  const title = Array.from(document.querySelectorAll('.ant-table-title')).find((t) => (t.querySelector('strong') ?? t).textContent?.trim() === caption); // the caption, not the table's tools beside it
  if (!title) throw new Error(`no table ${caption}`);
  const table = title.closest('.ant-table-wrapper') as HTMLElement;
  return Array.from(table.querySelectorAll('tr.ant-table-row')).map((r) => Array.from(r.querySelectorAll('td')).map((td) => td.textContent ?? ''));
}

export function buttonNamed(name: RegExp | string): HTMLButtonElement {
  const found = Array.from(document.querySelectorAll('button')).find((b) =>
    typeof name === 'string' ? b.textContent?.trim() === name : name.test(b.textContent ?? ''),
  );
  if (!found) throw new Error(`no button ${String(name)}`);
  return found;
}

/** Opens the site select and picks the option whose text is `text`. */
export async function pickSite(text: string) {
  const select = document.querySelector('.ant-select')!;
  fireEvent.mouseDown(select.querySelector('input') ?? select);
  const option = await waitFor(() => {
    const found = Array.from(document.querySelectorAll<HTMLElement>('.ant-select-item-option')).find((o) => o.textContent === text);
    if (!found) throw new Error(`no option ${text} yet`);
    return found;
  });
  fireEvent.click(option);
}
