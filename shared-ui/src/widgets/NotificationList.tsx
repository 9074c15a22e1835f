import { CheckCircleOutlined, CloseCircleOutlined, ExclamationCircleOutlined, InfoCircleOutlined } from '@ant-design/icons';
import { Empty, theme } from 'antd';
import type { CSSProperties } from 'react';
import { formatRelative } from '../format';
import { notificationLink, type NotificationItem } from './notificationLinks';
import { Note } from './Note';

/** Empty state of the notification popover (specification §2). */
export const NO_NOTIFICATIONS = "There's nothing here...";

const ICONS = {
  info: <InfoCircleOutlined style={{ color: '#1677ff' }} />,
  warning: <ExclamationCircleOutlined style={{ color: '#faad14' }} />,
  success: <CheckCircleOutlined style={{ color: '#52c41a' }} />,
  error: <CloseCircleOutlined style={{ color: '#ff4d4f' }} />,
};

const ROW: CSSProperties = { display: 'flex', alignItems: 'flex-start', gap: 12, width: '100%', padding: 8 };
// A row that opens is a native button (Tab, Enter and Space reach it), drawn as the row it is.
const BUTTON_ROW: CSSProperties = { ...ROW, border: 0, background: 'none', font: 'inherit', color: 'inherit', textAlign: 'left', cursor: 'pointer' };

/**
 * Notifications as the popover and the notifications page show them; unread ones are bold and open
 * (mark read) on a click or from the keyboard, and so does every one that links to a page
 * (`notificationLink`). A plain list, not antd's List: that is deprecated in antd 6.6, and its rows
 * were not reachable from the keyboard. One raised in an operator other than `currentOperatorId`
 * names it: opening it switches there.
 */
export function NotificationList({
  items,
  onOpen,
  now,
  currentOperatorId,
}: {
  items: NotificationItem[];
  onOpen: (item: NotificationItem) => void;
  now?: Date;
  currentOperatorId?: number | null;
}) {
  const { token } = theme.useToken();
  if (items.length === 0) return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={NO_NOTIFICATIONS} />;
  return (
    <ul style={{ listStyle: 'none', margin: 0, padding: 0 }}>
      {items.map((item, index) => {
        const opens = !item.readed || notificationLink(item.key) !== null;
        const content = (
          <>
            <span aria-hidden style={{ flex: 'none', lineHeight: token.lineHeight, fontSize: token.fontSize }}>
              {ICONS[item.icon] ?? ICONS.info}
            </span>
            <span style={{ flex: 1, minWidth: 0, fontWeight: item.readed ? 400 : 600, overflowWrap: 'anywhere' }}>
              {item.title}
              {item.operator && currentOperatorId !== undefined && item.operator.id !== currentOperatorId ? (
                <Note style={{ display: 'block', fontWeight: 400 }}>{item.operator.name}</Note>
              ) : null}
            </span>
            <Note style={{ flex: 'none', whiteSpace: 'nowrap' }}>{formatRelative(item.addedDate, now)}</Note>
          </>
        );
        return (
          <li
            key={item.id}
            data-notification-id={item.id}
            data-readed={item.readed}
            onClick={() => onOpen(item)}
            style={{ cursor: opens ? 'pointer' : 'default', borderTop: index === 0 ? undefined : `1px solid ${token.colorSplit}` }}
          >
            {opens ? (
              <button type="button" style={BUTTON_ROW}>
                {content}
              </button>
            ) : (
              <div style={ROW}>{content}</div>
            )}
          </li>
        );
      })}
    </ul>
  );
}
