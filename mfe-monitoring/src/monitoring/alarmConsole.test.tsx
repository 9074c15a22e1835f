import { act, render, screen, waitFor } from '@testing-library/react';
import type { AlarmCounts } from 'contracts';
import { ConsoleProviders } from 'shared-ui';
import { AlarmCounters } from './alarmConsole';
import { fakeApi } from '../testing/monitoringKit';

const COUNTS: AlarmCounts = { Critical: 89, Major: 12, Minor: 3, Warning: 1, acknowledged: 5, total: 105, newSinceLastLog: 2, clearedSinceLastLog: 0 };

function counters(version: number) {
  return (
    <ConsoleProviders>
      <AlarmCounters version={version} active={null} onFilter={() => undefined} />
    </ConsoleProviders>
  );
}

const counterOf = (label: string) => document.querySelector(`[data-counter="${label}"]`);

afterEach(() => jest.restoreAllMocks());

describe('AlarmCounters', () => {
  test('shows no count until the first answer: never a 0 that is not known', async () => {
    let answer: (counts: AlarmCounts) => void = () => undefined;
    fakeApi({ 'Monitoring/GetAlarmCounts': () => new Promise<AlarmCounts>((resolve) => (answer = resolve)) });
    render(counters(0));
    expect(screen.getByRole('group', { name: 'Alarm counters' })).toHaveAttribute('aria-busy', 'true');
    expect(counterOf('Critical')).toBeNull();
    await act(async () => answer(COUNTS));
    await waitFor(() => expect(counterOf('Critical')).toHaveTextContent('89 Critical'));
    expect(counterOf('Acknowledged')).toHaveTextContent('5 Acknowledged');
    expect(screen.getByText('Since the last upload: 2 new, 0 cleared')).toBeInTheDocument();
  });

  test('a new version (the hub) keeps the shown counts until the new ones come', async () => {
    let calls = 0;
    let answer: (counts: AlarmCounts) => void = () => undefined;
    fakeApi({
      'Monitoring/GetAlarmCounts': () => {
        calls += 1;
        return calls === 1 ? COUNTS : new Promise<AlarmCounts>((resolve) => (answer = resolve));
      },
    });
    const { rerender } = render(counters(0));
    await waitFor(() => expect(counterOf('Critical')).toHaveTextContent('89 Critical'));
    rerender(counters(1));
    await waitFor(() => expect(calls).toBe(2));
    expect(counterOf('Critical')).toHaveTextContent('89 Critical');
    await act(async () => answer({ ...COUNTS, Critical: 90 }));
    await waitFor(() => expect(counterOf('Critical')).toHaveTextContent('90 Critical'));
  });

  test('an unread answer says so instead of showing zeros', async () => {
    fakeApi({});
    render(counters(0));
    expect(await screen.findByText('The alarm counts could not be read.')).toBeInTheDocument();
    expect(counterOf('Critical')).toBeNull();
  });
});
