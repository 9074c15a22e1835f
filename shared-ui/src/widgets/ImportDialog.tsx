import { lazy, Suspense, useState } from 'react';
import type { ImportDialogProps } from './importDialogProps';

export { IMPORT_JOB_KIND, type ImportDialogProps } from './importDialogProps';

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
