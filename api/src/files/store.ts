import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { PostgresAdapter, sql, type Kysely } from 'kysely';
import { MAX_UPLOAD_BYTES, type UploadExtension, type UploadedFile } from 'contracts';
import type { Database } from '../db/schema';
import { contentProblem, displayName as displayNameOf, tooLargeMessage, uploadExtension, unsupportedTypeMessage, type ContentFacts } from './content';
import { UPLOAD_QUOTA } from './limits';
import { formatCount, zipLayout, type DirectoryEntry, type ZipDamage } from './zip';

/** A refusal the caller caused; the error handler answers `{ message }` with this status. */
export class FileServiceError extends Error {
  override readonly name = 'FileServiceError';
  constructor(
    readonly statusCode: 400 | 404 | 413 | 429,
    message: string,
  ) {
    super(message);
  }
}

export const UPLOAD_NOT_FOUND = 'Upload not found.';
export const EXPORT_NOT_FOUND = 'File not found.';
const QUOTA_HINT = 'Unused uploads are removed 24 hours after upload, used ones an hour after use.';
export const QUOTA_MESSAGES = {
  files: `You have ${UPLOAD_QUOTA.maxFiles} uploaded files stored, the most one user may keep. ${QUOTA_HINT}`,
  bytes: `Your stored uploads would take more than ${formatCount(UPLOAD_QUOTA.maxBytes)} bytes, the most one user may keep. ${QUOTA_HINT}`,
} as const;
/** Arbitrary but fixed: with the user id, serialises one user's quota checks across API instances on PostgreSQL. */
const QUOTA_LOCK_KEY = 7_316_013;
/** The one name an upload has on disk: its directory is the (random) id, so nothing the user sent is a path. */
const UPLOAD_FILE = 'content';
const PARTIAL_FILE = 'content.partial';
const ID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export function uploadsDir(dataDir: string): string {
  return path.join(dataDir, 'files', 'uploads');
}

export function exportsDir(dataDir: string): string {
  return path.join(dataDir, 'files', 'exports');
}

function counting(limit: number, name: string): Transform {
  let bytes = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      bytes += chunk.length;
      if (bytes > limit) done(new FileServiceError(413, tooLargeMessage(name)));
      else done(null, chunk);
    },
  });
}

/**
 * Facts about a file on disk that the content check needs: its first bytes and, for a zip or workbook,
 * its entries, checked against their local headers (a zip whose directory hides or overlaps entries
 * counts as no zip). The file is read whole: it is at most MAX_UPLOAD_BYTES and was just written.
 */
function readFacts(file: string, extension: UploadExtension): ContentFacts {
  if (extension === 'png') {
    const fd = fs.openSync(file, 'r');
    try {
      const head = Buffer.alloc(16);
      return { head: head.subarray(0, fs.readSync(fd, head, 0, head.length, 0)), zipEntries: null };
    } finally {
      fs.closeSync(fd);
    }
  }
  const zip = fs.readFileSync(file);
  let zipEntries: DirectoryEntry[] | null;
  // What the refusal says: an encrypted entry, ZIP64 or overlapping entries rather than "not a zip".
  let zipDamage: ZipDamage | undefined;
  try {
    zipEntries = zipLayout(zip, (damage) => {
      zipDamage = damage;
      return new Error('not a zip');
    });
  } catch {
    zipEntries = null;
  }
  return { head: zip.subarray(0, 16), zipEntries, zipDamage };
}

export interface StoredUpload extends UploadedFile {
  extension: UploadExtension;
  /** The upload's directory: removed again if the request fails after this file. */
  dir: string;
}

/**
 * Streams one file to `uploads/<id>/` under a temporary name, checks size (while streaming, so an
 * oversized file is never read to its end), extension and content, and renames it when all is well.
 * On any refusal the partial file and its directory are gone before the error leaves.
 */
export async function storeUpload(dataDir: string, file: Readable, sentName: string | undefined): Promise<StoredUpload> {
  const name = sentName === undefined ? 'file' : displayNameOf(sentName);
  const extension = uploadExtension(name);
  if (!extension) {
    file.resume();
    throw new FileServiceError(400, unsupportedTypeMessage(name));
  }
  const id = randomUUID();
  const dir = path.join(uploadsDir(dataDir), id);
  fs.mkdirSync(dir, { recursive: true });
  const partial = path.join(dir, PARTIAL_FILE);
  try {
    await pipeline(file, counting(MAX_UPLOAD_BYTES, name), fs.createWriteStream(partial, { flags: 'wx' }));
    // A parser that cut the file short at its own limit says so here.
    if ((file as Readable & { truncated?: boolean }).truncated) throw new FileServiceError(413, tooLargeMessage(name));
    const size = fs.statSync(partial).size;
    const problem = contentProblem(name, extension, readFacts(partial, extension));
    if (problem) throw new FileServiceError(400, problem);
    fs.renameSync(partial, path.join(dir, UPLOAD_FILE));
    return { uploadId: id, name, size, extension, dir };
  } catch (error) {
    fs.rmSync(dir, { recursive: true, force: true });
    if ((error as { code?: unknown }).code === 'FST_REQ_FILE_TOO_LARGE') throw new FileServiceError(413, tooLargeMessage(name));
    throw error;
  }
}

interface StoredTotals {
  files: number;
  bytes: number;
}

async function storedTotals(db: Kysely<Database>, userId: number): Promise<StoredTotals> {
  const row = await db
    .selectFrom('file_uploads')
    .select((eb) => [eb.fn.countAll<number | string>().as('files'), eb.fn.sum<number | string | null>('size').as('bytes')])
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return { files: Number(row?.files ?? 0), bytes: Number(row?.bytes ?? 0) };
}

