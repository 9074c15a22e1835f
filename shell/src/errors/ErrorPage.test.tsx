import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { ConsoleProviders } from 'shared-ui';
import { button, click, mount, textOf } from '../testing/dom';
import { ErrorPage } from './ErrorPage';

async function renderAfter(previous: string, status: 401 | 404) {
  return mount(
    <ConsoleProviders>
      <MemoryRouter initialEntries={[previous, `/errors/error-${status}`]} initialIndex={1}>
        <Routes>
          <Route path="/errors/error-401" element={<ErrorPage status={401} />} />
          <Route path="/errors/error-404" element={<ErrorPage status={404} />} />
          <Route path="/home" element={<p>home page</p>} />
          <Route path="/tracking/tracker" element={<p>tracker page</p>} />
        </Routes>
      </MemoryRouter>
    </ConsoleProviders>,
  );
}

describe('error pages', () => {
  beforeEach(() => {
    // The tab has a page before this one.
    window.history.pushState({}, '', '/somewhere');
  });

  test.each([401, 404] as const)('%s: Go back returns to where the user was; Back home stays', async (status) => {
    const page = await renderAfter('/tracking/tracker', status);
    expect(button('Back home')).toBeInTheDocument();
    await click(button(/Go back/));
    expect(textOf('tracker page')).not.toBeNull();
    page.unmount();
  });
});
