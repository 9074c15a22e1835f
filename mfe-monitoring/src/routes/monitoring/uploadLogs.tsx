import { Alert, Button, Card, Flex } from 'antd';
import { lazy, Suspense, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import type { ParsedFile, ParseHistoryRow, ParseProblem, ParseResponse, UnusableLogsResponse } from 'contracts';
import { api, errorMessage, isApiError, useSession } from 'shared-auth';
import {
  DataTable,
  ExportButton,
  FileDropZone,
  InfoBanner,
  LazyJobProgressBar,
  Note,
  PageContainer,
  listFetcher,
  uploadFiles,
  useApiGet,
  useFollowedJob,
  useShownOnce,
  type DataColumn,
  type ProgressReporter,
} from 'shared-ui';
import { countsText } from '../../monitoring/parseCounts';

// The parse report (its tables, statistics and drawer) loads when a report is first shown, not with the page.
const ParseReportView = lazy(() => import('../../monitoring/parseReport').then((m) => ({ default: m.ParseReportView })));
const ParseReportDrawer = lazy(() => import('../../monitoring/parseReport').then((m) => ({ default: m.ParseReportDrawer })));

/** Job kind of the log parse (the API's `monitoring.parse`): its `JobProgress` events feed the bar. */
export const PARSE_JOB_KIND = 'monitoring.parse';

const PARSING = 'Parsing…';

/** A refused parse: its message, and for a 422 'nothing usable' answer every file's reasons (the message names the first few only). */
interface Refusal {
  refused: string;
  reasons: ReasonRow[];
  caption: string;
}
type Outcome = { parsed: ParseResponse } | Refusal;

/** One reason a file of a refused parse could not be read: a problem with its line, or the file's own reason. */
type ReasonRow = Omit<ParseProblem, 'line'> & { key: number; archive: string; file: string; line: number | null };

// The columns of the parse report's problem table, under its key: hiding or widening one there does it here too.
const REASONS_TABLE_KEY = 'monitoring.parseReport.problems';
const reasonColumns: Array<DataColumn<ReasonRow>> = [
  { key: 'archive', title: 'Archive' },
  { key: 'file', title: 'File' },
  { key: 'line', title: 'Line', kind: 'number' },
  { key: 'command', title: 'Command' },
  { key: 'reason', title: 'Reason', wrap: true },
];

function refusalOf(error: unknown): Refusal {
  const refused = errorMessage(error);
  const body = isApiError(error) && error.response?.status === 422 ? (error.response.data as Partial<UnusableLogsResponse> | undefined) : undefined;
  const files: ParsedFile[] = Array.isArray(body?.files) ? body.files : [];
  const reasons = files
    .flatMap((f): Array<Omit<ReasonRow, 'key'>> => {
      if (f.problems.length > 0) return f.problems.map((p) => ({ ...p, archive: f.archive, file: f.file }));
      return f.reason === null ? [] : [{ archive: f.archive, file: f.file, line: null, command: null, reason: f.reason }];
    })
    .map((r, key) => ({ ...r, key }));
  // The answer lists the first 50 problems of a file; the caption says when some were left out.
  const all = files.reduce((sum, f) => sum + Math.max(f.problemCount, f.problems.length), 0);
  const listed = files.reduce((sum, f) => sum + f.problems.length, 0);
  const caption = listed < all ? `Why nothing could be read (the first ${listed} of ${all} problems)` : 'Why nothing could be read';
  return { refused, reasons, caption };
}

type HistoryRow = ParseHistoryRow & { actions?: undefined };

const fetchHistory = listFetcher<HistoryRow>('Parser/GetParseHistory');

/** `?report=<id>` (e.g. from a notification) opens that parse's report. */
function reportIdOf(value: string | null): number | null {
  if (value === null || !/^\d{1,10}$/.test(value)) return null;
  const id = Number(value);
  return id >= 1 && id <= 2_147_483_647 ? id : null;
}

export default function UploadLogsPage() {
  const userId = useSession((s) => s.user.id);
  const [search, setSearch] = useSearchParams();
  const reportId = reportIdOf(search.get('report'));
  const reportMounted = useShownOnce(reportId !== null);
  // Bumped after each parse: the banner and the history fetch again.
  const [version, setVersion] = useState(0);
  const { job, follow } = useFollowedJob(PARSE_JOB_KIND);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const logsDate = useApiGet<string | null>('Monitoring/GetLogsLastImport', null, version);

  const openReport = (id: number | null) =>
    setSearch(
      (previous) => {
        const next = new URLSearchParams(previous);
        if (id === null) next.delete('report');
        else next.set('report', String(id));
        return next;
      },
      { replace: id === null },
    );

  const parse = async (files: File[], onProgress: ProgressReporter) => {
    setOutcome(null);
    // An upload refusal (size, type, quota) is told by the API client's toast; the files stay for another try.
    const uploads = await uploadFiles(files, { onProgress });
    try {
      // The refusal is shown once, inline below the drop zone, so the API client's toast stays off.
      const { data } = await follow(() =>
        api.get<ParseResponse>('Parser/ParseEricssonLogs', {
          params: { filesPath: uploads.map((u) => u.uploadId).join(','), userId },
          skipLoading: true,
          skipErrorHandling: true,
        }),
      );
      // Said inline with the counts; the job's own notification (with the report's link) toasts too, so no third copy.
      setOutcome({ parsed: data });
    } catch (error) {
      setOutcome(refusalOf(error));
      throw error;
    } finally {
      setVersion((v) => v + 1);
    }
  };

  const historyColumns: Array<DataColumn<HistoryRow>> = [
    {
      key: 'actions',
      title: 'Report',
      filter: false,
      sortable: false,
      render: (row) => (
        <Button
          size="small"
          onClick={(event) => {
            // The row's own click does the same.
            event.stopPropagation();
            openReport(row.id);
          }}
          // Starts with the words shown, so a user who says what they see reaches it (axe label-content-name-mismatch).
          aria-label={`View report of parse ${row.id}`}
        >
          View report
        </Button>
      ),
    },
    { key: 'id', title: 'Id', kind: 'number' },
    { key: 'parsedAt', title: 'Parsed At', kind: 'date' },
    { key: 'parsedBy', title: 'Parsed By' },
    { key: 'archives', title: 'Archives' },
    { key: 'logsDate', title: 'Logs Date', kind: 'date' },
    { key: 'files', title: 'Files', kind: 'number' },
    { key: 'parsed', title: 'Parsed', kind: 'number' },
    { key: 'unreachable', title: 'Unreachable', kind: 'number' },
    { key: 'notInInventory', title: 'Not In Inventory', kind: 'number' },
    { key: 'failed', title: 'Failed', kind: 'number' },
    { key: 'problems', title: 'Problems', kind: 'number' },
  ];

  return (
    <PageContainer title="Upload Logs" actions={<ExportButton path="Parser/GetMoBacthScripts">Get MoBatch Scripts</ExportButton>}>
      <InfoBanner label="Logs date" date={logsDate.data} loading={logsDate.loading} fallback="Logs date unavailable!" />
      <Card title="Upload MoBatch logs" size="small">
        <Flex vertical gap={12}>
          <Note paragraph style={{ margin: 0 }}>
            Run the MoBatch scripts, zip each log folder (one &lt;node&gt;.log per node and mobatch_result.txt; a command's output pasted into a .txt file is
            read too), and drop the .zip files here.
          </Note>
          <FileDropZone
            multiple
            acceptedTypes={['.zip']}
            onUpload={userId === null ? undefined : parse}
            uploadLabel="Upload and parse"
            processingLabel={PARSING}
            processing={<LazyJobProgressBar job={job} label="Parse progress" pendingText={PARSING} />}
          />
          {outcome && 'refused' in outcome && <Alert type="error" showIcon title={outcome.refused} data-testid="parse-refusal" />}
          {outcome && 'refused' in outcome && outcome.reasons.length > 0 && (
            <DataTable tableKey={REASONS_TABLE_KEY} caption={outcome.caption} columns={reasonColumns} rows={outcome.reasons} rowKey="key" />
          )}
          {outcome && 'parsed' in outcome && (
            <>
              <Alert
                type="success"
                showIcon
                title={outcome.parsed.message}
                description={countsText(outcome.parsed.counts)}
                action={
                  <Button size="small" onClick={() => openReport(outcome.parsed.parseId)}>
                    Open report
                  </Button>
                }
              />
              <Suspense fallback={null}>
                <ParseReportView id={outcome.parsed.parseId} details={false} />
              </Suspense>
            </>
          )}
        </Flex>
      </Card>
      <DataTable
        tableKey="monitoring.uploadLogs.history"
        caption="Parse History"
        columns={historyColumns}
        fetchPage={fetchHistory}
        rowKey="id"
        reloadKey={version}
        emptyText="No logs parsed yet: upload MoBatch logs above."
        onRowClick={(row) => openReport(row.id)}
      />
      {reportMounted && (
        <Suspense fallback={null}>
          <ParseReportDrawer id={reportId} onClose={() => openReport(null)} />
        </Suspense>
      )}
    </PageContainer>
  );
}
