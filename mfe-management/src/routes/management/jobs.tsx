import { ReloadOutlined } from '@ant-design/icons';
import { App, Button, Descriptions, Drawer, Flex, Progress, Select, Tag } from 'antd';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { JobDetails, JobRow, JobsPage as JobsAnswer, JobStateName } from 'contracts';
import { api } from 'shared-auth';
import { DataTable, formatDate, Heading, Note, PageContainer, useToasts, type DataColumn, type TablePage, type TableQuery } from 'shared-ui';

/** While a job on the page (or the one in the details) is queued or running, the page asks again this often. */
export const REFRESH_MS = 3000;

const ACTIVE: ReadonlySet<JobStateName> = new Set(['queued', 'running']);

export const STATE_LABELS: Record<JobStateName, string> = {
  queued: 'Queued',
  running: 'Running',
  succeeded: 'Succeeded',
  failed: 'Failed',
  cancelled: 'Cancelled',
};

const STATE_COLORS: Record<JobStateName, string | undefined> = {
  queued: undefined,
  running: 'processing',
  succeeded: 'green',
  failed: 'red',
  cancelled: undefined,
};

/** What a job that ran to its end found, as its notification told it: shown only where its state does not say it. */
export const OUTCOME_LABELS = { warning: 'Warnings', error: 'Errors found' } as const;

const NONE = <Note>—</Note>;

