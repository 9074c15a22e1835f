import { render, screen } from '@testing-library/react';
import { InfoBanner } from './InfoBanner';

describe('InfoBanner', () => {
  test('while the date is on its way: a busy status with a labelled placeholder, neither date nor fallback', () => {
    render(<InfoBanner label="Last import" date={null} fallback="Import date unavailable!" loading />);
    const status = screen.getByRole('status');
    expect(status).toHaveAttribute('aria-busy', 'true');
    expect(screen.getByRole('img', { name: 'Last import: loading' })).toBeInTheDocument();
    expect(status).not.toHaveTextContent('Import date unavailable!');
    expect(document.querySelector('.ant-skeleton')).toBeNull();
  });

  test('the date, in the console’s format, once known; the fallback when there is none', () => {
    const { rerender } = render(<InfoBanner label="Last import" date="2026-03-04T05:06:07" fallback="Import date unavailable!" />);
    expect(screen.getByRole('status')).toHaveTextContent('Last import: 04-03-2026 05:06:07');
    expect(screen.getByRole('status')).not.toHaveAttribute('aria-busy');
    expect(screen.queryByRole('img', { name: 'Last import: loading' })).toBeNull();
    rerender(<InfoBanner label="Last import" date={null} fallback="Import date unavailable!" />);
    expect(screen.getByRole('status')).toHaveTextContent('Import date unavailable!');
  });
});
