import { CodeOutlined } from '@ant-design/icons';
import { Button, Grid, Tooltip, type ButtonProps } from 'antd';
import { useState } from 'react';
import { api, errorMessage } from 'shared-auth';
import { downloadExport, type FileResponse } from '../files/transfer';
import { useToasts } from '../toasts/toasts';

export interface ScriptsDownloadProps {
  /** The run kind's scripts call, e.g. 'Validation/GetNbrRelationsValidationScripts'. */
  path: string;
  /** Its run id parameter, as the kind's export call names it (e.g. 'nbrRelationsValidationId'). */
  idParam: string;
  runId: number;
  size?: ButtonProps['size'];
}

export const SCRIPTS_LABEL = 'Download corrective scripts';

/**
 * Downloads a run's corrective AMOS scripts (a zip: one .mos per node, its undo, a README), placed next
 * to the run's workbook download. A run that found nothing a command can correct answers 404 with a
 * message: that is news about the run, shown as a notice, not the 404 page the API client opens for a
 * missing resource.
 */
export function ScriptsDownload({ path, idParam, runId, size }: ScriptsDownloadProps) {
  const toasts = useToasts();
  const [busy, setBusy] = useState(false);
  // On a phone the run card's title and both downloads share one line: the icon says it, with its tooltip and name.
  const narrow = Grid.useBreakpoint().sm === false;
  const download = async () => {
    setBusy(true);
    try {
      let file: string;
      try {
        ({ file } = (await api.get<FileResponse>(path, { params: { [idParam]: runId }, skipErrorHandling: true, outlivesPage: true })).data);
      } catch (error) {
        const status = (error as { response?: { status?: number } }).response?.status;
        if (status === 404) toasts.info(errorMessage(error));
        else toasts.error(errorMessage(error));
        return;
      }
      await downloadExport(file);
    } catch {
      // The download itself failed: silent, as every download (specification §8).
    } finally {
      setBusy(false);
    }
  };
  const button = (
    <Button size={size} icon={<CodeOutlined />} loading={busy} onClick={() => void download()} aria-label={`${SCRIPTS_LABEL} of run ${runId}`}>
      {narrow ? null : SCRIPTS_LABEL}
    </Button>
  );
  return narrow ? <Tooltip title={SCRIPTS_LABEL}>{button}</Tooltip> : button;
}
