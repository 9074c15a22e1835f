import { act, render, screen } from '@testing-library/react';
import { theme } from 'antd';
import { ConsoleProviders } from './ConsoleProviders';
import { InfoBanner } from './InfoBanner';

/** A system preference for reduced motion the test can change while the console is open. */
function motionPreference(reduce: boolean) {
  const listeners = new Set<() => void>();
  const query = {
    get matches() {
      return reduce;
    },
    addEventListener: (_: string, listener: () => void) => listeners.add(listener),
    removeEventListener: (_: string, listener: () => void) => listeners.delete(listener),
  };
  const original = window.matchMedia;
  window.matchMedia = ((text: string) => (text === '(prefers-reduced-motion: reduce)' ? query : original(text))) as typeof window.matchMedia;
  return {
    change(next: boolean) {
      reduce = next;
      act(() => listeners.forEach((listener) => listener()));
    },
    listening: () => listeners.size,
    restore: () => (window.matchMedia = original),
  };
}

/** Element.animate, recorded: jsdom has none, and the banner placeholder pulses with it. */
function recordAnimations() {
  const animate = jest.fn(() => ({ cancel: jest.fn() }));
  Element.prototype.animate = animate as unknown as typeof Element.prototype.animate;
  return animate;
}

function MotionToken() {
  const { token } = theme.useToken();
  return <span data-testid="motion">{String(token.motion)}</span>;
}

describe('ConsoleProviders and reduced motion', () => {
  let restore: () => void = () => undefined;
  const { animate } = Element.prototype;
  afterEach(() => {
    restore();
    Element.prototype.animate = animate;
  });

  // The dialogs themselves are watched in a browser (e2e/tests/management.spec.ts): jsdom runs no motion.
  test.each([
    { reduce: false, user: 'has not asked for less motion: antd’s motion is on, the banner placeholder pulses', pulses: 1 },
    { reduce: true, user: 'asks for less motion: antd’s motion token is off, the banner placeholder does not pulse', pulses: 0 },
  ])('a user who $user', ({ reduce, pulses }) => {
    restore = motionPreference(reduce).restore;
    const animations = recordAnimations();
    render(
      <ConsoleProviders>
        <MotionToken />
        <InfoBanner label="Last import" date={null} fallback="Import date unavailable!" loading />
      </ConsoleProviders>,
    );
    expect(screen.getByTestId('motion')).toHaveTextContent(String(!reduce));
    expect(animations).toHaveBeenCalledTimes(pulses);
  });

  test('the preference is followed while the console is open, and no longer watched once it closes', () => {
    const preference = motionPreference(false);
    restore = preference.restore;
    const { unmount } = render(
      <ConsoleProviders>
        <MotionToken />
      </ConsoleProviders>,
    );
    preference.change(true);
    expect(screen.getByTestId('motion')).toHaveTextContent('false');
    preference.change(false);
    expect(screen.getByTestId('motion')).toHaveTextContent('true');
    unmount();
    expect(preference.listening()).toBe(0);
  });
});
