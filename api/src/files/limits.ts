/**
 * Bounds on what reading a user's file may cost (docs/architecture.md#files-and-archives). One place, so every engine that reads
 * workbooks or archives (tracking today, neighbour relations and logs later) refuses the same things.
 */

const MiB = 1024 * 1024;

export interface WorkbookLimits {
  /** Rows in one sheet. */
  maxRows: number;
  /** Cells in one sheet. */
  maxCells: number;
  /** Cells in one row, and the highest column a cell may sit in (a lone cell in column XFD widens the whole row). */
  maxCellsPerRow: number;
  /** Bytes of one text (a shared string, an inline string, a value, an attribute) as stored in the XML. */
  maxStringBytes: number;
  /** Entries of the shared-string table. */
  maxSharedStrings: number;
  /** Bytes of the shared-string table, inflated. */
  maxSharedStringBytes: number;
  /** Bytes of any other part (styles, workbook, relationships, media), inflated: exceljs builds objects from some of them. */
  maxPartBytes: number;
  /** Bytes of the whole workbook, inflated. */
  maxInflatedBytes: number;
  /** Parts (zip entries). */
  maxParts: number;
  /** Inflated ÷ compressed size a part over 1 MiB may declare; zip bombs declare hundreds to a thousand. */
  maxRatio: number;
}

/**
 * The tracking tables hold at most ~100–200k rows of ~20 columns; the bench imports 100k × 18, whose
 * sheet inflates to 76 MB (9 MB zipped, 8.5 to 1). The limits leave room above that and refuse the
 * probe's bombs (1,000,000 rows in 186 KB; one string of hundreds of MB).
 */
export const WORKBOOK_LIMITS: Readonly<WorkbookLimits> = {
  maxRows: 250_000,
  maxCells: 5_000_000,
  maxCellsPerRow: 1_000,
  // Excel caps a cell at 32,767 characters; at up to 8 bytes each in XML (UTF-8, entities, _x000D_) that is 262,136.
  maxStringBytes: 262_144,
  maxSharedStrings: 5_000_000,
  maxSharedStringBytes: 100_000_000,
  // Excel's own limit of 64,000 cell styles makes a styles part of ~7 MB.
  maxPartBytes: 16 * MiB,
  // 250,000 rows of the bench's shape inflate to ~190 MB.
  maxInflatedBytes: 500_000_000,
  maxParts: 10_000,
  maxRatio: 200,
};

export interface ArchiveLimits {
  /** Entries, directories included. */
  maxEntries: number;
  /** Bytes of all entries, inflated. */
  maxInflatedBytes: number;
  /** Bytes of an entry name (zip allows 65,535; no log file needs more than a path). */
  maxNameBytes: number;
}

/** Log archives (.zip uploads, ≤ 10 MB): text logs compress ~10 to 1, so 1 GB is 100× the largest upload. */
export const ARCHIVE_LIMITS: Readonly<ArchiveLimits> = {
  maxEntries: 10_000,
  maxInflatedBytes: 1_000_000_000,
  maxNameBytes: 1_024,
};

/**
 * Uploads a user may keep stored at once: a validation run sends up to 20 workbooks at a time, so 50
 * files leave room for two runs and a few imports; 200 MB is twenty uploads of the largest size.
 * Consumed uploads still count until they expire, so the bound is on disk, not on a status.
 */
export const UPLOAD_QUOTA = { maxFiles: 50, maxBytes: 200_000_000 } as const;

const HOUR = 60 * 60 * 1000;

/**
 * How long files stay: an upload nobody used for a day was abandoned; a used one is kept an hour (a
 * retry, the error workbook); an export is a download link, kept a week.
 */
export const FILE_RETENTION = {
  unusedUploadMs: 24 * HOUR,
  usedUploadMs: HOUR,
  exportMs: 7 * 24 * HOUR,
  purgeEveryMs: 10 * 60 * 1000,
} as const;
