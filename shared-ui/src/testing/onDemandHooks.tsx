import { render } from '@testing-library/react';
import type { ReactNode } from 'react';

/** A lazy chunk and antd's first render can take seconds when the whole suite shares two cores. */
export const LOADED = { timeout: 15_000 };

/**
 * A page as antd's App gives it one of its hooks: the API to call, the holder drawn beside the page's own
 * content. `api` is the latest the hook returned; `holderDrawn` says whether the holder is drawn yet.
 */
export function renderHookPage<Api>(useHook: () => readonly [Api, ReactNode]) {
  const page: { api: Api | null; holderDrawn: boolean } = { api: null, holderDrawn: false };
  function Page() {
    const [api, holder] = useHook();
    page.api = api;
    page.holderDrawn = holder !== null;
    return (
      <>
        <p>Page</p>
        {holder}
      </>
    );
  }
  render(<Page />);
  return page;
}
