import { fireEvent, render, screen } from '@testing-library/react';
import { Portrait } from './Portrait';

describe('Portrait', () => {
  test('shows the initials without a picture, the picture with its text alternative, and the initials again when it fails to load', () => {
    const { container, rerender } = render(<Portrait initials="NO" />);
    expect(container.textContent).toBe('NO');
    expect(container.querySelector('img')).toBeNull();

    rerender(<Portrait src="blob:nos" initials="NO" alt="NOS picture" size={128} />);
    const picture = screen.getByRole('img', { name: 'NOS picture' });
    expect(picture).toHaveAttribute('src', 'blob:nos');
    expect(container.textContent).toBe('');

    fireEvent.error(picture);
    expect(screen.queryByRole('img')).toBeNull();
    expect(container.textContent).toBe('NO');

    // Another picture is tried again.
    rerender(<Portrait src="blob:nos-2" initials="NO" alt="NOS picture" />);
    expect(screen.getByRole('img', { name: 'NOS picture' })).toHaveAttribute('src', 'blob:nos-2');
  });
});
