import { render, screen } from '@testing-library/react';
import { ConsoleProviders } from './ConsoleProviders';
import { PageContainer, PageContainerLoading } from './PageContainer';

describe('a page and its frame while it loads', () => {
  test('the loading frame draws the title where the page draws it, in the same size, with a spinner, and no heading', () => {
    const { container } = render(
      <ConsoleProviders>
        <PageContainerLoading title="Tracker" />
      </ConsoleProviders>,
    );
    // The page brings its heading: tests and screen readers that wait for it are not answered early.
    expect(screen.queryByRole('heading')).toBeNull();
    const loading = container.querySelector('[aria-busy="true"]')!;
    expect(loading).not.toBeNull();
    const drawn = screen.getByText('Tracker');
    expect(drawn.tagName).toBe('DIV');
    expect(screen.getByLabelText('Loading')).toBeInTheDocument();

    render(
      <ConsoleProviders>
        <PageContainer title="Tracker" />
      </ConsoleProviders>,
    );
    const heading = screen.getByRole('heading', { level: 3, name: 'Tracker' });
    // Same look and the same title row, so nothing moves when the page replaces its stand-in.
    expect(drawn.getAttribute('style')).toBe(heading.getAttribute('style'));
    expect((drawn.parentElement as HTMLElement).style.marginBottom).toBe((heading.parentElement as HTMLElement).style.marginBottom);
  });
});
