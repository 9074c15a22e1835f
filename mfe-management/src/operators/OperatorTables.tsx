import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { App, Button, Flex } from 'antd';
import { useCallback, useState } from 'react';
import type { OperatorDetails } from 'contracts';
import { api } from 'shared-auth';
import { DataTable, useToasts, type DataColumn } from 'shared-ui';
import { NameDialog } from './NameDialog';

// The operator details' Projects and Users tabs (routes/management/operators/details.tsx loads them when one is opened).

type ProjectRow = OperatorDetails['projectList'][number] & { actions?: never };
type UserRow = OperatorDetails['userList'][number];

export function ProjectsTab({ operator, onChanged }: { operator: OperatorDetails; onChanged: () => void }) {
  const { modal } = App.useApp();
  const toasts = useToasts();
  const [adding, setAdding] = useState(false);
  const closeAdd = useCallback(() => setAdding(false), []);

  const create = async (name: string) => {
    try {
      await api.post('Operators/CreateProject', { name, operatorId: operator.id });
      toasts.success('New project created!');
      onChanged();
      return true;
    } catch {
      return false;
    }
  };

  const confirmDelete = (project: ProjectRow) =>
    modal.confirm({
      title: `Delete project ${project.name}?`,
      content: project.users > 0 ? `${project.users} users are on it; the deletion will be refused until they are taken off.` : 'Nobody is on this project.',
      okText: 'Delete',
      okButtonProps: { danger: true },
      onOk: async () => {
        try {
          const { data } = await api.delete<{ message: string }>('Operators/DeleteProject', { data: { projectId: project.id } });
          toasts.success(data.message);
        } catch {
          /* shown by the API client */
        }
        onChanged();
      },
    });

  const columns: Array<DataColumn<ProjectRow>> = [
    { key: 'id', title: 'Id', kind: 'number' },
    { key: 'name', title: 'Name' },
    { key: 'users', title: 'Users', kind: 'number' },
    {
      key: 'actions',
      title: 'Delete',
      filter: false,
      render: (row) => <Button size="small" danger icon={<DeleteOutlined />} aria-label={`Delete ${row.name}`} onClick={() => confirmDelete(row)} />,
    },
  ];

  return (
    <Flex vertical gap={12}>
      <Flex justify="end">
        <Button type="primary" icon={<PlusOutlined />} onClick={() => setAdding(true)}>
          Add project
        </Button>
      </Flex>
      <DataTable tableKey="management.operatorDetails.projects" caption="All projects" columns={columns} rows={operator.projectList} rowKey="id" />
      {adding ? <NameDialog title="Add project" onSave={create} onClose={closeAdd} /> : null}
    </Flex>
  );
}

const userColumns: Array<DataColumn<UserRow>> = [
  { key: 'id', title: 'Id', kind: 'number' },
  { key: 'name', title: 'Name' },
];

export function OperatorUsersTable({ operator }: { operator: OperatorDetails }) {
  return <DataTable tableKey="management.operatorDetails.users" caption="Users" columns={userColumns} rows={operator.userList} rowKey="id" />;
}
