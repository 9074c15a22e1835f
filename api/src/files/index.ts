export { contentDisposition, contentTypeOf, displayName, tooLargeMessage, zipEntryNames } from './content';
export { ARCHIVE_LIMITS, FILE_RETENTION, UPLOAD_QUOTA, WORKBOOK_LIMITS, type ArchiveLimits, type WorkbookLimits } from './limits';
export { purgeExpiredFiles, startPurgeTimer, type PurgeResult, type PurgeTimer } from './purge';
export {
  EXPORT_NOT_FOUND,
  FileServiceError,
  QUOTA_MESSAGES,
  UPLOAD_NOT_FOUND,
  assertUploadRoom,
  exportsDir,
  findExport,
  newExport,
  recordExport,
  recordUploads,
  resolveUpload,
  storeUpload,
  uploadsDir,
  type ExportFile,
  type PendingExport,
  type ResolvedUpload,
  type StoredUpload,
} from './store';
export { NOT_A_WORKBOOK, WORKBOOK_MESSAGES, WorkbookBoundsError, checkWorkbookBounds, workbookDirectoryProblem } from './workbook-bounds';
export {
  ARCHIVE_MESSAGES,
  ZipReadError,
  archiveDirectoryProblem,
  isUnsafeEntryName,
  readArchive,
  readArchiveFiles,
  type ArchiveFile,
  type ArchiveFileData,
} from './zip';
