import { IDLE_COUNTDOWN_MS, IDLE_WARN_AFTER_MS, idlePhase } from './idle';

describe('idle warning', () => {
  const t0 = 1_000_000;
  test('active for 25 minutes, then a 5-minute countdown, then expired', () => {
    expect(idlePhase(t0, t0 + IDLE_WARN_AFTER_MS - 1)).toEqual({ phase: 'active' });
    expect(idlePhase(t0, t0 + IDLE_WARN_AFTER_MS)).toEqual({ phase: 'warning', remainingMs: IDLE_COUNTDOWN_MS });
    expect(idlePhase(t0, t0 + IDLE_WARN_AFTER_MS + 60_000)).toEqual({ phase: 'warning', remainingMs: IDLE_COUNTDOWN_MS - 60_000 });
    expect(idlePhase(t0, t0 + IDLE_WARN_AFTER_MS + IDLE_COUNTDOWN_MS)).toEqual({ phase: 'expired' });
  });
});
