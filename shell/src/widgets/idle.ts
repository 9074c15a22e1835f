/** After 25 minutes without input a warning counts down 5 minutes, then the session ends. */
export const IDLE_WARN_AFTER_MS = 25 * 60 * 1000;
export const IDLE_COUNTDOWN_MS = 5 * 60 * 1000;

export type IdlePhase = { phase: 'active' } | { phase: 'warning'; remainingMs: number } | { phase: 'expired' };

export function idlePhase(lastInputAt: number, now: number, warnAfterMs = IDLE_WARN_AFTER_MS, countdownMs = IDLE_COUNTDOWN_MS): IdlePhase {
  const idle = now - lastInputAt;
  if (idle < warnAfterMs) return { phase: 'active' };
  const remainingMs = warnAfterMs + countdownMs - idle;
  return remainingMs > 0 ? { phase: 'warning', remainingMs } : { phase: 'expired' };
}
