import { render, waitFor } from '@testing-library/react';
import { useEffect, type ComponentType } from 'react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom';
import { api, type ApiError, apiRefusal, type ApiResponse, type RequestConfig, type Role, setToken, setUser } from 'shared-auth';
import { ConsoleProviders } from 'shared-ui';

export type Answer = unknown | ((params: Record<string, unknown>) => unknown);
export type Answers = Record<string, Answer>;

export interface Call {
  method: 'GET' | 'POST';
  path: string;
  params?: Record<string, unknown>;
  body?: unknown;
  config?: Record<string, unknown>;
}

/** An answer the API refuses with: status and `{ message }`, as the API client hands it to the page. */
export function refusal(status: number, message: string): ApiError {
  return apiRefusal(status, { message });
}

/**
 * The API as the pages see it: each path answers its value (or the value computed from the query
 * or body; a thrown error or a rejected promise is a refusal). Every call is recorded.
 */
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
      return { data: new Blob(['PK']), headers: { 'content-disposition': 'attachment; filename="export.zip"' } } as unknown as ApiResponse;
    return reply(path, params ?? {});
  });
  jest.spyOn(api, 'post').mockImplementation(async (path: string, body?: unknown, config?: unknown) => {
    calls.push({ method: 'POST', path, body, config: config as Record<string, unknown> });
    return reply(path, (body ?? {}) as Record<string, unknown>);
  });
  return {
    calls,
    /** The calls made to one path, in order. */
    to: (path: string) => calls.filter((c) => c.path === path),
  };
}

/** A token the session store accepts as live (its signature is the server's business). */
function liveToken(): string {
  const encode = (part: object) => Buffer.from(JSON.stringify(part)).toString('base64url');
  return `${encode({ alg: 'HS256', typ: 'JWT' })}.${encode({ sub: '7', exp: Math.floor(Date.now() / 1000) + 3600 })}.signature`;
}

export function signIn(role: Role = 'CellwiseHQ', id = 7) {
  setToken(liveToken());
  setUser({ id, firstname: 'Eva', lastname: 'Engineer', role, operator: { id: 1, name: 'NOS' }, projects: ['Operations'], avatar: null });
}

/** Where the router is now (path and query), so a test can see the URL follow the page. */
const seen = { location: '' };
function LocationProbe() {
  const location = useLocation();
  useEffect(() => {
    seen.location = `${location.pathname}${location.search}`;
  }, [location]);
  return null;
}
export const locationNow = () => seen.location;

/** Renders a page at `url` inside the console's providers and a router, then waits for its first answers. */
export async function renderPage(Page: ComponentType, url: string) {
  const path = url.split('?')[0]!;
  render(
    <ConsoleProviders>
      <MemoryRouter initialEntries={[url]}>
        <LocationProbe />
        <Routes>
          <Route path={path} element={<Page />} />
          <Route path="*" element={<LocationProbe />} />
        </Routes>
      </MemoryRouter>
    </ConsoleProviders>,
  );
  await waitFor(() => expect(document.querySelector('.ant-table-placeholder .ant-spin-spinning, .ant-spin-spinning')).toBeNull());
}

/** The text of each body row's cells of the table captioned `caption` (plain DOM: role queries are slow on wide antd tables). */
export function rowsOf(caption: string): string[][] {
  const table = tableCaptioned(caption);
  return Array.from(table.querySelectorAll('tr.ant-table-row')).map((r) => Array.from(r.querySelectorAll('td')).map((td) => td.textContent ?? ''));
}

export function tableCaptioned(caption: string): HTMLElement {
  const title = Array.from(document.querySelectorAll('.ant-table-title')).find((t) => (t.querySelector('strong') ?? t).textContent?.trim() === caption); // the caption, not the table's tools beside it
  if (!title) throw new Error(`no table ${caption}`);
  return title.closest('.ant-table-wrapper') as HTMLElement;
}

/** The button whose text is `name` (exactly, or matching), within `scope`. */
export function buttonNamed(name: RegExp | string, scope: ParentNode = document): HTMLButtonElement {
  const found = Array.from(scope.querySelectorAll('button')).find((b) =>
    typeof name === 'string' ? b.textContent?.trim() === name : name.test(b.textContent ?? ''),
  );
  if (!found) throw new Error(`no button ${String(name)}`);
  return found;
}

/** The open dialog (modal), once it is there. */
export async function openDialog(): Promise<HTMLElement> {
  return waitFor(() => {
    const dialog = document.querySelector<HTMLElement>('.ant-modal-wrap:not([style*="display: none"]) .ant-modal');
    if (!dialog) throw new Error('no dialog yet');
    return dialog;
  });
}
