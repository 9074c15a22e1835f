import { theme } from 'antd';
import { Children, type CSSProperties, type ReactNode } from 'react';

export interface PanelProps {
  /** Names the panel for assistive technology (and tests): it is a region of the page. */
  label: string;
  /** Shown in the panel's head, as a Card's title. */
  title?: ReactNode;
  children?: ReactNode;
  /** Buttons in the panel's foot, side by side in equal columns, as a Card's actions. */
  actions?: ReactNode[];
  style?: CSSProperties;
}

/**
 * A box that looks like antd's Card (head, body, actions), drawn from the theme's tokens. antd's Card
 * imports Tabs for its tabbed variant (≈ 18 KB gz with Card itself), which a grid of plain cards never
 * uses; pages that need Card's other features keep using Card.
 */
export function Panel({ label, title, children, actions, style }: PanelProps) {
  const { token } = theme.useToken();
  const line = `${token.lineWidth}px ${token.lineType} ${token.colorBorderSecondary}`;
  return (
    <section
      aria-label={label}
      className="cw-panel"
      style={{
        display: 'flex',
        flexDirection: 'column',
        background: token.colorBgContainer,
        border: line,
        borderRadius: token.borderRadiusLG,
        color: token.colorText,
        ...style,
      }}
    >
      {title !== undefined ? (
        <div
          style={{
            minHeight: 56,
            display: 'flex',
            alignItems: 'center',
            padding: `0 ${token.paddingLG}px`,
            borderBottom: line,
            fontWeight: token.fontWeightStrong,
            fontSize: token.fontSizeLG,
            color: token.colorTextHeading,
          }}
        >
          {title}
        </div>
      ) : null}
      <div style={{ padding: token.paddingLG, flex: 1 }}>{children}</div>
      {actions && actions.length > 0 ? (
        <ul
          style={{
            display: 'flex',
            margin: 0,
            padding: 0,
            listStyle: 'none',
            borderTop: line,
            borderRadius: `0 0 ${token.borderRadiusLG}px ${token.borderRadiusLG}px`,
          }}
        >
          {Children.map(actions, (action, index) => (
            <li style={{ flex: 1, margin: `${token.marginSM}px 0`, textAlign: 'center', borderInlineStart: index > 0 ? line : undefined }}>{action}</li>
          ))}
        </ul>
      ) : null}
    </section>
  );
}
