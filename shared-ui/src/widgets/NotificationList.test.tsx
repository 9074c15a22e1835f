import { fireEvent, render, screen } from '@testing-library/react';
import { NO_NOTIFICATIONS, NotificationList, type NotificationItem } from './NotificationList';

const now = new Date('2026-05-01T12:00:00Z');
const item = (id: number, readed: boolean, addedDate: string): NotificationItem => ({
  id,
  key: `k${id}`,
  title: `Title ${id}`,
  addedDate,
  icon: 'info',
  variant: 'info',
  readed,
});

describe('NotificationList', () => {
  test('shows the empty state text when there is nothing', () => {
    render(<NotificationList items={[]} onOpen={jest.fn()} now={now} />);
    expect(screen.getByText(NO_NOTIFICATIONS)).toBeInTheDocument();
    expect(NO_NOTIFICATIONS).toBe("There's nothing here...");
  });

  test('shows titles with short relative times and reports the clicked item', () => {
    const onOpen = jest.fn();
    render(<NotificationList items={[item(1, false, '2026-05-01T11:00:00Z'), item(2, true, '2026-04-30T12:00:00Z')]} onOpen={onOpen} now={now} />);
    expect(screen.getByText('1h')).toBeInTheDocument();
    expect(screen.getByText('1d')).toBeInTheDocument();
    fireEvent.click(screen.getByText('Title 1'));
    expect(onOpen).toHaveBeenCalledWith(expect.objectContaining({ id: 1, readed: false }));
  });
});
