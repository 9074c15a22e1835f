import { theme } from 'antd';
import { useEffect, useRef } from 'react';
import { formatDate } from '../format';
import { Callout } from './Callout';

export interface InfoBannerProps {
  /** What the date stamps, e.g. 'Last import'. */
  label: string;
  date: string | null | undefined;
  /** Shown when there is no date yet (specification §8 fallback banners). */
  fallback: string;
  /** While the date is on its way, neither the date nor the fallback is known. */
  loading?: boolean;
}

export function InfoBanner({ label, date, fallback, loading }: InfoBannerProps) {
  const formatted = formatDate(date);
  const title = loading ? <DatePlaceholder label={label} /> : formatted ? `${label}: ${formatted}` : fallback;
  return <Callout type="info" title={title} role="status" aria-busy={loading ? true : undefined} />;
}

/**
 * A pulsing bar where the date will be. Drawn here rather than with antd's Skeleton, which would put
 * its component and styles (3.2 KB gz) on every page with a banner for the moment before the date arrives.
 */
function DatePlaceholder({ label }: { label: string }) {
  const { token } = theme.useToken();
  const bar = useRef<HTMLSpanElement>(null);
  useEffect(() => {
    const element = bar.current;
    // No motion for a user who asked for less (ConsoleProviders turns antd's off the same way).
    if (!element || typeof element.animate !== 'function' || !token.motion) return undefined;
    const pulse = element.animate([{ opacity: 1 }, { opacity: 0.45 }, { opacity: 1 }], { duration: 1400, iterations: Infinity });
    return () => pulse.cancel();
  }, [token.motion]);
  return (
    <span
      ref={bar}
      role="img"
      aria-label={`${label}: loading`}
      style={{
        display: 'inline-block',
        width: 280,
        maxWidth: '100%',
        // One line of the banner's text, so the banner keeps its height when the date replaces it.
        height: Math.round(token.fontSize * token.lineHeight),
        verticalAlign: 'middle',
        borderRadius: token.borderRadiusSM,
        background: token.colorFillSecondary,
      }}
    />
  );
}
