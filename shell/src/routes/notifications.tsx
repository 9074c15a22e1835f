import { Button, Card, Segmented } from 'antd';
import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import type { MarkAllAsReadResponse, NotificationPage } from 'contracts';
import { api, useSession } from 'shared-auth';
import { NotificationList, PageContainer, Pagination, TABLE_PAGE_SIZE, useToasts, type NotificationItem } from 'shared-ui';
import { useNotifications } from '../notifications/store';
import { openNotificationLink } from '../session/operatorSwitch';

type Filter = 'all' | 'unread';

/** /notifications: every notification of the user, with a filter, mark-all and pages. */
export default function NotificationsPage() {
  const toasts = useToasts();
  const [filter, setFilter] = useState<Filter>('all');
  const [page, setPage] = useState(1);
  const [rows, setRows] = useState<NotificationItem[]>([]);
  const [total, setTotal] = useState(0);
  const refreshBell = useNotifications((s) => s.refresh);
  const unreadCount = useNotifications((s) => s.unread);
  const currentOperatorId = useSession((s) => s.user.operator?.id ?? null);

  // Reloads when the page or filter changes, and when the bell's unread count does (a new notification
  // arrived, or one was read here or elsewhere).
  useEffect(() => {
    let live = true;
    void api
      .get<NotificationPage>('Notification/Notifications', {
        params: { page, size: TABLE_PAGE_SIZE, ...(filter === 'unread' ? { unread: true } : {}) },
        skipLoading: true,
      })
      .then(({ data }) => {
        if (!live) return;
        setRows(data.rows);
        setTotal(data.total);
      });
    return () => {
      live = false;
    };
  }, [page, filter, unreadCount]);

  const navigate = useNavigate();
  const open = async (item: NotificationItem) => {
    if (!item.readed) {
      await api.put(`Notification/MarkAsRead/${item.id}`, undefined, { skipLoading: true });
      await refreshBell();
    }
    // A notification of another operator switches to it before its record opens.
    await openNotificationLink(item, navigate, toasts);
  };

  const markAll = async () => {
    const { data } = await api.put<MarkAllAsReadResponse>('Notification/MarkAllAsRead');
    await refreshBell();
    toasts.success(data.updated === 1 ? '1 notification marked as read.' : `${data.updated} notifications marked as read.`);
  };

  return (
    <PageContainer
      title="Notifications"
      actions={
        <Button onClick={() => void markAll()} disabled={unreadCount === 0}>
          Mark all as read
        </Button>
      }
    >
      <Segmented<Filter>
        value={filter}
        onChange={(value) => {
          setFilter(value);
          setPage(1);
        }}
        options={[
          { value: 'all', label: 'All' },
          { value: 'unread', label: 'Unread' },
        ]}
      />
      <Card>
        <NotificationList items={rows} onOpen={(item) => void open(item)} currentOperatorId={currentOperatorId} />
      </Card>
      {total > TABLE_PAGE_SIZE ? <Pagination current={page} total={total} pageSize={TABLE_PAGE_SIZE} onChange={setPage} /> : null}
    </PageContainer>
  );
}
