import fs from 'node:fs';
import fastifyMultipart from '@fastify/multipart';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyRequest } from 'fastify';
import { DownloadQuery, ErrorResponse, MAX_UPLOAD_BYTES, UploadedFile, UploadedFiles } from 'contracts';
import { systemClock } from '../auth/clock';
import {
  assertUploadRoom,
  contentDisposition,
  contentTypeOf,
  findExport,
  FileServiceError,
  purgeExpiredFiles,
  recordUploads,
  startPurgeTimer,
  storeUpload,
  type PurgeTimer,
  type StoredUpload,
} from '../files';
import { userIdOf } from './support';

/** Most files one UploadMultiple takes (a validation run reads a handful of workbooks). */
export const MAX_FILES_PER_REQUEST = 20;

export const FILE_MESSAGES = {
  noFile: 'Send the file as a file part of a multipart form.',
  oneFile: 'Send one file at a time, or use File/UploadMultiple.',
  tooMany: `Send at most ${MAX_FILES_PER_REQUEST} files at once.`,
  notMultipart: 'Send the file as multipart/form-data.',
  noFields: 'Send files only, no form fields.',
} as const;

function multipartProblem(error: unknown): FileServiceError | null {
  const code = (error as { code?: unknown } | null)?.code;
  if (code === 'FST_FILES_LIMIT') return new FileServiceError(400, FILE_MESSAGES.tooMany);
  if (code === 'FST_PARTS_LIMIT' || code === 'FST_FIELDS_LIMIT') return new FileServiceError(400, FILE_MESSAGES.noFields);
  if (code === 'FST_INVALID_MULTIPART_CONTENT_TYPE') return new FileServiceError(400, FILE_MESSAGES.notMultipart);
  return null;
}

/**
 * Reads every part of the request to disk, all or nothing: a refused file (size, type, content) removes
 * the files already stored by this request before the refusal is answered.
 */
async function storeParts(request: FastifyRequest, dataDir: string, maxFiles: number): Promise<StoredUpload[]> {
  if (!request.isMultipart()) throw new FileServiceError(400, FILE_MESSAGES.notMultipart);
  const stored: StoredUpload[] = [];
  try {
    for await (const part of request.parts()) {
      if (part.type !== 'file') throw new FileServiceError(400, FILE_MESSAGES.noFields);
      if (stored.length >= maxFiles) {
        part.file.resume();
        throw new FileServiceError(400, maxFiles === 1 ? FILE_MESSAGES.oneFile : FILE_MESSAGES.tooMany);
      }
      stored.push(await storeUpload(dataDir, part.file, part.filename));
    }
    if (stored.length === 0) throw new FileServiceError(400, FILE_MESSAGES.noFile);
    return stored;
  } catch (error) {
    for (const upload of stored) fs.rmSync(upload.dir, { recursive: true, force: true });
    throw multipartProblem(error) ?? error;
  }
}

/** Records what storeParts kept; when that is refused (the quota), the files go too. */
async function recordOrRemove(request: FastifyRequest, uploads: StoredUpload[], now: number): Promise<void> {
  try {
    await recordUploads(request.server.services.db, userIdOf(request), uploads, now);
  } catch (error) {
    for (const upload of uploads) fs.rmSync(upload.dir, { recursive: true, force: true });
    throw error;
  }
}

/** The file's bytes; streams skip the serializer, the schema documents them. */
const DownloadBody = Type.Unsafe<NodeJS.ReadableStream>({ type: 'string', format: 'binary' });

export const fileRoutes: FastifyPluginAsyncTypebox = async (app) => {
  // Scoped here: the dump import has its own, far larger limit. The +1s let the handler answer in its own
  // words: the store sees the byte past the limit (413), and the file past the count ("one at a time").
  await app.register(fastifyMultipart, {
    limits: { fileSize: MAX_UPLOAD_BYTES + 1, files: MAX_FILES_PER_REQUEST + 1, fields: 1, parts: MAX_FILES_PER_REQUEST + 2 },
  });
  const tags = ['files'];
  const { db } = app.services;
  const dataDir = app.services.config.dataDir;
  const clock = app.services.clock ?? systemClock;
  const errors = { 400: ErrorResponse, 401: ErrorResponse, 403: ErrorResponse, 413: ErrorResponse, 429: ErrorResponse };

  // Expiry (docs/architecture.md#files-and-archives): at start-up, then on an interval this app owns and stops when it closes.
  let purge: PurgeTimer | null = null;
  app.addHook('onReady', async () => {
    purge = startPurgeTimer(
      async () => {
        const result = await purgeExpiredFiles(db, dataDir, clock());
        if (result.uploads + result.exports + result.orphans > 0) app.log.info(result, 'expired files removed');
      },
      (error) => app.log.error({ err: error }, 'could not remove expired files'),
    );
    await purge.first;
  });
  app.addHook('onClose', async () => {
    await purge?.stop();
  });

  app.post(
    '/File/Upload',
    {
      schema: {
        summary: 'Upload one file (.xlsx, .zip or .png, at most 10,000,000 bytes); answers an upload id for the call that uses it',
        description:
          'multipart/form-data with one file part (named `file`). The type is checked by extension and content (a .zip or .xlsx also by its directory: entry names, count and declared sizes). 429 when the caller already keeps 50 files or 200,000,000 bytes of uploads; unused uploads expire after 24 hours, used ones an hour after use.',
        tags,
        security: [{ bearer: [] }],
        consumes: ['multipart/form-data'],
        response: { 200: UploadedFile, ...errors },
      },
      config: { access: 'authenticated' },
    },
    async (request) => {
      await assertUploadRoom(db, userIdOf(request));
      const [upload] = await storeParts(request, dataDir, 1);
      if (!upload) throw new FileServiceError(400, FILE_MESSAGES.noFile);
      await recordOrRemove(request, [upload], clock());
      return { uploadId: upload.uploadId, name: upload.name, size: upload.size };
    },
  );

  app.post(
    '/File/UploadMultiple',
    {
      schema: {
        summary: `Upload up to ${MAX_FILES_PER_REQUEST} files at once, all or nothing`,
        description:
          'multipart/form-data with repeated file parts (named `files`). One refused file refuses them all; the quota of File/Upload counts them all.',
        tags,
        security: [{ bearer: [] }],
        consumes: ['multipart/form-data'],
        response: { 200: UploadedFiles, ...errors },
      },
      config: { access: 'authenticated' },
    },
    async (request) => {
      await assertUploadRoom(db, userIdOf(request));
      const uploads = await storeParts(request, dataDir, MAX_FILES_PER_REQUEST);
      await recordOrRemove(request, uploads, clock());
      return { uploads: uploads.map((u) => ({ uploadId: u.uploadId, name: u.name, size: u.size })) };
    },
  );

  app.get(
    '/File/Download',
    {
      schema: {
        summary: 'Download an export of the caller (its name is in content-disposition)',
        tags,
        security: [{ bearer: [] }],
        querystring: DownloadQuery,
        response: { 200: DownloadBody, 400: ErrorResponse, 401: ErrorResponse, 403: ErrorResponse, 404: ErrorResponse },
      },
      // A download opened in a new tab cannot send the header.
      config: { access: 'authenticated', queryToken: true },
    },
    async (request, reply) => {
      const found = await findExport(db, dataDir, request.query.file, userIdOf(request));
      return reply
        .header('content-disposition', contentDisposition(found.fileName))
        .header('content-length', found.size)
        .header('cache-control', 'private, no-store')
        .type(contentTypeOf(found.fileName))
        .send(fs.createReadStream(found.file));
    },
  );
};
