import type { ImportResponse } from 'contracts';

// What the import dialog's loader (ImportDialog) and its lazily loaded body (ImportDialogBody) both read,
// in a module of its own so neither imports the other.

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
