import { DownloadOutlined } from '@ant-design/icons';
import { Button, type ButtonProps } from 'antd';
import { useState, type ReactNode } from 'react';
import { api } from 'shared-auth';
import { downloadExport, type FileResponse } from '../files/transfer';
import { useToasts } from '../toasts/toasts';

export interface ExportButtonProps {
  /** The call that writes the workbook and answers `{ file, message? }`, e.g. 'Tracker/DownloadTracker'. */
  path: string;
  params?: Record<string, string | number>;
  children: ReactNode;
  type?: ButtonProps['type'];
}

/** Runs an export and downloads the file it produced (DESIGN §3: runs answer an export id, not a path). */
export function ExportButton({ path, params, children, type }: ExportButtonProps) {
  const toasts = useToasts();
  const [busy, setBusy] = useState(false);
  const run = async () => {
    setBusy(true);
    try {
      const { data } = await api.get<FileResponse>(path, { params });
      if (data.message) toasts.success(data.message);
      await downloadExport(data.file);
    } catch {
      // The API client has shown why the export failed; download failures stay silent (specification §8).
    } finally {
      setBusy(false);
    }
  };
  return (
    <Button type={type} icon={<DownloadOutlined />} loading={busy} onClick={() => void run()}>
      {children}
    </Button>
  );
}
