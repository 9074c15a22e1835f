import { PlusOutlined } from '@ant-design/icons';
import { Button, Card, Col, Row, Statistic } from 'antd';
import { DataTable, PageContainer, type DataColumn } from 'shared-ui';

interface UserRow {
  id: number;
  name: string;
  email: string;
  role: string;
  operators: string;
  status: boolean;
  online: boolean;
}

const columns: Array<DataColumn<UserRow>> = [
  { key: 'id', title: 'Id', hidden: true },
  { key: 'name', title: 'Name' },
  { key: 'email', title: 'Email' },
  { key: 'role', title: 'Role' },
  { key: 'operators', title: 'Operators' },
  { key: 'status', title: 'Status', render: (r) => (r.status ? 'Email confirmed' : 'Email not confirmed') },
  { key: 'online', title: 'Online', render: (r) => (r.online ? 'Online' : 'Offline') },
];

const STATS = ['Online', 'Active', 'Client', 'Registered'];

export default function UsersPage() {
  return (
    <PageContainer
      title="Users"
      actions={
        <Button type="primary" icon={<PlusOutlined />} disabled>
          Add
        </Button>
      }
    >
      <Row gutter={16}>
        {STATS.map((label) => (
          <Col key={label} xs={12} md={6}>
            <Card>
              <Statistic title={label} value="–" />
            </Card>
          </Col>
        ))}
      </Row>
      <DataTable caption="All Users" columns={columns} rows={[]} rowKey="id" />
    </PageContainer>
  );
}
