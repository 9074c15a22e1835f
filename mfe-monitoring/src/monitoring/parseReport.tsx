import { Alert, Descriptions, Drawer, Flex, Skeleton, Statistic, Tag } from 'antd';
import { useEffect, useState } from 'react';
import type { FileOutcome, ParseCounts, ParsedFile, ParseProblem, ParseReport } from 'contracts';
import { api, errorMessage } from 'shared-auth';
import { DataTable, formatDate, type DataColumn } from 'shared-ui';

const OUTCOME_COLOURS: Partial<Record<FileOutcome, string>> = {
  parsed: 'green',
  unreachable: 'volcano',
  'not in inventory': 'gold',
  failed: 'red',
};

/** One of FILE_OUTCOMES (the contract types it as text). */
export function OutcomeTag({ outcome }: { outcome: string }) {
  return (
    <Tag color={OUTCOME_COLOURS[outcome as FileOutcome]} style={{ marginInlineEnd: 0 }}>
      {outcome}
    </Tag>
  );
}

export function CountStatistics({ counts }: { counts: ParseCounts }) {
  const items: Array<[string, number]> = [
    ['Files', counts.files],
    ['Parsed', counts.parsed],
    ['Unreachable', counts.unreachable],
    ['Not in inventory', counts.notInInventory],
    ['Failed', counts.failed],
    ['Problems', counts.problems],
  ];
  return (
    <Flex gap={24} wrap>
      {items.map(([title, value]) => (
        <Statistic key={title} title={title} value={value} />
      ))}
    </Flex>
  );
}

type FileRow = ParsedFile & { key: number };
type ProblemRow = ParseProblem & { key: number; archive: string; file: string };

const fileColumns: Array<DataColumn<FileRow>> = [
  { key: 'archive', title: 'Archive' },
  { key: 'file', title: 'File' },
  { key: 'node', title: 'Node' },
  { key: 'siteId', title: 'Site Id' },
  { key: 'outcome', title: 'Outcome', render: (row) => <OutcomeTag outcome={row.outcome} /> },
  { key: 'alarms', title: 'Alarms', kind: 'number' },
  { key: 'problemCount', title: 'Problems', kind: 'number' },
  { key: 'reason', title: 'Reason', wrap: true },
];

const problemColumns: Array<DataColumn<ProblemRow>> = [
  { key: 'archive', title: 'Archive' },
  { key: 'file', title: 'File' },
  { key: 'line', title: 'Line', kind: 'number' },
  { key: 'command', title: 'Command' },
  { key: 'reason', title: 'Reason', wrap: true },
];

/** Counts, every file with its outcome, and the problems with their lines. */
export function ParseReportBody({ report, details = true }: { report: ParseReport; details?: boolean }) {
  const files: FileRow[] = report.files.map((f, key) => ({ ...f, key }));
  const problems: ProblemRow[] = report.files
    .flatMap((f) => f.problems.map((p) => ({ ...p, archive: f.archive, file: f.file })))
    .map((p, key) => ({ ...p, key }));
  const listed = problems.length;
  return (
    <Flex vertical gap={16}>
      {details && (
        <Descriptions
          size="small"
          column={{ xs: 1, md: 2 }}
          items={[
            { key: 'parsedAt', label: 'Parsed at', children: formatDate(report.parsedAt) },
            { key: 'parsedBy', label: 'Parsed by', children: report.parsedBy ?? '—' },
            { key: 'archives', label: 'Archives', children: report.archives.join(', ') },
            { key: 'logsDate', label: 'Logs date', children: report.logsDate ? formatDate(report.logsDate) : '—' },
          ]}
        />
      )}
      <CountStatistics counts={report.counts} />
      <DataTable
        tableKey="monitoring.parseReport.files"
        caption="Files"
        columns={fileColumns}
        rows={files}
        rowKey="key"
        emptyText="The archives held no files."
      />
      <DataTable
        tableKey="monitoring.parseReport.problems"
        caption={listed < report.counts.problems ? `Problems (the first ${listed} of ${report.counts.problems})` : 'Problems'}
        columns={problemColumns}
        rows={problems}
        rowKey="key"
        emptyText="No problems: every block of every log was read."
      />
    </Flex>
  );
}

/** Fetches a parse report; an unknown id says so where the report would be, instead of leaving the page. */
function useParseReport(id: number | null): { report: ParseReport | null; error: string | null } {
  const [state, setState] = useState<{ id: number | null; report: ParseReport | null; error: string | null }>({ id: null, report: null, error: null });
  useEffect(() => {
    if (id === null) return;
    let live = true;
    api
      .get<ParseReport>('Parser/GetParseReport', { params: { id }, skipLoading: true, skipErrorHandling: true })
      .then(({ data }) => live && setState({ id, report: data, error: null }))
      .catch((error: unknown) => live && setState({ id, report: null, error: errorMessage(error) }));
    return () => {
      live = false;
    };
  }, [id]);
  return state.id === id ? state : { report: null, error: null };
}

export function ParseReportView({ id, details }: { id: number; details?: boolean }) {
  const { report, error } = useParseReport(id);
  if (error) return <Alert type="error" showIcon title={error} />;
  if (!report) return <Skeleton active aria-label="Loading the parse report" />;
  return <ParseReportBody report={report} details={details} />;
}

/** The report of one parse, from the history or a `?report=<id>` link. */
export function ParseReportDrawer({ id, onClose }: { id: number | null; onClose: () => void }) {
  return (
    <Drawer title={id === null ? 'Parse report' : `Parse report #${id}`} open={id !== null} onClose={onClose} size={1100} destroyOnHidden>
      {id !== null && <ParseReportView id={id} />}
    </Drawer>
  );
}
