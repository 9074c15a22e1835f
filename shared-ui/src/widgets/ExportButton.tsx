import { DownloadOutlined } from '@ant-design/icons';
import { Button, Flex, type ButtonProps } from 'antd';
import { useState, type ReactNode } from 'react';
import { api } from 'shared-auth';
import { downloadExport, type FileResponse } from '../files/transfer';
import { useToasts } from '../toasts/toasts';
import { useFollowedJob } from './followedJob';
import { LazyJobProgressBar } from './LazyJobProgressBar';

export interface ExportButtonProps {
  /** The call that writes the workbook and answers `{ file, message? }`, e.g. 'Tracker/DownloadTracker'. */
  path: string;
  params?: Record<string, string | number>;
  children: ReactNode;
  type?: ButtonProps['type'];
  /** Job kind the call runs as (e.g. 'tracking.export'): its `JobProgress` shows beside the button. */
  jobKind?: string;
}

const PREPARING = 'Preparing the file…';

/**
 * Runs an export and downloads the file it produced (docs/architecture.md#api-conventions: runs answer an export id, not a path).
 * An export of a large table takes a while: it runs as a job on the server, its progress shows beside
 * the button, and the page stays usable meanwhile (no full-screen overlay, docs/architecture.md#how-a-job-flows).
 */
export function ExportButton({ path, params, children, type, jobKind }: ExportButtonProps) {
  const toasts = useToasts();
  const { job, follow } = useFollowedJob(jobKind ?? null);
  const [busy, setBusy] = useState(false);
  const run = async () => {
    setBusy(true);
    try {
      const { data } = await follow(() => api.get<FileResponse>(path, { params, skipLoading: true, outlivesPage: true }));
      if (data.message) toasts.success(data.message);
      await downloadExport(data.file);
    } catch {
      // The API client has shown why the export failed; download failures stay silent (specification §8).
    } finally {
      setBusy(false);
    }
  };
  return (
    <Flex align="center" gap={8}>
      <Button type={type} icon={<DownloadOutlined />} loading={busy} onClick={() => void run()}>
        {children}
      </Button>
      {busy ? (
        <div role="status" aria-label="Export progress" style={{ width: 170 }}>
          {/* Shown only while an export runs: antd's Progress loads then, not with every table page. */}
          <LazyJobProgressBar job={job} label="Export progress" pendingText={PREPARING} />
        </div>
      ) : null}
    </Flex>
  );
}
