import { DownloadOutlined } from '@ant-design/icons';
import { Alert, Button, Flex, Modal } from 'antd';
import { useState } from 'react';
import type { ImportErrorResponse, ImportProblem, ImportResponse, MAX_REPORTED_PROBLEMS } from 'contracts';
import { api, errorMessage } from 'shared-auth';
import { downloadExport, uploadFiles } from '../files/transfer';
import { useToasts } from '../toasts/toasts';
import { DataTable, type DataColumn } from './DataTable';
import { FileDropZone, type ProgressReporter } from './FileDropZone';
import { IMPORT_JOB_KIND, type ImportDialogProps } from './importDialogProps';
import { useFollowedJob } from './followedJob';
import { JobProgressBar } from './JobProgressBar';

/** The API lists at most this many problems; the error workbook has every row. */
const REPORTED_PROBLEMS: typeof MAX_REPORTED_PROBLEMS = 200;

const IMPORTING = 'Importing…';
const IMPORT_DIALOG_WIDTH = 640;

interface Failure {
  message: string;
  problems: ImportProblem[];
  errorFile?: string;
}

interface ProblemRow extends ImportProblem {
  key: number;
}

const problemColumns: Array<DataColumn<ProblemRow>> = [
  { key: 'row', title: 'Row', kind: 'number' },
  { key: 'column', title: 'Column' },
  { key: 'problem', title: 'Problem', wrap: true },
];

/** The body of a 400 answer, read from the API client's error without tying this package to the client's error class. */
function refusalOf(error: unknown): ImportErrorResponse | null {
  const response = (error as { response?: { status?: number; data?: unknown } } | null)?.response;
  if (response?.status !== 400) return null;
  const data = response.data;
  return data && typeof data === 'object' && 'message' in data ? (data as ImportErrorResponse) : null;
}

function ImportFailure({ failure }: { failure: Failure }) {
  const [downloading, setDownloading] = useState(false);
  const count = failure.problems.length;
  return (
    <Flex vertical gap={8} data-testid="import-problems">
      <Alert
        type="error"
        showIcon
        title={failure.message}
        description={
          count === 0
            ? undefined
            : count >= REPORTED_PROBLEMS
              ? `The first ${count} problems are listed below; the error workbook marks every row.`
              : `${count === 1 ? 'One problem' : `${count} problems`} listed below.`
        }
        action={
          failure.errorFile ? (
            <Button
              size="small"
              icon={<DownloadOutlined />}
              loading={downloading}
              onClick={() => {
                setDownloading(true);
                downloadExport(failure.errorFile!)
                  .catch(() => undefined)
                  .finally(() => setDownloading(false));
              }}
            >
              Download error workbook
            </Button>
          ) : undefined
        }
      />
      {count > 0 && (
        <DataTable<ProblemRow> caption="Problems" columns={problemColumns} rows={failure.problems.map((p, i) => ({ ...p, key: i }))} rowKey="key" />
      )}
    </Flex>
  );
}

/**
 * Upload → import → close: the file goes to the file service with progress, its upload id to the
 * import call; success shows the server's message and closes, a refused file keeps the dialog open
 * with the row-by-row problems. While the import call is pending, the first job of `jobKind` that reports
 * progress is taken as this import's (one import at a time per dialog) and its stage is shown. Every
 * opening starts clean.
 */
/** The dialog itself, loaded by {@link ImportDialog} the first time it opens. */
export default function ImportDialogBody({
  title,
  open,
  onClose,
  importPath,
  acceptedTypes = ['.xlsx'],
  onImported,
  jobKind = IMPORT_JOB_KIND,
}: ImportDialogProps) {
  const toasts = useToasts();
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<Failure | null>(null);
  const { job, follow } = useFollowedJob(jobKind);

  const close = () => {
    setFailure(null);
    onClose();
  };

  const run = async (files: File[], onProgress: ProgressReporter) => {
    setBusy(true);
    setFailure(null);
    try {
      const [upload] = await uploadFiles(files, { onProgress });
      // The import reports its own progress and its refusal in the dialog; the overlay and the error toast would repeat them.
      const { data } = await follow(() =>
        api.get<ImportResponse>(importPath, { params: { filePath: upload!.uploadId }, skipLoading: true, skipErrorHandling: true }),
      );
      toasts.success(data.message);
      setFailure(null);
      onImported?.(data);
      onClose();
    } catch (error) {
      const refusal = refusalOf(error);
      setFailure({ message: refusal?.message ?? errorMessage(error), problems: refusal?.errors ?? [], errorFile: refusal?.errorFile });
      throw error;
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal
      title={title}
      open={open}
      onCancel={close}
      destroyOnHidden
      closable={!busy}
      mask={{ closable: !busy }}
      keyboard={!busy}
      // One width whatever it shows: it grew from 560 to 880 px under the pointer when problems arrived (issue 47);
      // the problem table scrolls sideways inside it instead.
      width={IMPORT_DIALOG_WIDTH}
      footer={
        <Button onClick={close} disabled={busy}>
          Close
        </Button>
      }
    >
      <Flex vertical gap={16}>
        <FileDropZone
          acceptedTypes={acceptedTypes}
          onUpload={run}
          processingLabel={IMPORTING}
          processing={<JobProgressBar job={job} label="Import progress" pendingText={IMPORTING} />}
        />
        {failure && <ImportFailure failure={failure} />}
      </Flex>
    </Modal>
  );
}
