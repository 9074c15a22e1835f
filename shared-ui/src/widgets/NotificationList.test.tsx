import { fireEvent, render, screen } from '@testing-library/react';
import { NO_NOTIFICATIONS, NotificationList } from './NotificationList';
import { notificationLink, type NotificationItem } from './notificationLinks';

const now = new Date('2026-05-01T12:00:00Z');
const item = (id: number, readed: boolean, addedDate: string): NotificationItem => ({
  id,
  key: `k${id}`,
  title: `Title ${id}`,
  addedDate,
  icon: 'info',
  variant: 'info',
  readed,
  operator: null,
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

  test('a read notification that links to a page stays clickable; one that only informs does not', () => {
    const linked = { ...item(3, true, '2026-05-01T10:00:00Z'), key: 'monitoring-parse-12', title: 'Parsed' };
    render(<NotificationList items={[linked, item(4, true, '2026-05-01T10:00:00Z')]} onOpen={jest.fn()} now={now} />);
    expect(screen.getByText('Parsed').closest('[data-notification-id]')).toHaveStyle({ cursor: 'pointer' });
    expect(screen.getByText('Title 4').closest('[data-notification-id]')).toHaveStyle({ cursor: 'default' });
  });

  test('a notification that opens is a button, so Tab, Enter and Space reach it; opening it reports it once', () => {
    const onOpen = jest.fn();
    const linked = { ...item(3, true, '2026-05-01T10:00:00Z'), key: 'monitoring-parse-12', title: 'Parsed' };
    render(<NotificationList items={[item(1, false, '2026-05-01T11:00:00Z'), linked, item(4, true, '2026-05-01T10:00:00Z')]} onOpen={onOpen} now={now} />);
    expect(screen.getAllByRole('button').map((b) => b.textContent)).toEqual(['Title 11h', 'Parsed2h']);
    expect(screen.getAllByRole('listitem')).toHaveLength(3);
    fireEvent.click(screen.getByRole('button', { name: /Parsed/ }));
    expect(onOpen).toHaveBeenCalledTimes(1);
    expect(onOpen).toHaveBeenCalledWith(expect.objectContaining({ id: 3 }));
  });
});

describe('notificationLink', () => {
  test('a parse notification opens its report on Upload Logs', () => {
    expect(notificationLink('monitoring-parse-12')).toBe('/monitoring/uploadLogs?report=12');
    expect(notificationLink('monitoring-parse-')).toBeNull();
  });

  test("a run's notification opens that run's result on its page", () => {
    expect(notificationLink('validation-cpich-run-42')).toBe('/validation/cpichvalidation?run=42');
    expect(notificationLink('validation-neighbours-run-7')).toBe('/validation/nbrRelationsValidation?run=7');
    expect(notificationLink('validation-ranshare-run-8')).toBe('/validation/ranshareNbrRelationsValidation?run=8');
    expect(notificationLink('validation-health-checks-run-9')).toBe('/validation/healthChecks?run=9');
    expect(notificationLink('optimization-neighbours-run-10')).toBe('/optimization/nbrRelationsOptimization?run=10');
    expect(notificationLink('planning-parameters-run-11')).toBe('/planning/parameterplanning?run=11');
    // Only a number is a run, and only a run page's prefix names one.
    expect(notificationLink('validation-cpich-run-x')).toBeNull();
    expect(notificationLink('validation-cpich-run-')).toBeNull();
    expect(notificationLink('tracking-sync-run-3')).toBeNull();
  });

  test('keys stored before runs named theirs still open the run page, where the run heads the history', () => {
    expect(notificationLink('validation-cpich')).toBe('/validation/cpichvalidation');
    expect(notificationLink('validation-health-checks')).toBe('/validation/healthChecks');
    expect(notificationLink('optimization-neighbours')).toBe('/optimization/nbrRelationsOptimization');
    expect(notificationLink('planning-parameters-LX0001')).toBe('/planning/parameterplanning');
    expect(notificationLink('planning-parameters')).toBe('/planning/parameterplanning');
  });

  test("an import's notification opens the page of what it imported; others open nothing", () => {
    expect(notificationLink('tracking-import-commissioningPlan')).toBe('/tracking/commissioningplan');
    expect(notificationLink('tracking-import-tracker')).toBe('/tracking/tracker');
    expect(notificationLink('tracking-import-workOrderStatus')).toBe('/tracking/workorderstatus');
    expect(notificationLink('tracking-sync')).toBe('/tracking/tracker');
    expect(notificationLink('monitoring-performance-import')).toBe('/monitoring/overallSiteSummary');
    // The network dump is imported from the command line or the API: no page shows it.
    expect(notificationLink('network-import-finished')).toBeNull();
    expect(notificationLink('password-changed')).toBeNull();
    expect(notificationLink('toString')).toBeNull();
  });
});
