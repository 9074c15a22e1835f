import { Flex } from 'antd';
import { Link } from 'react-router-dom';
import { useSession } from 'shared-auth';
import { NotificationList, type NotificationItem } from 'shared-ui';

/**
 * The bell's popover body: the list and its way to the full page. Its own module, loaded the first
 * time the bell opens, so /home does not carry it.
 */
export default function NotificationPanel({
  items,
  onOpen,
  onSeeAll,
}: {
  items: NotificationItem[];
  onOpen: (item: NotificationItem) => void;
  onSeeAll: () => void;
}) {
  const currentOperatorId = useSession((s) => s.user.operator?.id ?? null);
  return (
    <div style={{ width: 'min(350px, calc(100vw - 32px))' }}>
      <div style={{ height: 240, overflowY: 'auto' }} data-testid="notification-list">
        <NotificationList items={items} onOpen={onOpen} currentOperatorId={currentOperatorId} />
      </div>
      <Flex justify="flex-end" style={{ paddingTop: 8, borderTop: '1px solid #f0f0f0' }}>
        <Link to="/notifications" onClick={onSeeAll}>
          See all
        </Link>
      </Flex>
    </div>
  );
}