function quotaProblem(stored: StoredTotals, adding: StoredTotals): string | null {
  if (stored.files + adding.files > UPLOAD_QUOTA.maxFiles) return QUOTA_MESSAGES.files;
  if (stored.bytes + adding.bytes > UPLOAD_QUOTA.maxBytes) return QUOTA_MESSAGES.bytes;
  return null;
}

/** Refuses (429) before a byte is read when the user's stored uploads already fill the quota. */
export async function assertUploadRoom(db: Kysely<Database>, userId: number): Promise<void> {
  const problem = quotaProblem(await storedTotals(db, userId), { files: 1, bytes: 0 });
  if (problem) throw new FileServiceError(429, problem);
}

/**
 * Records stored uploads, within the user's quota (UPLOAD_QUOTA): the check and the insert are one
 * transaction, so two requests at once cannot both squeeze in. Over the quota: 429, nothing recorded
 * (the caller removes the files).
 */
export async function recordUploads(db: Kysely<Database>, userId: number, uploads: readonly StoredUpload[], now = Date.now()): Promise<void> {
  if (uploads.length === 0) return;
  const createdAt = new Date(now).toISOString();
  await db.transaction().execute(async (trx) => {
    if (trx.getExecutor().adapter instanceof PostgresAdapter) await sql`select pg_advisory_xact_lock(${QUOTA_LOCK_KEY}, ${userId})`.execute(trx);
    const adding = { files: uploads.length, bytes: uploads.reduce((sum, u) => sum + u.size, 0) };
    const problem = quotaProblem(await storedTotals(trx, userId), adding);
    if (problem) throw new FileServiceError(429, problem);
    await trx
      .insertInto('file_uploads')
      .values(uploads.map((u) => ({ id: u.uploadId, user_id: userId, name: u.name, extension: u.extension, size: u.size, created_at: createdAt })))
      .execute();
  });
}

export interface ResolvedUpload {
  id: string;
  name: string;
  size: number;
  /** Absolute path of the stored file. */
  file: string;
}

/**
 * What an import call uses to turn an upload id into a file (and marks it used): only the caller's own uploads resolve
 * (someone else's id answers exactly like an unknown one), and only of the type the import reads.
 */
export async function resolveUpload(
  db: Kysely<Database>,
  dataDir: string,
  uploadId: string,
  userId: number,
  expectedExtension: UploadExtension,
  now = Date.now(),
): Promise<ResolvedUpload> {
  if (!ID_PATTERN.test(uploadId)) throw new FileServiceError(404, UPLOAD_NOT_FOUND);
  const row = await db
    .selectFrom('file_uploads')
    .select(['id', 'name', 'extension', 'size'])
    .where('id', '=', uploadId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  if (!row) throw new FileServiceError(404, UPLOAD_NOT_FOUND);
  if (row.extension !== expectedExtension) throw new FileServiceError(400, `File ${row.name} is not a .${expectedExtension} file.`);
  const file = path.join(uploadsDir(dataDir), row.id, UPLOAD_FILE);
  if (!fs.existsSync(file)) throw new FileServiceError(404, UPLOAD_NOT_FOUND);
  // Used: from now on it expires an hour after this use (a retry and the error workbook come sooner).
  await db
    .updateTable('file_uploads')
    .set({ consumed_at: new Date(now).toISOString() })
    .where('id', '=', row.id)
    .execute();
  return { id: row.id, name: row.name, size: Number(row.size), file };
}

export interface PendingExport {
  id: string;
  /** Where to write the file. */
  file: string;
  fileName: string;
  kind: string;
}

/** A new export's id and path; nothing is recorded until {@link recordExport}, so a failed writer leaves no download. */
export function newExport(dataDir: string, kind: string, fileName: string): PendingExport {
  const id = randomUUID();
  const dir = exportsDir(dataDir);
  fs.mkdirSync(dir, { recursive: true });
  const ext = /\.([A-Za-z0-9]+)$/.exec(fileName)?.[1]?.toLowerCase() ?? 'bin';
  return { id, file: path.join(dir, `${id}.${ext}`), fileName, kind };
}

export async function recordExport(db: Kysely<Database>, userId: number, pending: PendingExport): Promise<string> {
  const size = fs.statSync(pending.file).size;
  await db
    .insertInto('file_exports')
    .values({
      id: pending.id,
      user_id: userId,
      kind: pending.kind,
      file_name: pending.fileName,
      stored_name: path.basename(pending.file),
      size,
      created_at: new Date().toISOString(),
    })
    .execute();
  return pending.id;
}

export interface ExportFile {
  file: string;
  fileName: string;
  size: number;
}

/** A recorded export of this user; anything else (unknown, someone else's, gone from disk) is 404. */
export async function findExport(db: Kysely<Database>, dataDir: string, exportId: string, userId: number): Promise<ExportFile> {
  if (!ID_PATTERN.test(exportId)) throw new FileServiceError(404, EXPORT_NOT_FOUND);
  const row = await db
    .selectFrom('file_exports')
    .select(['stored_name', 'file_name', 'size'])
    .where('id', '=', exportId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  if (!row) throw new FileServiceError(404, EXPORT_NOT_FOUND);
  const file = path.join(exportsDir(dataDir), path.basename(row.stored_name));
  if (!fs.existsSync(file)) throw new FileServiceError(404, EXPORT_NOT_FOUND);
  return { file, fileName: row.file_name, size: Number(row.size) };
}
