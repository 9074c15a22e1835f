import { PlusOutlined } from '@ant-design/icons';
import { App, Button, Card, Col, Flex, Row, Statistic, Tabs, Tag } from 'antd';
import { Suspense, lazy, useCallback, useState } from 'react';
import type { AuditTrail, UserListRow, UserStats } from 'contracts';
import { api, can, principalOf, useSession } from 'shared-auth';
import { DataTable, PageContainer, useApiGet, useToasts, type DataColumn } from 'shared-ui';

// The dialog (its form, validation schema and selects) loads when first opened or pointed at, not with the page.
const loadUserDialog = () => import('../../users/UserDialog');
const UserDialog = lazy(() => loadUserDialog().then((m) => ({ default: m.UserDialog })));

type UserRow = UserListRow & { actions?: never };
type AuditRow = AuditTrail['rows'][number];

const STATS: Array<{ key: keyof UserStats; label: string }> = [
  { key: 'online', label: 'Online' },
  { key: 'active', label: 'Active' },
  { key: 'client', label: 'Client' },
  { key: 'registered', label: 'Registered' },
];

const auditColumns: Array<DataColumn<AuditRow>> = [
  { key: 'id', title: 'Id', hidden: true },
  { key: 'at', title: 'When', kind: 'date' },
  { key: 'actor', title: 'Who' },
  { key: 'action', title: 'Action' },
  { key: 'entity', title: 'Entity' },
  { key: 'summary', title: 'What' },
  { key: 'address', title: 'Address' },
];

/** The dialog: closed, adding (null) or editing a user. */
type DialogState = { open: false } | { open: true; userId: number | null };

