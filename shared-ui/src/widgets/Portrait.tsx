import { useState } from 'react';
import { BRAND_COLOR } from '../theme';

export interface PortraitProps {
  /** The picture; without one, or when it fails to load, the initials are shown. */
  src?: string | null;
  /** Shown on the brand colour when there is no picture. */
  initials: string;
  /** The picture's text alternative; empty when a name is printed beside it. */
  alt?: string;
  size?: number;
}

/**
 * A round picture of a person or an operator, or their initials on the brand colour: antd's Avatar
 * look without its chunk (≈ 3.4 KB gz), which the side navigation would load on every page.
 */
export function Portrait({ src, initials, alt = '', size = 64 }: PortraitProps) {
  // A failure belongs to the picture that failed: a new picture is tried again.
  const [failedSrc, setFailedSrc] = useState<string | null>(null);
  const shown = src && src !== failedSrc ? src : null;
  return (
    <span
      className="cw-portrait"
      style={{
        width: size,
        height: size,
        flex: 'none',
        borderRadius: '50%',
        overflow: 'hidden',
        display: 'inline-flex',
        alignItems: 'center',
        justifyContent: 'center',
        background: BRAND_COLOR,
        color: '#fff',
        fontSize: Math.round(size * 0.32),
      }}
    >
      {shown ? <img src={shown} alt={alt} width={size} height={size} style={{ objectFit: 'cover' }} onError={() => setFailedSrc(shown)} /> : initials}
    </span>
  );
}
