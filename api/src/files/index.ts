export { contentDisposition, contentTypeOf, displayName, tooLargeMessage, zipEntryNames } from './content';
export {
  EXPORT_NOT_FOUND,
  FileServiceError,
  UPLOAD_NOT_FOUND,
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
