import { DownloadOutlined } from '@ant-design/icons';
import { Button } from 'antd';
import { useState, type ReactNode } from 'react';
import { api } from 'shared-auth';
import { downloadExport, type FileResponse } from '../files/transfer';

/** The calls of a run kind, as the specification names them (e.g. 'Validation/GetCpichValidationExport' with 'cpichValidationId'). */
export interface RunRoutes {
  findingsPath: string;
  exportPath: string;
  idParam: string;
  /** The kind's corrective AMOS scripts call (ScriptsDownload), for kinds whose findings a command can correct. */
  scriptsPath?: string;
}

/**
 * A run's workbook, fetched through the kind's export route as a fresh export when the user asks for
 * it (a run never downloads on its own): the same button on every run's result and history row.
 */
export function RunWorkbookButton({
  runId,
  routes,
  label,
  children,
}: {
  runId: number;
  routes: Pick<RunRoutes, 'exportPath' | 'idParam'>;
  label?: string;
  children: ReactNode;
}) {
  const [busy, setBusy] = useState(false);
  const download = async () => {
    setBusy(true);
    try {
      const { data } = await api.get<FileResponse>(routes.exportPath, { params: { [routes.idParam]: runId }, outlivesPage: true });
      await downloadExport(data.file);
    } catch {
      // The API client has said why.
    } finally {
      setBusy(false);
    }
  };
  return (
    <Button size="small" icon={<DownloadOutlined />} loading={busy} onClick={() => void download()} aria-label={label}>
      {children}
    </Button>
  );
}
