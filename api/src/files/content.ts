import { UPLOAD_EXTENSIONS, type UploadExtension } from 'contracts';
import { workbookDirectoryProblem } from './workbook-bounds';
import { ARCHIVE_MESSAGES, archiveDirectoryProblem, readZipDirectory, type DirectoryEntry, type ZipDamage } from './zip';

/**
 * Pure checks of what a user sends: the name shown back to them, and whether the bytes are what the
 * extension claims. No I/O here; the store reads the bytes these functions judge.
 */

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
export { ZIP_TAIL_BYTES } from './zip';

/**
 * The name to display and record: only the last path segment (browsers on Windows once sent whole
 * paths), without control characters, bounded. Never used as a path on disk.
 */
export function displayName(filename: string | undefined, fallback = 'file'): string {
  // eslint-disable-next-line no-control-regex -- control characters (NUL included) are exactly what is removed
  const cleaned = (filename ?? '').replace(/[\u0000-\u001f\u007f]/g, '');
  const last = cleaned.split(/[\\/]/).pop()?.trim() ?? '';
  const name = last === '' || last === '.' || last === '..' ? fallback : last;
  return name.slice(-255);
}

/** The lower-case extension the service accepts, or null. */
export function uploadExtension(name: string): UploadExtension | null {
  const match = /\.([A-Za-z0-9]+)$/.exec(name);
  const ext = match?.[1]?.toLowerCase();
  return ext !== undefined && (UPLOAD_EXTENSIONS as readonly string[]).includes(ext) ? (ext as UploadExtension) : null;
}

/** A PNG by content: the signature, then the IHDR chunk every PNG must start with (a renamed JPEG shows as a broken image). */
export function isPng(head: Buffer): boolean {
  return head.length >= 16 && head.subarray(0, PNG_SIGNATURE.length).equals(PNG_SIGNATURE) && head.toString('latin1', 12, 16) === 'IHDR';
}

/**
 * Entry names from a zip's central directory, given the file's last bytes (at most ZIP_TAIL_BYTES) and a
 * way to read the directory itself. Null when the bytes are not a zip. The names are only compared,
 * never used as paths.
 */
export function zipEntryNames(tail: Buffer, fileSize: number, readAt: (offset: number, length: number) => Buffer): string[] | null {
  return readZipDirectory(tail, fileSize, readAt)?.entries.map((e) => e.name) ?? null;
}

export interface ContentFacts {
  /** The first bytes of the file (at least 8). */
  head: Buffer;
  /** The central directory when the file is a zip, null otherwise. */
  zipEntries: DirectoryEntry[] | null;
  /** Why it is no zip this service reads, when that can be told (encrypted, ZIP64, overlapping entries). */
  zipDamage?: ZipDamage;
}

/** Why the bytes do not match the extension, or null when they do. */
export function contentProblem(name: string, ext: UploadExtension, facts: ContentFacts): string | null {
  switch (ext) {
    case 'png':
      return isPng(facts.head) ? null : `File ${name} is not a PNG image.`;
    case 'zip':
      // Judged from the directory alone: whoever reads the archive later counts the real bytes (readArchive).
      return facts.zipEntries
        ? archiveDirectoryProblem(facts.zipEntries, `File ${name}`)
        : ARCHIVE_MESSAGES.damaged(`File ${name}`, facts.zipDamage, `File ${name} is not a zip archive.`);
    case 'xlsx':
      if (!facts.zipEntries?.some((e) => e.name === '[Content_Types].xml')) return `File ${name} is not an Excel workbook (.xlsx).`;
      return workbookDirectoryProblem(facts.zipEntries, `File ${name}`);
  }
}

export function unsupportedTypeMessage(name: string): string {
  return `File ${name} is not accepted: send ${UPLOAD_EXTENSIONS.map((e) => `.${e}`).join(', ')} files only.`;
}

export function tooLargeMessage(name: string): string {
  return `File ${name} not valid. Please check file size.`;
}

/** RFC 6266 / 5987: an ASCII fallback plus the exact UTF-8 name. */
export function contentDisposition(fileName: string): string {
  const fallback = fileName.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  const encoded = encodeURIComponent(fileName).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename="${fallback}"; filename*=UTF-8''${encoded}`;
}

export function contentTypeOf(fileName: string): string {
  const ext = /\.([A-Za-z0-9]+)$/.exec(fileName)?.[1]?.toLowerCase();
  switch (ext) {
    case 'xlsx':
      return 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
    case 'zip':
      return 'application/zip';
    case 'png':
      return 'image/png';
    case 'csv':
      return 'text/csv; charset=utf-8';
    default:
      return 'application/octet-stream';
  }
}