/** 850 ms, 1.6 s, 42 s, 2 min 5 s, 1 h 3 min. */
export function formatDuration(ms: number | null): string {
  if (ms === null) return '';
  if (ms < 1000) return `${ms} ms`;
  if (ms < 10_000) return `${(ms / 1000).toFixed(1)} s`;
  const seconds = Math.floor(ms / 1000);
  if (seconds < 60) return `${seconds} s`;
  if (seconds < 3600) return `${Math.floor(seconds / 60)} min ${seconds % 60} s`;
  const minutes = Math.floor(seconds / 60);
  return `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}

function formatJson(value: unknown): string {
  if (value === undefined || value === null) return '';
  try {
    return JSON.stringify(value, null, 2);
  } catch {
    return String(value);
  }
}

function StateTags({ job }: { job: JobRow }) {
  const outcome = job.state === 'succeeded' && (job.outcome === 'warning' || job.outcome === 'error') ? job.outcome : null;
  return (
    <Flex gap={4} wrap>
      <Tag color={STATE_COLORS[job.state]} style={{ marginInlineEnd: 0 }}>
        {STATE_LABELS[job.state]}
      </Tag>
      {outcome ? (
        <Tag color={outcome === 'error' ? 'red' : 'gold'} style={{ marginInlineEnd: 0 }}>
          {OUTCOME_LABELS[outcome]}
        </Tag>
      ) : null}
    </Flex>
  );
}

function JobProgress({ job }: { job: JobRow }) {
  return (
    <Flex vertical gap={0} style={{ minWidth: 160 }}>
      <Progress percent={job.progress} size="small" status="active" aria-label={`${job.label} progress`} />
      {job.progressText ? <Note>{job.progressText}</Note> : null}
    </Flex>
  );
}

type Row = JobRow & { actions?: never };

interface Filters {
  state: JobStateName | '';
  kind: string;
}

/** Asks before Retry or Cancel; the API's answer (or refusal, shown by the API client) follows. */
function useJobActions(afterwards: () => void) {
  const { modal } = App.useApp();
  const toasts = useToasts();
  return useCallback(
    (job: JobRow, action: 'retry' | 'cancel') => {
      const retry = action === 'retry';
      modal.confirm({
        title: retry ? 'Retry job?' : 'Cancel job?',
        content: retry ? `“${job.label}” will be queued and run again.` : `“${job.label}” has not started yet and will not run.`,
        okText: retry ? 'Retry' : 'Cancel job',
        okButtonProps: retry ? undefined : { danger: true },
        cancelText: 'Keep it',
        onOk: async () => {
          try {
            const { data } = await api.post<{ message: string }>(retry ? 'Jobs/RetryJob' : 'Jobs/CancelJob', { id: job.id });
            toasts.success(data.message);
          } catch {
            /* told by the API client (a 409 when the job's state moved on) */
          }
          afterwards();
        },
      });
    },
    [modal, toasts, afterwards],
  );
}

function ActionButtons({ job, act }: { job: JobRow; act: (job: JobRow, action: 'retry' | 'cancel') => void }) {
  return (
    <>
      {job.retryable ? (
        <Button size="small" onClick={() => act(job, 'retry')}>
          Retry
        </Button>
      ) : null}
      {job.cancellable ? (
        <Button size="small" danger onClick={() => act(job, 'cancel')}>
          Cancel
        </Button>
      ) : null}
    </>
  );
}

function Json({ value, label }: { value: unknown; label: string }) {
  const text = formatJson(value);
  return (
    // Long values wrap, and what cannot (a long token) scrolls inside the block: at 390 px the JSON
    // pushed the drawer, and the page with it, sideways (issue 47).
    <pre
      className="cw-job-json"
      tabIndex={0}
      aria-label={label}
      style={{ margin: 0, maxWidth: '100%', overflowX: 'auto', whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}
    >
      {text || 'none'}
    </pre>
  );
}

function JobDetailsBody({ details, act }: { details: JobDetails; act: (job: JobRow, action: 'retry' | 'cancel') => void }) {
  const { job, params, outcome } = details;
  const ended = job.state === 'cancelled' ? 'Cancelled' : job.state === 'failed' ? 'Failed' : 'Finished';
  const step = (key: string, label: string, at: string | null) => ({ key, label, children: at ? formatDate(at) : 'not yet' });
  return (
    <Flex vertical gap={16}>
      <Flex vertical gap={8}>
        <StateTags job={job} />
        {job.state === 'running' ? <JobProgress job={job} /> : null}
      </Flex>
      <Descriptions
        size="small"
        column={1}
        bordered
        items={[
          { key: 'id', label: 'Id', children: <code>{job.id}</code> },
          { key: 'kind', label: 'Kind', children: `${job.label} (${job.kind})` },
          { key: 'owner', label: 'Owner', children: job.owner ?? 'system' },
          { key: 'operator', label: 'Operator', children: job.operator ?? '—' },
          { key: 'attempts', label: 'Attempts', children: String(job.attempts) },
          { key: 'duration', label: 'Duration', children: formatDuration(job.durationMs) || '—' },
        ]}
      />
      <section aria-label="Timeline">
        <Heading level={4}>Timeline</Heading>
        {/* A list of three dated steps (antd's Timeline has no rules in the console's static stylesheet). */}
        <Descriptions
          className="cw-job-timeline"
          size="small"
          column={1}
          bordered
          items={[step('created', 'Created', job.createdAt), step('started', 'Started', job.startedAt), step('ended', ended, job.finishedAt)]}
        />
      </section>
      {job.error ? (
        <section aria-label="Error">
          <Heading level={4}>Error</Heading>
          <p style={{ margin: 0, whiteSpace: 'pre-wrap' }}>{job.error}</p>
        </section>
      ) : null}
      <section aria-label="Parameters">
        <Heading level={4}>Parameters</Heading>
        <Json value={params} label="Parameters" />
      </section>
      <section aria-label="Outcome">
        <Heading level={4}>Outcome</Heading>
        {outcome ? (
          <Flex vertical gap={8}>
            <span>
              Status <Tag color={outcome.status < 300 ? 'green' : outcome.status < 500 ? 'gold' : 'red'}>{outcome.status}</Tag>
            </span>
            {outcome.body === undefined || outcome.body === null ? null : <Json value={outcome.body} label="Outcome" />}
          </Flex>
        ) : (
          <Note>{ACTIVE.has(job.state) ? 'Not finished yet.' : 'None recorded.'}</Note>
        )}
      </section>
      {job.retryable || job.cancellable ? (
        <Flex gap={8}>
          <ActionButtons job={job} act={act} />
        </Flex>
      ) : null}
    </Flex>
  );
}

/**
 * /management/jobs — the job dashboard (docs/architecture.md#how-a-job-flows): every user's imports,
 * exports, runs and parses, newest first, for Administrators. The menu opens it in a new tab with the
 * session token as `access_token` (specification §2), which the shell takes out of the address on start
 * (shell/src/session/tokenHandoff.ts).
 */
export default function JobsPage() {
  const [filters, setFilters] = useState<Filters>({ state: '', kind: '' });
  const [kinds, setKinds] = useState<JobsAnswer['kinds']>([]);
  const [version, setVersion] = useState(0);
  const [activeOnPage, setActiveOnPage] = useState(false);
  const [updatedAt, setUpdatedAt] = useState<Date | null>(null);
  const [openId, setOpenId] = useState<string | null>(null);
  const [details, setDetails] = useState<JobDetails | null>(null);
  const [detailsError, setDetailsError] = useState<string | null>(null);
  // The job whose details are open, for answers that arrive after the drawer moved on or closed.
  const openRef = useRef<string | null>(null);

  const fetchPage = useCallback(
    async (query: TableQuery): Promise<TablePage<Row>> => {
      const params: Record<string, string | number> = { page: query.page, size: query.size };
      if (filters.state) params.state = filters.state;
      if (filters.kind) params.kind = filters.kind;
      const { data } = await api.get<JobsAnswer>('Jobs/GetJobs', { params, skipLoading: true });
      setKinds((before) => (JSON.stringify(before) === JSON.stringify(data.kinds) ? before : data.kinds));
      setActiveOnPage(data.rows.some((job) => ACTIVE.has(job.state)));
      setUpdatedAt(new Date());
      return { rows: data.rows, total: data.total };
    },
    [filters],
  );

  const loadDetails = useCallback(async (id: string) => {
    try {
      const { data } = await api.get<JobDetails>('Jobs/GetJob', { params: { id }, skipLoading: true });
      if (openRef.current === id) {
        setDetails(data);
        setDetailsError(null);
      }
    } catch {
      if (openRef.current === id) setDetailsError('The job could not be loaded.');
    }
  }, []);

  const reload = useCallback(() => {
    setVersion((v) => v + 1);
    if (openRef.current !== null) void loadDetails(openRef.current);
  }, [loadDetails]);
  const act = useJobActions(reload);

  const openDetails = useCallback(
    (job: JobRow) => {
      setOpenId(job.id);
      setDetails(null);
      setDetailsError(null);
      openRef.current = job.id;
      void loadDetails(job.id);
    },
    [loadDetails],
  );

  // Live: every 3 s while work on the page (or in the details) is queued or running, not while the tab is hidden.
  const active = activeOnPage || (details !== null && ACTIVE.has(details.job.state));
  useEffect(() => {
    if (!active) return;
    const timer = setTimeout(() => {
      if (document.hidden) setUpdatedAt(new Date());
      else reload();
    }, REFRESH_MS);
    return () => clearTimeout(timer);
  }, [active, updatedAt, reload]);
  useEffect(() => {
    const shown = () => {
      if (!document.hidden && active) reload();
    };
    document.addEventListener('visibilitychange', shown);
    return () => document.removeEventListener('visibilitychange', shown);
  }, [active, reload]);

  const columns = useMemo<Array<DataColumn<Row>>>(
    () => [
      {
        key: 'label',
        title: 'Job',
        filter: false,
        sortable: false,
        render: (job) => (
          <Flex vertical>
            <span className="cw-job-label">{job.label}</span>
            <Note>{job.kind}</Note>
          </Flex>
        ),
      },
      { key: 'owner', title: 'Owner', filter: false, sortable: false, render: (job) => job.owner ?? <Note>system</Note> },
      { key: 'operator', title: 'Operator', filter: false, sortable: false, render: (job) => job.operator ?? NONE },
      { key: 'state', title: 'State', filter: false, sortable: false, render: (job) => <StateTags job={job} /> },
      {
        key: 'progress',
        title: 'Progress',
        filter: false,
        sortable: false,
        render: (job) => (job.state === 'running' ? <JobProgress job={job} /> : NONE),
      },
      { key: 'createdAt', title: 'Queued', kind: 'date', filter: false, sortable: false },
      { key: 'startedAt', title: 'Started', filter: false, sortable: false, render: (job) => (job.startedAt ? formatDate(job.startedAt) : NONE) },
      { key: 'finishedAt', title: 'Finished', filter: false, sortable: false, render: (job) => (job.finishedAt ? formatDate(job.finishedAt) : NONE) },
      { key: 'durationMs', title: 'Duration', filter: false, sortable: false, render: (job) => formatDuration(job.durationMs) || NONE },
      { key: 'error', title: 'Error', filter: false, sortable: false, wrap: true },
      {
        key: 'actions',
        title: 'Actions',
        filter: false,
        sortable: false,
        render: (job) => (
          <Flex gap={4} onClick={(event) => event.stopPropagation()}>
            <Button size="small" onClick={() => openDetails(job)} aria-label={`Details of ${job.label}`}>
              Details
            </Button>
            <ActionButtons job={job} act={act} />
          </Flex>
        ),
      },
    ],
    [act, openDetails],
  );

  const filtered = filters.state !== '' || filters.kind !== '';
  return (
    <PageContainer
      title="Job Dashboard"
      actions={
        <Button icon={<ReloadOutlined />} onClick={reload}>
          Refresh
        </Button>
      }
    >
      <Note>Imports, exports and other long work of every user, newest first.</Note>
      <Flex gap={12} wrap align="end" style={{ margin: '12px 0' }}>
        <Flex component="label" align="center" gap={8}>
          <span>State</span>
          <Select<Filters['state']>
            aria-label="State"
            value={filters.state}
            style={{ width: 180 }}
            onChange={(state) => setFilters((f) => ({ ...f, state }))}
            options={[{ value: '', label: 'All states' }, ...(Object.keys(STATE_LABELS) as JobStateName[]).map((s) => ({ value: s, label: STATE_LABELS[s] }))]}
          />
        </Flex>
        <Flex component="label" align="center" gap={8}>
          <span>Kind</span>
          <Select<string>
            aria-label="Kind"
            // Every kind drawn: a short list, and "All kinds" stays reachable below a chosen one.
            virtual={false}
            value={filters.kind}
            style={{ width: 240 }}
            onChange={(kind) => setFilters((f) => ({ ...f, kind }))}
            options={[{ value: '', label: 'All kinds' }, ...kinds.map((k) => ({ value: k.kind, label: k.label }))]}
          />
        </Flex>
        <Note>{updatedAt ? `Updated ${formatDate(updatedAt).slice(11)}${active ? ' · refreshing every 3 s' : ''}` : ''}</Note>
      </Flex>
      <DataTable<Row>
        // A new filter starts again at the first page.
        key={`${filters.state} ${filters.kind}`}
        caption="Jobs"
        columns={columns}
        fetchPage={fetchPage}
        reloadKey={version}
        rowKey="id"
        emptyText={filtered ? 'No job matches these filters.' : 'No jobs yet.'}
        onRowClick={openDetails}
      />
      <Drawer
        title={details?.job.label ?? 'Job'}
        open={openId !== null}
        onClose={() => {
          openRef.current = null;
          setOpenId(null);
          setDetails(null);
        }}
        // Never wider than the screen: a phone's drawer fills it.
        size="min(560px, 100vw)"
        destroyOnHidden
      >
        {detailsError ? <p>{detailsError}</p> : details ? <JobDetailsBody details={details} act={act} /> : <Note>Loading…</Note>}
      </Drawer>
    </PageContainer>
  );
}
