import { lazy, Suspense, useState } from 'react';
import type { ImportResponse } from 'api/contracts';

/** Job kind of the tracking imports (the API's `tracking.import`): its `JobProgress` events feed the dialog's bar. */
export const IMPORT_JOB_KIND = 'tracking.import';

export interface ImportDialogProps {
  /** E.g. 'Import Commissioning Plan'. */
  title: string;
  open: boolean;
  onClose: () => void;
  /** The import call; it receives the upload id as `filePath` (specification §7 import flow). */
  importPath: string;
  acceptedTypes?: string[];
  /** Called after a successful import, so the page reloads its table and banner. */
  onImported?: (result: ImportResponse) => void;
  /** Job kind whose `JobProgress` the dialog shows while the import call is pending. */
  jobKind?: string;
}

// The dialog (drop zone, upload, job progress, problem table) loads the first time it opens: a page
// with an Import button carries only the button until then.
const ImportDialogBody = lazy(() => import('./ImportDialogBody'));

/** A tracking import: drop a workbook, follow the import job, read its problems or its success (specification §7). */
export function ImportDialog(props: ImportDialogProps) {
  const [opened, setOpened] = useState(props.open);
  if (props.open && !opened) setOpened(true);
  if (!opened) return null;
  return (
    <Suspense fallback={null}>
      <ImportDialogBody {...props} />
    </Suspense>
  );
}
