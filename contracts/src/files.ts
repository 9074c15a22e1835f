import { Type, type Static } from '@sinclair/typebox';

/**
 * File service (docs/architecture.md#files-and-archives). Uploads answer an opaque id owned by the uploader; imports take that id
 * (never a server path). Exports are recorded and served only to their owner through File/Download.
 *
 * - `POST /api/File/Upload`: multipart/form-data, one file part named `file` → 200 `UploadedFile`.
 * - `POST /api/File/UploadMultiple`: multipart/form-data, repeated file parts named `files` → 200
 *   `UploadedFiles` (all or nothing: one refused file refuses the lot).
 * - Each file ≤ 10,000,000 bytes, else 413 `{ message: 'File {name} not valid. Please check file size.' }`.
 * - Accepted types, by extension AND content: `.xlsx` (a zip holding `[Content_Types].xml`), `.zip`
 *   (a zip), `.png` (PNG signature). Anything else: 400 `{ message }`. A `.zip` whose directory holds
 *   unsafe names (`../`, absolute), another archive, more than 10,000 entries or more than 1 GB inflated,
 *   and an `.xlsx` beyond the workbook limits (files/limits.ts), are refused the same way.
 * - Quota: a user keeps at most 50 uploads / 200,000,000 bytes; beyond that 429 `{ message }`. Unused
 *   uploads expire 24 hours after upload, used ones an hour after use, exports after 7 days.
 * - `GET /api/File/Download?file=<export id>`: the file, with `content-disposition: attachment;
 *   filename="…"; filename*=UTF-8''…`; 404 `{ message: 'File not found.' }` for unknown ids and
 *   other users' exports.
 */

/** Largest file accepted by File/Upload and File/UploadMultiple (specification §5, §9). */
export const MAX_UPLOAD_BYTES = 10_000_000;

/** Extensions the file service accepts (lower case, without the dot). */
export const UPLOAD_EXTENSIONS = ['xlsx', 'zip', 'png'] as const;
export type UploadExtension = (typeof UPLOAD_EXTENSIONS)[number];

export const UploadedFile = Type.Object(
  {
    /** Opaque: pass it as `filePath` (or `filesPath`) to the call that consumes the file. */
    uploadId: Type.String(),
    /** The file's name as sent, last path segment only, for display. */
    name: Type.String(),
    /** Bytes. */
    size: Type.Integer({ minimum: 0 }),
  },
  { additionalProperties: false },
);
export type UploadedFile = Static<typeof UploadedFile>;

export const UploadedFiles = Type.Object({ uploads: Type.Array(UploadedFile) }, { additionalProperties: false });
export type UploadedFiles = Static<typeof UploadedFiles>;

export const DownloadQuery = Type.Object(
  { file: Type.String({ minLength: 1, maxLength: 100, description: 'An export id, as answered by a call that produced a file.' }) },
  { additionalProperties: false },
);
export type DownloadQuery = Static<typeof DownloadQuery>;

/** What every call that produces a file answers (docs/architecture.md#api-conventions); the browser then calls File/Download?file=<file>. */
export const FileResponse = Type.Object(
  { file: Type.String({ description: 'Export id for File/Download.' }), message: Type.Optional(Type.String()) },
  { additionalProperties: false },
);
export type FileResponse = Static<typeof FileResponse>;