/** /management/users — stats, the All Users table and, for Administrators, the audit trail. */
export default function UsersPage() {
  const { modal } = App.useApp();
  const toasts = useToasts();
  const role = useSession((s) => s.user.role);
  const myId = useSession((s) => s.user.id);
  const isAdministrator = useSession((s) => can(principalOf(s), 'canAdminister'));
  const users = useApiGet<UserListRow[]>(`Users/GetUsers?role=${encodeURIComponent(role)}`, []);
  const stats = useApiGet<UserStats | null>('Users/GetUsersStats', null);
  const audit = useApiGet<AuditTrail>(isAdministrator ? 'Users/GetAuditTrail?size=500' : null, { rows: [], total: 0 });
  const [dialog, setDialog] = useState<DialogState>({ open: false });

  const { reload: reloadUsers } = users;
  const { reload: reloadStats } = stats;
  const { reload: reloadAudit } = audit;
  const reload = useCallback(() => {
    reloadUsers();
    reloadStats();
    reloadAudit();
  }, [reloadUsers, reloadStats, reloadAudit]);
  const closeDialog = useCallback(() => setDialog({ open: false }), []);
  const saved = useCallback(() => {
    setDialog({ open: false });
    reload();
  }, [reload]);

  /** Runs a row action; the API client shows failures, the table reloads either way. */
  const act = async (call: () => Promise<{ data: { message: string } }>, success?: string) => {
    try {
      const { data } = await call();
      toasts.success(success ?? data.message);
    } catch {
      /* shown by the API client */
    }
    reload();
  };

  const confirmDeactivate = (row: UserRow) =>
    modal.confirm({
      title: `Deactivate ${row.name}?`,
      content: 'They can no longer sign in, and their open sessions end now.',
      okText: 'Deactivate',
      okButtonProps: { danger: true },
      onOk: () => act(() => api.post('Users/DeactivateUser', { userId: row.id })),
    });

  const confirmReactivate = (row: UserRow) =>
    modal.confirm({
      title: `Reactivate ${row.name}?`,
      content: 'They can sign in again with their password.',
      okText: 'Reactivate',
      onOk: () => act(() => api.post('Users/ReactivateUser', { userId: row.id })),
    });

  const confirmDelete = (row: UserRow) =>
    modal.confirm({
      title: `Delete ${row.name}?`,
      content: `${row.email} is removed with their memberships and notifications; their open sessions end now. This cannot be undone.`,
      okText: 'Delete',
      okButtonProps: { danger: true },
      onOk: () => act(() => api.delete('Users/DeleteUser', { data: { userId: row.id } })),
    });

  const columns: Array<DataColumn<UserRow>> = [
    { key: 'id', title: 'Id', hidden: true },
    { key: 'name', title: 'Name' },
    { key: 'email', title: 'Email' },
    { key: 'role', title: 'Role' },
    {
      key: 'operators',
      title: 'Operators',
      render: (row) => (
        <Flex vertical>
          {row.operators
            .split(', ')
            .filter((name) => name !== '')
            .map((name) => (
              <span key={name}>{name}</span>
            ))}
        </Flex>
      ),
    },
    {
      key: 'status',
      title: 'Status',
      filter: false,
      render: (row) => (
        <Flex gap={4} wrap>
          <Tag color={row.status ? 'green' : 'gold'}>{row.status ? 'Email confirmed' : 'Email not confirmed'}</Tag>
          {row.deactivated ? <Tag color="red">Deactivated</Tag> : null}
        </Flex>
      ),
    },
    { key: 'online', title: 'Online', filter: false, render: (row) => <Tag color={row.online ? 'green' : undefined}>{row.online ? 'Online' : 'Offline'}</Tag> },
    {
      key: 'actions',
      title: 'Actions',
      filter: false,
      // Wide enough for its longest set of buttons on one line: Delete wrapped under 'Resend confirmation email' (issue 47).
      width: 330,
      render: (row) => (
        <Flex gap={4} wrap={false}>
          {row.status ? (
            row.id === myId ? null : row.deactivated ? (
              <Button size="small" onClick={() => confirmReactivate(row)}>
                Reactivate
              </Button>
            ) : (
              <Button size="small" onClick={() => confirmDeactivate(row)}>
                Deactivate
              </Button>
            )
          ) : (
            <Button size="small" onClick={() => void act(() => api.post('Users/ResendConfirmationEmail', { userId: row.id }), 'Confirmation email sent!')}>
              Resend confirmation email
            </Button>
          )}
          <Button
            size="small"
            onPointerEnter={() => void loadUserDialog()}
            onFocus={() => void loadUserDialog()}
            onClick={() => setDialog({ open: true, userId: row.id })}
          >
            Edit
          </Button>
          {/* Nobody deactivates or deletes their own account (the API refuses it too). */}
          {row.id === myId ? null : (
            <Button size="small" danger onClick={() => confirmDelete(row)}>
              Delete
            </Button>
          )}
        </Flex>
      ),
    },
  ];

  const usersTable = <DataTable tableKey="management.users" caption="All Users" columns={columns} rows={users.data} rowKey="id" loading={users.loading} />;

  return (
    <PageContainer
      title="Users"
      actions={
        <Button
          type="primary"
          icon={<PlusOutlined />}
          onPointerEnter={() => void loadUserDialog()}
          onFocus={() => void loadUserDialog()}
          onClick={() => setDialog({ open: true, userId: null })}
        >
          Add
        </Button>
      }
    >
      <Row gutter={[16, 16]}>
        {STATS.map(({ key, label }) => (
          <Col key={key} xs={12} md={6}>
            <Card>
              <Statistic title={label} value={stats.data ? stats.data[key] : '–'} loading={stats.loading && stats.data === null} />
            </Card>
          </Col>
        ))}
      </Row>
      {isAdministrator ? (
        <Tabs
          items={[
            { key: 'users', label: 'All Users', children: usersTable },
            {
              key: 'audit',
              label: 'Audit trail',
              children: (
                <DataTable
                  tableKey="management.users.audit"
                  caption={`Audit trail (latest ${audit.data.rows.length} of ${audit.data.total})`}
                  columns={auditColumns}
                  rows={audit.data.rows}
                  rowKey="id"
                  loading={audit.loading}
                />
              ),
            },
          ]}
        />
      ) : (
        usersTable
      )}
      {dialog.open ? (
        <Suspense fallback={null}>
          <UserDialog userId={dialog.userId} onClose={closeDialog} onSaved={saved} />
        </Suspense>
      ) : null}
    </PageContainer>
  );
}
