import { theme } from 'antd';
import type { CSSProperties, ReactNode } from 'react';

export type NoteTone = 'secondary' | 'danger';

/**
 * Secondary (or error) text that looks like antd's `Typography.Text` / `Typography.Paragraph` of that
 * type, drawn from the theme's tokens, as Heading is for titles. A page that only shows hints and
 * captions then does not load Typography (≈ 6 KB gz: ellipsis measuring, copy button, tooltip), which
 * stays for text that truncates or copies.
 */
export function Note({
  tone = 'secondary',
  paragraph = false,
  style,
  children,
}: {
  tone?: NoteTone;
  /** A paragraph (block, 1em below it, like Typography.Paragraph) rather than inline text. */
  paragraph?: boolean;
  style?: CSSProperties;
  children: ReactNode;
}) {
  const { token } = theme.useToken();
  const Element = paragraph ? 'p' : 'span';
  return (
    <Element
      style={{
        color: tone === 'danger' ? token.colorErrorText : token.colorTextDescription,
        wordBreak: 'break-word',
        lineHeight: token.lineHeight,
        ...(paragraph ? { marginTop: 0, marginBottom: '1em' } : {}),
        ...style,
      }}
    >
      {children}
    </Element>
  );
}
