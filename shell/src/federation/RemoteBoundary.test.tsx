import { lazy } from 'react';
import { ConsoleProviders } from 'shared-ui';
import { mount, textOf, waitFor, type Mounted } from '../testing/dom';
import { RemoteBoundary } from './RemoteBoundary';

/** A page whose code never arrives: what the boundary shows meanwhile stays on screen. */
const NeverLoaded = lazy(() => new Promise<{ default: () => null }>(() => undefined));

describe('a remote page while its code loads', () => {
  let mounted: Mounted | null = null;
  afterEach(() => {
    mounted?.unmount();
    mounted = null;
  });

  test("shows the page's frame with the title its remote's navigation gives", async () => {
    mounted = await mount(
      <ConsoleProviders>
        <RemoteBoundary remote="mfe_tracking" status="ready" title="Commissioning Plan" onRetry={() => undefined}>
          <NeverLoaded />
        </RemoteBoundary>
      </ConsoleProviders>,
    );
    await waitFor(() => {
      if (!textOf('Commissioning Plan')) throw new Error('the title is not drawn');
    });
    expect(document.querySelector('[aria-label="Loading"]')).not.toBeNull();
    // The page brings its heading: tests and screen readers that wait for it are not answered early.
    expect(document.querySelector('h1, h2, h3, h4, h5, [role="heading"]')).toBeNull();
  });

  test('shows the spinner alone when no title is known (its navigation has not arrived)', async () => {
    mounted = await mount(
      <ConsoleProviders>
        <RemoteBoundary remote="mfe_tracking" status="loading" onRetry={() => undefined} />
      </ConsoleProviders>,
    );
    expect(document.querySelector('[data-remote-status="loading"] [aria-label="Loading"]')).not.toBeNull();
    expect(document.querySelector('[data-remote-status="loading"]')?.textContent).toBe('');
  });
});
