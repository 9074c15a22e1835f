import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Kysely } from 'kysely';
import { MAX_UPLOAD_BYTES, type UploadExtension, type UploadedFile } from '../contracts/files';
import type { Database } from '../db/schema';
import {
  contentProblem,
  displayName as displayNameOf,
  tooLargeMessage,
  uploadExtension,
  unsupportedTypeMessage,
  zipEntryNames,
  ZIP_TAIL_BYTES,
} from './content';

/** A refusal the caller caused; the error handler answers `{ message }` with this status. */
export class FileServiceError extends Error {
  override readonly name = 'FileServiceError';
  constructor(
    readonly statusCode: 400 | 404 | 413,
    message: string,
  ) {
    super(message);
  }
}

export const UPLOAD_NOT_FOUND = 'Upload not found.';
export const EXPORT_NOT_FOUND = 'File not found.';
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

/** Facts about a file on disk that the content check needs: its first bytes and, if it is a zip, its entry names. */
function readFacts(file: string, size: number): { head: Buffer; zipEntries: string[] | null } {
  const fd = fs.openSync(file, 'r');
  try {
    const readAt = (offset: number, length: number) => {
      const buffer = Buffer.alloc(Math.max(0, Math.min(length, size - offset)));
      const read = fs.readSync(fd, buffer, 0, buffer.length, offset);
      return buffer.subarray(0, read);
    };
    const head = readAt(0, 16);
    const tailLength = Math.min(size, ZIP_TAIL_BYTES);
    const tail = readAt(size - tailLength, tailLength);
    return { head, zipEntries: size >= 22 ? zipEntryNames(tail, size, readAt) : null };
  } finally {
    fs.closeSync(fd);
  }
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
    const problem = contentProblem(name, extension, readFacts(partial, size));
    if (problem) throw new FileServiceError(400, problem);
    fs.renameSync(partial, path.join(dir, UPLOAD_FILE));
    return { uploadId: id, name, size, extension, dir };
  } catch (error) {
    fs.rmSync(dir, { recursive: true, force: true });
    if ((error as { code?: unknown }).code === 'FST_REQ_FILE_TOO_LARGE') throw new FileServiceError(413, tooLargeMessage(name));
    throw error;
  }
}

export async function recordUploads(db: Kysely<Database>, userId: number, uploads: readonly StoredUpload[]): Promise<void> {
  if (uploads.length === 0) return;
  const createdAt = new Date().toISOString();
  await db
    .insertInto('file_uploads')
    .values(uploads.map((u) => ({ id: u.uploadId, user_id: userId, name: u.name, extension: u.extension, size: u.size, created_at: createdAt })))
    .execute();
}

export interface ResolvedUpload {
  id: string;
  name: string;
  size: number;
  /** Absolute path of the stored file. */
  file: string;
}

/**
 * What an import call uses to turn an upload id into a file: only the caller's own uploads resolve
 * (someone else's id answers exactly like an unknown one), and only of the type the import reads.
 */
export async function resolveUpload(
  db: Kysely<Database>,
  dataDir: string,
  uploadId: string,
  userId: number,
  expectedExtension: UploadExtension,
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
