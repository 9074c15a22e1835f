import { theme } from 'antd';
import type { CSSProperties, ReactNode } from 'react';

export type HeadingLevel = 1 | 2 | 3 | 4 | 5;

/**
 * A heading that looks like antd's `Typography.Title` of the same level, drawn from the theme's tokens.
 * Typography brings its editor (Input, the form engine) and copy button with it, ≈ 30 KB gz, which a
 * page that only shows headings (the home page, a page's frame, a grid of cards) should not pay.
 */
export function Heading({
  level,
  children,
  style,
  drawnOnly = false,
}: {
  level: HeadingLevel;
  children: ReactNode;
  style?: CSSProperties;
  /** Looks the same but is no heading: a stand-in until the real one arrives (see PageContainerLoading). */
  drawnOnly?: boolean;
}) {
  const { token } = theme.useToken();
  const Element = drawnOnly ? 'div' : (`h${level}` as const);
  return (
    <Element
      style={{
        margin: 0,
        color: token.colorTextHeading,
        fontWeight: token.fontWeightStrong,
        fontSize: token[`fontSizeHeading${level}`],
        lineHeight: token[`lineHeightHeading${level}`],
        ...style,
      }}
    >
      {children}
    </Element>
  );
}
