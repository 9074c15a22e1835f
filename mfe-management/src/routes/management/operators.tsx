import { DeleteOutlined, PlusOutlined, ProfileOutlined } from '@ant-design/icons';
import { App, Button, Col, Empty, Flex, Row, Spin, Statistic } from 'antd';
import { lazy, Suspense, useCallback, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import type { OperatorDetails, OperatorSummary } from 'contracts';
import { api, useSession } from 'shared-auth';
import { Heading, PageContainer, Panel, countOf, useApiGet, useToasts } from 'shared-ui';
import { OperatorPicture } from '../../operators/OperatorPicture';

// The add dialog's form (react-hook-form, yup, antd Form and Modal) loads when it is opened, not with the grid.
const NameDialog = lazy(() => import('../../operators/NameDialog').then((m) => ({ default: m.NameDialog })));

/**
 * /management/operators — one card per operator the caller manages (specification §6: Administrator
 * or Manager). A Manager's scope is their own operators; one they create becomes theirs.
 */
export default function OperatorsPage() {
  const { modal } = App.useApp();
  const toasts = useToasts();
  const navigate = useNavigate();
  const myId = useSession((s) => s.user.id);
  const operators = useApiGet<OperatorSummary[]>('Operators/GetOperators', []);
  const [adding, setAdding] = useState(false);
  const { reload } = operators;
  const closeAdd = useCallback(() => setAdding(false), []);

  const create = async (name: string) => {
    try {
      await api.post('Operators/CreateOperator', { name });
      toasts.success('New operator created!');
      reload();
      return true;
    } catch {
      return false;
    }
  };

  /**
   * The users the deletion waits for: every member but the caller, as the server counts them (a Manager
   * is a member of each operator they may delete). The card's count includes the caller, so the dialog
   * told an operator with one other user '2 users' to remove.
   */
  const othersThan = async (operator: OperatorSummary): Promise<number> => {
    try {
      const { data } = await api.get<OperatorDetails>(`Operators/GetOperator?operatorId=${operator.id}`);
      return data.userList.filter((u) => u.id !== myId).length;
    } catch {
      return operator.users;
    }
  };

  const confirmDelete = async (operator: OperatorSummary) => {
    const others = await othersThan(operator);
    modal.confirm({
      title: `Delete ${operator.name}?`,
      content:
        others + operator.projects > 0
          ? `${operator.name} has ${countOf(others, 'user')} besides you and ${countOf(operator.projects, 'project')}. It is deleted only when it has no projects and no users but you.`
          : 'The operator has no users and no projects. This cannot be undone.',
      okText: 'Delete',
      okButtonProps: { danger: true },
      onOk: async () => {
        try {
          const { data } = await api.delete<{ message: string }>('Operators/DeleteOperator', { data: { id: operator.id } });
          toasts.success(data.message);
        } catch {
          /* shown by the API client, e.g. how many users and projects are left */
        }
        reload();
      },
    });
  };

  const openDetails = (operatorId: number) => navigate('/management/operators/details/overview', { state: { operatorId } });

  return (
    <PageContainer
      title="Operators"
      actions={
        <Button type="primary" icon={<PlusOutlined />} onClick={() => setAdding(true)}>
          Add
        </Button>
      }
    >
      {operators.loading && operators.data.length === 0 ? (
        <Spin />
      ) : operators.data.length === 0 ? (
        <Panel label="No operators">
          <Empty description="No operators yet" />
        </Panel>
      ) : (
        <Row gutter={[16, 16]}>
          {operators.data.map((operator) => (
            <Col key={operator.id} xs={24} sm={12} lg={8} xl={6}>
              <Panel
                label={operator.name}
                style={{ height: '100%' }}
                actions={[
                  <Button key="details" type="link" icon={<ProfileOutlined />} onClick={() => openDetails(operator.id)}>
                    Details
                  </Button>,
                  <Button key="delete" type="link" danger icon={<DeleteOutlined />} onClick={() => void confirmDelete(operator)}>
                    Delete
                  </Button>,
                ]}
              >
                <Flex vertical align="center" gap={12}>
                  <OperatorPicture operatorId={operator.id} name={operator.name} version={operator.avatar} />
                  <Heading level={5}>{operator.name}</Heading>
                  <Flex gap={32}>
                    <Statistic title="Users" value={operator.users} />
                    <Statistic title="Projects" value={operator.projects} />
                  </Flex>
                </Flex>
              </Panel>
            </Col>
          ))}
        </Row>
      )}
      {adding ? (
        <Suspense fallback={null}>
          <NameDialog title="Add operator" onSave={create} onClose={closeAdd} />
        </Suspense>
      ) : null}
    </PageContainer>
  );
}
