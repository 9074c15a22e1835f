import { BellOutlined } from '@ant-design/icons';
import { Badge, Button, Flex, Popover, Spin } from 'antd';
import { lazy, Suspense, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { useToasts, type NotificationItem } from 'shared-ui';
import { openNotificationLink } from '../session/operatorSwitch';
import { useNotifications } from './store';

const NotificationPanel = lazy(() => import('./NotificationPanel'));

/**
 * Top-bar bell: a badge with the unread count and the Notifications popover (350 × 240 px list).
 * Placed below the bell and shifted to stay on screen: right-aligned to the bell it ran off the left
 * edge of a phone; narrower than the screen when the screen is narrower than the list.
 */
export function NotificationBell() {
  const items = useNotifications((s) => s.items);
  const unread = useNotifications((s) => s.unread);
  const markAsRead = useNotifications((s) => s.markAsRead);
  const [open, setOpen] = useState(false);
  const navigate = useNavigate();
  const toasts = useToasts();
  const openItem = (item: NotificationItem) => {
    if (!item.readed) void markAsRead(item.id);
    // A notification of another operator switches to it before its record opens.
    void openNotificationLink(
      item,
      (link) => {
        setOpen(false);
        return navigate(link);
      },
      toasts,
    );
  };
  const content = (
    <Suspense
      fallback={
        <Flex justify="center" align="center" style={{ width: 'min(350px, calc(100vw - 32px))', height: 240 }}>
          <Spin aria-label="Loading" />
        </Flex>
      }
    >
      <NotificationPanel items={items} onOpen={openItem} onSeeAll={() => setOpen(false)} />
    </Suspense>
  );
  return (
    <Popover trigger="click" placement="bottom" open={open} onOpenChange={setOpen} title="Notifications" content={content}>
      <Badge count={unread} size="small" offset={[-4, 4]} data-testid="notification-badge">
        <Button type="text" shape="circle" icon={<BellOutlined style={{ fontSize: 18 }} />} aria-label={`Notifications (${unread} unread)`} />
      </Badge>
    </Popover>
  );
}
