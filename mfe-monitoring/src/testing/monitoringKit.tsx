import { render, waitFor } from '@testing-library/react';
import { useEffect, type ComponentType } from 'react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom';
import { ConsoleProviders } from 'shared-ui';

// Test-only helpers of this remote's page tests: what every remote's tests share (the API, the session, the table and
// button finders), and the page rendered at a URL with the router's location readable.
export { buttonNamed, catchDownloads, fakeApi, refusal, rowsOf, signIn, tableCaptioned, type Answer, type Answers, type Call } from 'shared-ui/testing';

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
  await waitFor(() => expect(document.querySelector('.ant-spin-spinning')).toBeNull());
}

/** The open dialog (modal), once it is there. */
export async function openDialog(): Promise<HTMLElement> {
  return waitFor(() => {
    const dialog = document.querySelector<HTMLElement>('.ant-modal-wrap:not([style*="display: none"]) .ant-modal');
    if (!dialog) throw new Error('no dialog yet');
    return dialog;
  });
}

/** The tags of a table row, each as its text and its class (the class carries the colour). */
export const tagsIn = (row: Element) => Array.from(row.querySelectorAll('.ant-tag')).map((t) => [t.textContent, t.className]);
