import { CheckCircleOutlined, CloseCircleOutlined, ExclamationCircleOutlined, InfoCircleOutlined } from '@ant-design/icons';
import { Empty, List, Typography } from 'antd';
import type { UserNotification } from 'api/contracts';
import { formatRelative } from '../format';

/** A notification as the API stores and pushes it (contract in api/src/contracts/notifications.ts). */
export type NotificationItem = UserNotification;

/**
 * The page a notification opens, from its key: the API names what a job produced in the key (e.g.
 * `monitoring-parse-12` for parse report 12). Null for notifications that only inform.
 */
export function notificationLink(key: string): string | null {
  const parse = /^monitoring-parse-(\d+)$/.exec(key);
  if (parse) return `/monitoring/uploadLogs?report=${parse[1]}`;
  // A run's notification opens its page, where the run is the newest row of the history.
  if (key.startsWith('planning-parameters-')) return '/planning/parameterplanning';
  return RUN_PAGES.get(key) ?? null;
}

const RUN_PAGES: ReadonlyMap<string, string> = new Map([
  ['validation-cpich', '/validation/cpichvalidation'],
  ['validation-neighbours', '/validation/nbrRelationsValidation'],
  ['validation-ranshare', '/validation/ranshareNbrRelationsValidation'],
  ['validation-health-checks', '/validation/healthChecks'],
  ['optimization-neighbours', '/optimization/nbrRelationsOptimization'],
]);

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
          extra={<Typography.Text type="secondary">{formatRelative(item.addedDate, now)}</Typography.Text>}
        >
          <List.Item.Meta avatar={ICONS[item.icon] ?? ICONS.info} title={<span style={{ fontWeight: item.readed ? 400 : 600 }}>{item.title}</span>} />
        </List.Item>
      )}
    />
  );
}
