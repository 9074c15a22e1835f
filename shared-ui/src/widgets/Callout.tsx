import { CheckCircleFilled, CloseCircleFilled, ExclamationCircleFilled, InfoCircleFilled } from '@ant-design/icons';
import { theme } from 'antd';
import type { AriaAttributes, ReactNode } from 'react';

export type CalloutType = 'info' | 'success' | 'warning' | 'error';

export interface CalloutProps extends Pick<AriaAttributes, 'aria-busy'> {
  type: CalloutType;
  /** The one line it says. */
  title: ReactNode;
  /** `alert` (the default, as antd's Alert) for what went wrong; `status` for what the page reports as it stands. */
  role?: 'alert' | 'status';
  'data-testid'?: string;
}

const ICONS = { info: InfoCircleFilled, success: CheckCircleFilled, warning: ExclamationCircleFilled, error: CloseCircleFilled } as const;

/**
 * A one-line message box that looks like antd's `Alert` with `showIcon` (colours, border, radius and
 * padding from the theme's tokens), as Panel is for Card. The banners of most pages and their run
 * refusals are such a line, and antd's Alert (close button, actions, description, motion: ≈ 3 KB gz)
 * stays for the pages that need more.
 */
export function Callout({ type, title, role = 'alert', 'aria-busy': busy, 'data-testid': testId }: CalloutProps) {
  const { token } = theme.useToken();
  const colours = {
    info: [token.colorInfoBg, token.colorInfoBorder, token.colorInfo],
    success: [token.colorSuccessBg, token.colorSuccessBorder, token.colorSuccess],
    warning: [token.colorWarningBg, token.colorWarningBorder, token.colorWarning],
    error: [token.colorErrorBg, token.colorErrorBorder, token.colorError],
  }[type];
  const Icon = ICONS[type];
  return (
    <div
      role={role}
      aria-busy={busy}
      data-testid={testId}
      className={`cw-callout cw-callout-${type}`}
      style={{
        display: 'flex',
        alignItems: 'center',
        padding: `${token.paddingContentVerticalSM}px 12px`,
        background: colours[0],
        border: `${token.lineWidth}px ${token.lineType} ${colours[1]}`,
        borderRadius: token.borderRadiusLG,
        color: token.colorTextHeading,
        fontSize: token.fontSize,
        lineHeight: token.lineHeight,
        wordWrap: 'break-word',
      }}
    >
      <Icon aria-hidden style={{ color: colours[2], marginInlineEnd: token.marginXS, lineHeight: 0 }} />
      <div style={{ flex: 1, minWidth: 0 }}>{title}</div>
    </div>
  );
}
