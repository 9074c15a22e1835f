import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import { isTokenLive, logout, useSession } from 'shared-auth';
import { IDLE_COUNTDOWN_MS, IDLE_WARN_AFTER_MS, idlePhase, type IdlePhase } from './idle';

const IdleDialog = lazy(() => import('./IdleDialog'));

/** Only what the user does counts as activity; background calls (notifications, polling) never do. */
const INPUT_EVENTS = ['mousedown', 'keydown', 'touchstart', 'wheel', 'mousemove'] as const;

function minutesSeconds(ms: number): string {
  const total = Math.ceil(ms / 1000);
  return `${Math.floor(total / 60)}:${String(total % 60).padStart(2, '0')}`;
}

export function IdleWarning({ warnAfterMs = IDLE_WARN_AFTER_MS, countdownMs = IDLE_COUNTDOWN_MS }: { warnAfterMs?: number; countdownMs?: number }) {
  const signedIn = useSession((s) => isTokenLive(s.token));
  const lastInput = useRef(0);
  const [phase, setPhase] = useState<IdlePhase>({ phase: 'active' });

  useEffect(() => {
    if (!signedIn) return;
    lastInput.current = Date.now();
    const onInput = () => {
      // While the warning shows, only its button resets the timer: a stray mouse move must not hide it.
      if (idlePhase(lastInput.current, Date.now(), warnAfterMs, countdownMs).phase === 'active') lastInput.current = Date.now();
    };
    INPUT_EVENTS.forEach((e) => window.addEventListener(e, onInput, { passive: true }));
    const timer = setInterval(() => {
      const next = idlePhase(lastInput.current, Date.now(), warnAfterMs, countdownMs);
      // logout() leaves for the login page by a full load.
      if (next.phase === 'expired') logout();
      setPhase(next);
    }, 1000);
    return () => {
      INPUT_EVENTS.forEach((e) => window.removeEventListener(e, onInput));
      clearInterval(timer);
    };
  }, [signedIn, warnAfterMs, countdownMs]);

  if (!signedIn || phase.phase !== 'warning') return null;
  // The dialog (antd Modal) loads the first time it is needed: most sessions never see it.
  return (
    <Suspense fallback={null}>
      <IdleDialog
        remaining={minutesSeconds(phase.remainingMs)}
        onStay={() => {
          lastInput.current = Date.now();
          setPhase({ phase: 'active' });
        }}
      />
    </Suspense>
  );
}
