import { UploadOutlined } from '@ant-design/icons';
import { Button, Card, Col, Empty, Flex, Form, Progress, Row, Spin, Tabs } from 'antd';
import { Suspense, lazy, useEffect, useRef, useState } from 'react';
import { Link, Navigate, useLocation, useNavigate, useParams } from 'react-router-dom';
import type { ImageResponse, OperatorDetails } from 'contracts';
import { api } from 'shared-auth';
import {
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
} from 'shared-ui';
import * as yup from 'yup';
import { OperatorPicture } from '../../../operators/OperatorPicture';

export const OPERATOR_TABS = ['overview', 'projects', 'users'] as const;
type OperatorTab = (typeof OPERATOR_TABS)[number];
const LABELS: Record<OperatorTab, string> = { overview: 'Overview', projects: 'Projects', users: 'Users' };

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

// The projects and users tabs (their tables, the add-project dialog) load when one is opened, not with the overview.
const loadOperatorTables = () => import('../../../operators/OperatorTables');
const ProjectsTab = lazy(() => loadOperatorTables().then((m) => ({ default: m.ProjectsTab })));
const OperatorUsersTable = lazy(() => loadOperatorTables().then((m) => ({ default: m.OperatorUsersTable })));

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
    projects: (
      <Suspense fallback={<Spin />}>
        <ProjectsTab operator={operator} onChanged={details.reload} />
      </Suspense>
    ),
    users: (
      <Suspense fallback={<Spin />}>
        <OperatorUsersTable operator={operator} />
      </Suspense>
    ),
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
