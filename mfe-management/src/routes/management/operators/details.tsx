import { DeleteOutlined, PlusOutlined, UploadOutlined } from '@ant-design/icons';
import { App, Button, Card, Col, Empty, Flex, Form, Progress, Row, Spin, Tabs } from 'antd';
import { useCallback, useEffect, useRef, useState } from 'react';
import { Link, Navigate, useLocation, useNavigate, useParams } from 'react-router-dom';
import type { ImageResponse, OperatorDetails } from 'api/contracts';
import { api } from 'shared-auth';
import {
  DataTable,
  MAX_UPLOAD_BYTES,
  Note,
  PageContainer,
  TextField,
  fileProblem,
  required,
  uploadFiles,
  uploadLimitText,
  useApiGet,
  useConsoleForm,
  useToasts,
  type DataColumn,
} from 'shared-ui';
import * as yup from 'yup';
import { NameDialog } from '../../../operators/NameDialog';
import { OperatorPicture } from '../../../operators/OperatorPicture';

export const OPERATOR_TABS = ['overview', 'projects', 'users'] as const;
type OperatorTab = (typeof OPERATOR_TABS)[number];
const LABELS: Record<OperatorTab, string> = { overview: 'Overview', projects: 'Projects', users: 'Users' };

type ProjectRow = OperatorDetails['projectList'][number] & { actions?: never };
type UserRow = OperatorDetails['userList'][number];

const nameSchema = yup.object({ name: required() });

function PictureCard({ operator, onChanged }: { operator: OperatorDetails; onChanged: () => void }) {
  const toasts = useToasts();
  const input = useRef<HTMLInputElement>(null);
  const [busy, setBusy] = useState(false);

  const [progress, setProgress] = useState<number | null>(null);

  const upload = async (file: File) => {
    const problem = fileProblem(file, ['.png']);
    if (problem) {
      toasts.warning(problem);
      return;
    }
    setBusy(true);
    setProgress(0);
    try {
      const [sent] = await uploadFiles([file], { onProgress: setProgress });
      const { data } = await api.post<ImageResponse>('Operators/UpdateImage', { id: operator.id, uploadId: sent?.uploadId ?? null });
      toasts.success(data.message);
      onChanged();
    } catch {
      /* shown by the API client, e.g. a file that is not really a PNG */
    } finally {
      setBusy(false);
      setProgress(null);
    }
  };

  const remove = async () => {
    setBusy(true);
    try {
      const { data } = await api.post<ImageResponse>('Operators/UpdateImage', { id: operator.id, uploadId: null });
      toasts.success(data.message);
      onChanged();
    } catch {
      /* shown by the API client */
    } finally {
      setBusy(false);
    }
  };

  return (
    <Card title="Picture">
      <Flex vertical align="center" gap={16}>
        <OperatorPicture operatorId={operator.id} name={operator.name} version={operator.avatar} size={128} />
        <input
          ref={input}
          type="file"
          accept=".png,image/png"
          hidden
          aria-label="Picture file"
          onChange={(e) => {
            const file = e.target.files?.[0];
            e.target.value = '';
            if (file) void upload(file);
          }}
        />
        <Flex gap={8}>
          <Button icon={<UploadOutlined />} loading={busy} onClick={() => input.current?.click()}>
            Add picture
          </Button>
          <Button danger disabled={operator.avatar === null || busy} onClick={() => void remove()}>
            Remove picture
          </Button>
        </Flex>
        {progress !== null ? <Progress percent={Math.round(progress * 100)} size="small" style={{ width: 200 }} /> : null}
        <Note>PNG only. {uploadLimitText(MAX_UPLOAD_BYTES)}.</Note>
      </Flex>
    </Card>
  );
}

function NameCard({ operator, onChanged }: { operator: OperatorDetails; onChanged: () => void }) {
  const toasts = useToasts();
  const form = useConsoleForm(nameSchema, { name: operator.name });
  const { reset } = form;
  useEffect(() => reset({ name: operator.name }), [operator.name, reset]);
  const save = form.handleSubmit(async ({ name }) => {
    try {
      await api.post('Operators/UpdateOperator', { id: operator.id, name: name.trim() });
      toasts.success('Operator updated!');
      onChanged();
    } catch {
      /* shown by the API client */
    }
  });
  return (
    <Card title="Operator">
      <Form layout="vertical" component="form" onSubmitCapture={(e) => void save(e)}>
        <TextField control={form.control} name="name" label="Name" />
        <Button type="primary" htmlType="submit" loading={form.formState.isSubmitting}>
          Save Changes
        </Button>
      </Form>
    </Card>
  );
}

function ProjectsTab({ operator, onChanged }: { operator: OperatorDetails; onChanged: () => void }) {
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

function OperatorTabs({ operatorId, tab }: { operatorId: number; tab: OperatorTab }) {
  const navigate = useNavigate();
  const details = useApiGet<OperatorDetails | null>(`Operators/GetOperator?operatorId=${operatorId}`, null);
  const operator = details.data;
  if (!operator) return details.failed ? null : <Spin />;
  const content: Record<OperatorTab, React.ReactNode> = {
    overview: (
      <Row gutter={[16, 16]}>
        <Col xs={24} md={10}>
          <PictureCard operator={operator} onChanged={details.reload} />
        </Col>
        <Col xs={24} md={14}>
          <NameCard operator={operator} onChanged={details.reload} />
        </Col>
      </Row>
    ),
    projects: <ProjectsTab operator={operator} onChanged={details.reload} />,
    users: <DataTable tableKey="management.operatorDetails.users" caption="Users" columns={userColumns} rows={operator.userList} rowKey="id" />,
  };
  return (
    <PageContainer title={operator.name}>
      <Card>
        <Tabs
          activeKey={tab}
          onChange={(key) => navigate(`/management/operators/details/${key}`, { state: { operatorId } })}
          items={OPERATOR_TABS.map((key) => ({ key, label: LABELS[key], children: key === tab ? content[key] : null }))}
        />
      </Card>
    </PageContainer>
  );
}

/**
 * Opened without an operator (a bookmark, a reload in another tab): the specification shows no details
 * then, but the user is told where operators are opened from.
 */
function NoOperatorChosen() {
  return (
    <PageContainer title="Operator details">
      <Card>
        <Empty
          description={
            <Flex vertical gap={4}>
              <span>No operator is chosen: operators are opened from their card.</span>
              <Link to="/management/operators">Open the operators</Link>
            </Flex>
          }
        />
      </Card>
    </PageContainer>
  );
}

/**
 * /management/operators/details/:tab — Overview, Projects, Users. The operator id travels in router
 * state, never in the path (specification §2): no tab goes back to the grid, an unknown tab to 404,
 * and without an operator id there are no details to show, only the way to the grid.
 */
export default function OperatorDetailsPage() {
  const { tab } = useParams();
  const state = useLocation().state as { operatorId?: unknown } | null;
  if (!tab) return <Navigate to="/management/operators" replace />;
  if (!(OPERATOR_TABS as readonly string[]).includes(tab)) return <Navigate to="/errors/error-404" replace />;
  const operatorId = state?.operatorId;
  if (typeof operatorId !== 'number') return <NoOperatorChosen />;
  return <OperatorTabs operatorId={operatorId} tab={tab as OperatorTab} />;
}
