import { act, fireEvent, waitFor } from '@testing-library/react';
import { api, type ApiError, apiRefusal, type ApiResponse, type RequestConfig, type Role, setToken, setUser } from 'shared-auth';

/**
 * What the remotes' page tests share: the API answered per path with every call recorded, a signed-in
 * user, downloads caught, and the antd widgets found and driven as a user does. Plain DOM queries
 * where role queries are slow on wide antd tables.
 * Test-only: reached through `shared-ui/testing`, never from the package's runtime entry.
 */

/** A path's answer: a value, or one computed from the call's query (GET) or body (POST); a throw or a rejection refuses. */
export type Answer = unknown | ((input: Record<string, unknown>) => unknown);
export type Answers = Record<string, Answer>;

export interface Call {
  method: 'GET' | 'POST';
  path: string;
  params?: Record<string, unknown>;
  body?: unknown;
  config?: Record<string, unknown>;
}

export interface FakeApiOptions {
  /** The file name `File/Download` gives the export whose id is `file` (the server's Content-Disposition). */
  downloadName?: (file: string) => string;
}

/** An answer the API refuses with: status and `{ message }`, as the API client hands it to the page. */
export function refusal(status: number, message: string): ApiError {
  return apiRefusal(status, { message });
}

/** Replaces the API client's GET and POST for the current test; a path without an answer is a test failure. */
export function fakeApi(answers: Answers, { downloadName = (file) => `${file}.xlsx` }: FakeApiOptions = {}) {
  const calls: Call[] = [];
  const reply = async (path: string, input: Record<string, unknown>) => {
    if (!(path in answers)) throw new Error(`unexpected call ${path}`);
    const answer = answers[path];
    const data: unknown = typeof answer === 'function' ? await (answer as (input: Record<string, unknown>) => unknown)(input) : answer;
    return { data } as ApiResponse;
  };
  jest.spyOn(api, 'get').mockImplementation(async (path: string, config?: RequestConfig) => {
    const params = config?.params as Record<string, unknown> | undefined;
    calls.push({ method: 'GET', path, params, config: config as Record<string, unknown> });
    if (path === 'File/Download') {
      const headers = { 'content-disposition': `attachment; filename="${downloadName(String(params?.file))}"` };
      return { data: new Blob(['PK']), headers } as unknown as ApiResponse;
    }
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
function liveToken(id: number): string {
  const encode = (part: object) => Buffer.from(JSON.stringify(part)).toString('base64url');
  return `${encode({ alg: 'HS256', typ: 'JWT' })}.${encode({ sub: String(id), exp: Math.floor(Date.now() / 1000) + 3600 })}.signature`;
}

/** Signs in an engineer of project Operations (the session store's token and user). */
export function signIn(role: Role = 'CellwiseHQ', id = 7, operator = { id: 1, name: 'NOS' }) {
  setToken(liveToken(id));
  setUser({ id, firstname: 'Eva', lastname: 'Engineer', role, operator, projects: ['Operations'], avatar: null });
}

/** The file names of the downloads the page saves (its anchors' `download`); jsdom has no object URLs. */
export function catchDownloads(): string[] {
  const saved: string[] = [];
  Object.assign(URL, { createObjectURL: jest.fn(() => 'blob:1'), revokeObjectURL: jest.fn() });
  jest.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    saved.push(this.download);
  });
  return saved;
}

/** The table whose caption is `caption` (the caption, not the table's tools beside it). */
export function tableCaptioned(caption: string): HTMLElement {
  const title = Array.from(document.querySelectorAll('.ant-table-title')).find((t) => (t.querySelector('strong') ?? t).textContent?.trim() === caption);
  if (!title) throw new Error(`no table ${caption}`);
  return title.closest('.ant-table-wrapper') as HTMLElement;
}

/** The text of each body row's cells of the table captioned `caption`. */
export function rowsOf(caption: string): string[][] {
  return Array.from(tableCaptioned(caption).querySelectorAll('tr.ant-table-row')).map((r) =>
    Array.from(r.querySelectorAll('td')).map((td) => td.textContent ?? ''),
  );
}

/** The button whose text is `name` (exactly, or matching), within `scope`. */
export function buttonNamed(name: RegExp | string, scope: ParentNode = document): HTMLButtonElement {
  const found = Array.from(scope.querySelectorAll('button')).find((b) =>
    typeof name === 'string' ? b.textContent?.trim() === name : name.test(b.textContent ?? ''),
  );
  if (!found) throw new Error(`no button ${String(name)}`);
  return found;
}

/** Opens an antd select (the page's first one unless given) and picks the option whose text is `text`. */
export async function chooseOption(text: string, select: Element = document.querySelector('.ant-select')!) {
  fireEvent.mouseDown(select.querySelector('input') ?? select);
  const option = await waitFor(() => {
    const found = Array.from(document.querySelectorAll<HTMLElement>('.ant-select-item-option')).find((o) => o.textContent === text);
    if (!found) throw new Error(`no option ${text} yet`);
    return found;
  });
  await act(async () => {
    fireEvent.click(option);
  });
}
