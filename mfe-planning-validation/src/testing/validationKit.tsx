import { render, waitFor } from '@testing-library/react';
import type { ComponentType } from 'react';
import { MemoryRouter } from 'react-router-dom';
import { ConsoleProviders } from 'shared-ui';

/** Test-only helpers of this remote's page tests: what every remote's tests share, and the page rendered as the console mounts it. */
export {
  buttonNamed,
  catchDownloads,
  chooseOption as chooseSite,
  fakeApi,
  refusal,
  rowsOf,
  signIn,
  type Answer,
  type Answers,
  type Call,
} from 'shared-ui/testing';

/** Renders a page inside the console's providers and a router, then waits for its first answers. */
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
