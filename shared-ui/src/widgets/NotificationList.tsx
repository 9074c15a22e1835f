import { CheckCircleOutlined, CloseCircleOutlined, ExclamationCircleOutlined, InfoCircleOutlined } from '@ant-design/icons';
import { Empty, List } from 'antd';
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

/**
 * Notifications as the popover and the notifications page show them; unread ones are bold and
 * clickable, and so is every one that links to a page (`notificationLink`).
 */
export function NotificationList({ items, onOpen, now }: { items: NotificationItem[]; onOpen: (item: NotificationItem) => void; now?: Date }) {
  if (items.length === 0) return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={NO_NOTIFICATIONS} />;
  return (
    <List
      size="small"
      dataSource={items}
      renderItem={(item) => (
        <List.Item
          data-notification-id={item.id}
          data-readed={item.readed}
          onClick={() => onOpen(item)}
          style={{ cursor: item.readed && !notificationLink(item.key) ? 'default' : 'pointer', paddingInline: 8 }}
          extra={<Note>{formatRelative(item.addedDate, now)}</Note>}
        >
          <List.Item.Meta avatar={ICONS[item.icon] ?? ICONS.info} title={<span style={{ fontWeight: item.readed ? 400 : 600 }}>{item.title}</span>} />
        </List.Item>
      )}
    />
  );
}
