import { act, useEffect, type ReactNode } from 'react';
import { createRoot } from 'react-dom/client';
import { pageSignal } from 'shared-auth';
import { PageScope } from './PageScope';

/** A page that sends a read when it mounts, as pages do, and keeps the signal its read carries. */
function Page({ seen }: { seen: AbortSignal[] }) {
  useEffect(() => {
    seen.push(pageSignal());
  }, [seen]);
  return null;
}

/** Draws into a fresh container; the shell's tests drive React directly. */
function render(element: ReactNode) {
  const root = createRoot(document.createElement('div'));
  act(() => root.render(element));
  return { rerender: (next: ReactNode) => act(() => root.render(next)), unmount: () => act(() => root.unmount()) };
}

test("a page's reads carry its own scope, which leaving it cancels; the next page's are live", () => {
  const seen: AbortSignal[] = [];
  const { rerender, unmount } = render(
    <PageScope key="/tracking/tracker">
      <Page seen={seen} />
    </PageScope>,
  );
  expect(seen).toHaveLength(1);
  expect(seen[0]!.aborted).toBe(false);
  rerender(
    <PageScope key="/tracking/commissioningplan">
      <Page seen={seen} />
    </PageScope>,
  );
  expect(seen).toHaveLength(2);
  expect(seen[0]!.aborted).toBe(true);
  expect(seen[1]!.aborted).toBe(false);
  unmount();
  expect(seen[1]!.aborted).toBe(true);
  // Between pages a read belongs to none and is not cancelled by the last page's end.
  expect(pageSignal().aborted).toBe(false);
});

test('a page drawn again under the same scope (its tabs, a new search) keeps its reads', () => {
  const seen: AbortSignal[] = [];
  const { rerender, unmount } = render(
    <PageScope key="/management/settings/:tab?">
      <Page seen={seen} />
    </PageScope>,
  );
  rerender(
    <PageScope key="/management/settings/:tab?">
      <Page seen={seen} />
    </PageScope>,
  );
  expect(seen[0]!.aborted).toBe(false);
  unmount();
});
