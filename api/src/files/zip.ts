import fs from 'node:fs';
import { Readable } from 'node:stream';
import zlib from 'node:zlib';
import { ARCHIVE_LIMITS, type ArchiveLimits } from './limits';

/**
 * Zip files read with limits (docs/architecture.md#files-and-archives). Nothing here trusts what a zip says about itself: the
 * central directory and the local headers must agree, entries must follow one another without gaps or
 * overlaps (overlapping entries are how a zip bomb reuses its data), inflation stops as soon as an
 * entry produces more than its directory declared, and an entry whose content does not match its CRC-32
 * is refused (a file damaged on its way here is told apart from one read wrongly). Entry names are only
 * compared and shown, never used as paths.
 */

const LOCAL_SIGNATURE = 0x04034b50;
const CENTRAL_SIGNATURE = 0x02014b50;
const EOCD_SIGNATURE = 0x06054b50;
const DESCRIPTOR_SIGNATURE = Buffer.from([0x50, 0x4b, 0x07, 0x08]);
const EOCD_SIZE = 22;
const DESCRIPTOR_SIZE = 16;
/** The end-of-central-directory record sits within the last 22 + 65,535 (comment) bytes. */
export const ZIP_TAIL_BYTES = EOCD_SIZE + 0xffff;
const ZIP64_MARKER = 0xffffffff;
const FLAG_ENCRYPTED = 0x1;
const FLAG_DESCRIPTOR = 0x8;
export const METHOD_STORED = 0;
export const METHOD_DEFLATED = 8;
/** Deflate cannot do better than about 1,032 to 1: a directory that declares more lies. */
const DEFLATE_MAX_RATIO = 1_032;
/** Compressed bytes handed to zlib at a time: one write inflates to at most ~1,032× this before the count sees it. */
const INPUT_CHUNK = 16 * 1024;
const OUTPUT_CHUNK = 256 * 1024;
/** Zips are read whole into memory; uploads are at most 10 MB, so this only guards callers with other files. */
const MAX_ZIP_FILE_BYTES = 256 * 1024 * 1024;

/** An entry as the central directory describes it. */
export interface DirectoryEntry {
  name: string;
  nameBytes: Buffer;
  flags: number;
  method: number;
  /** CRC-32 of the inflated content, as the directory declares it: checked when the entry is read. */
  crc: number;
  compressedSize: number;
  /** Inflated size as declared: checked against the real output when the entry is read. */
  size: number;
  /** Where its local header starts. */
  offset: number;
}

export interface ZipDirectory {
  entries: DirectoryEntry[];
  /** Where the central directory starts (the entries end there). */
  offset: number;
}

/** An entry whose local header agrees with the directory: its compressed bytes are `[dataStart, dataEnd)`. */
export interface ZipEntry extends DirectoryEntry {
  dataStart: number;
  dataEnd: number;
}

/**
 * Why bytes are not a zip this service reads, when it can be told: what a refusal says rather than
 * "not a zip archive". `broken` covers the rest (no end record, headers that disagree, a stream cut short).
 */
export type ZipDamage =
  | { kind: 'zip64' }
  | { kind: 'multi-disk' }
  | { kind: 'encrypted'; name: string }
  | { kind: 'overlap'; name: string; other: string }
  | { kind: 'crc'; name: string }
  | { kind: 'broken' };

const ZIP64_LOCATOR_SIGNATURE = 0x07064b50;
const ZIP64_EXTRA_ID = 0x0001;

/** The file is not a zip this service reads, or it breaks a limit: 400 with the message. */
export class ZipReadError extends Error {
  override readonly name = 'ZipReadError';
  readonly statusCode = 400;
}

/** Thousands separators, as people read limits. */
export const formatCount = (n: number) => n.toLocaleString('en-US');

/** An entry name fit for a message: no control characters, bounded. */
export function shownName(name: string): string {
  // eslint-disable-next-line no-control-regex -- control characters are what must not reach a message
  const clean = name.replace(/[\u0000-\u001f\u007f]/g, '?');
  return clean.length > 100 ? `${clean.slice(0, 97)}...` : clean;
}

/**
 * The central directory, given the file's last bytes (at most ZIP_TAIL_BYTES) and a way to read the
 * directory itself. Null when the bytes are not a zip this service reads: no end record, a directory
 * outside the file, a broken entry, ZIP64 (no file of 10 MB needs it), a multi-disk archive
 * ({@link parseZipDirectory} says which).
 */
export function readZipDirectory(tail: Buffer, fileSize: number, readAt: (offset: number, length: number) => Buffer): ZipDirectory | null {
  const read = parseZipDirectory(tail, fileSize, readAt);
  return 'damage' in read ? null : read;
}

/** {@link readZipDirectory}, saying why when the bytes are refused. */
export function parseZipDirectory(tail: Buffer, fileSize: number, readAt: (offset: number, length: number) => Buffer): ZipDirectory | { damage: ZipDamage } {
  const broken = { damage: { kind: 'broken' } } as const;
  let eocd = -1;
  for (let i = tail.length - EOCD_SIZE; i >= 0; i -= 1) {
    if (tail.readUInt32LE(i) === EOCD_SIGNATURE) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) return broken;
  const disk = tail.readUInt16LE(eocd + 4);
  const dirDisk = tail.readUInt16LE(eocd + 6);
  const diskEntries = tail.readUInt16LE(eocd + 8);
  const entries = tail.readUInt16LE(eocd + 10);
  const dirSize = tail.readUInt32LE(eocd + 12);
  const dirOffset = tail.readUInt32LE(eocd + 16);
  // A ZIP64 end record is announced by its locator right before the classic one (which then holds markers).
  const zip64 = eocd >= 20 && tail.readUInt32LE(eocd - 20) === ZIP64_LOCATOR_SIGNATURE;
  if (zip64 || entries === 0xffff || dirSize === ZIP64_MARKER || dirOffset === ZIP64_MARKER) return { damage: { kind: 'zip64' } };
  if (disk !== 0 || dirDisk !== 0 || diskEntries !== entries) return { damage: { kind: 'multi-disk' } };
  if (dirOffset + dirSize > fileSize) return broken;
  const dir = readAt(dirOffset, dirSize);
  if (dir.length !== dirSize) return broken;
  const list: DirectoryEntry[] = [];
  let at = 0;
  for (let n = 0; n < entries; n += 1) {
    if (at + 46 > dir.length || dir.readUInt32LE(at) !== CENTRAL_SIGNATURE) return broken;
    const nameLength = dir.readUInt16LE(at + 28);
    const extraLength = dir.readUInt16LE(at + 30);
    const commentLength = dir.readUInt16LE(at + 32);
    if (at + 46 + nameLength > dir.length) return broken;
    const compressedSize = dir.readUInt32LE(at + 20);
    const size = dir.readUInt32LE(at + 24);
    const offset = dir.readUInt32LE(at + 42);
    if (
      compressedSize === ZIP64_MARKER ||
      size === ZIP64_MARKER ||
      offset === ZIP64_MARKER ||
      hasExtra(dir, at + 46 + nameLength, extraLength, ZIP64_EXTRA_ID)
    ) {
      return { damage: { kind: 'zip64' } };
    }
    const nameBytes = Buffer.from(dir.subarray(at + 46, at + 46 + nameLength));
    list.push({
      name: nameBytes.toString('utf8'),
      nameBytes,
      flags: dir.readUInt16LE(at + 8),
      method: dir.readUInt16LE(at + 10),
      crc: dir.readUInt32LE(at + 16),
      compressedSize,
      size,
      offset,
    });
    at += 46 + nameLength + extraLength + commentLength;
  }
  return { entries: list, offset: dirOffset };
}

/** Whether the extra field `[from, from + length)` holds a block of this header id. */
function hasExtra(buf: Buffer, from: number, length: number, id: number): boolean {
  const end = Math.min(buf.length, from + length);
  for (let at = from; at + 4 <= end; at += 4 + buf.readUInt16LE(at + 2)) if (buf.readUInt16LE(at) === id) return true;
  return false;
}

/** The directory of a zip held in memory, or null. */
export function zipDirectoryOf(zip: Buffer): ZipDirectory | null {
  const read = zipDirectoryRead(zip);
  return 'damage' in read ? null : read;
}

function zipDirectoryRead(zip: Buffer): ZipDirectory | { damage: ZipDamage } {
  if (zip.length < EOCD_SIZE) return { damage: { kind: 'broken' } };
  const tail = zip.subarray(Math.max(0, zip.length - ZIP_TAIL_BYTES));
  return parseZipDirectory(tail, zip.length, (offset, length) => zip.subarray(offset, offset + length));
}

/**
 * The entries in file order, each checked against its local header the way a streaming reader (exceljs'
 * unzipper) walks them: from offset 0, local header after local header, an entry's data ending where its
 * size says or, for entries whose size follows them, at the first data-descriptor signature. Anything a
 * streaming reader would see differently from the directory (hidden entries, other names, other sizes,
 * gaps, overlaps) makes the zip unreadable here, so whatever a reader inflates is what was checked.
 */
export function zipLayout(zip: Buffer, damaged: (damage?: ZipDamage) => Error): ZipEntry[] {
  const read = zipDirectoryRead(zip);
  if ('damage' in read) throw damaged(read.damage);
  const directory = read;
  const byOffset = new Map<number, DirectoryEntry>();
  for (const entry of directory.entries) {
    const same = byOffset.get(entry.offset);
    if (same) throw damaged({ kind: 'overlap', name: same.name, other: entry.name });
    byOffset.set(entry.offset, entry);
  }
  // Told before any header is compared: an encrypted entry is refused for that, whatever else it holds.
  const encrypted = directory.entries.find((e) => e.flags & FLAG_ENCRYPTED);
  if (encrypted) throw damaged({ kind: 'encrypted', name: encrypted.name });
  const overlap = overlapOf(zip, directory);
  if (overlap) throw damaged(overlap);
  const layout: ZipEntry[] = [];
  let at = 0;
  while (at + 30 <= directory.offset && zip.readUInt32LE(at) === LOCAL_SIGNATURE) {
    const entry = byOffset.get(at);
    if (!entry) throw damaged();
    const flags = zip.readUInt16LE(at + 6);
    const method = zip.readUInt16LE(at + 8);
    const localCompressed = zip.readUInt32LE(at + 18);
    const nameLength = zip.readUInt16LE(at + 26);
    const dataStart = at + 30 + nameLength + zip.readUInt16LE(at + 28);
    if (dataStart > directory.offset || !zip.subarray(at + 30, at + 30 + nameLength).equals(entry.nameBytes)) throw damaged();
    if (flags & FLAG_ENCRYPTED) throw damaged({ kind: 'encrypted', name: entry.name });
    if (method !== entry.method) throw damaged();
    // A local header that carries its CRC must carry the directory's (the one the content is checked against).
    if (!(flags & FLAG_DESCRIPTOR) && zip.readUInt32LE(at + 14) !== entry.crc) throw damaged();
    let dataEnd: number;
    let next: number;
    if (!(flags & FLAG_DESCRIPTOR) || localCompressed > 0) {
      if (localCompressed !== entry.compressedSize) throw damaged();
      dataEnd = dataStart + localCompressed;
      next = dataEnd;
    } else {
      dataEnd = zip.indexOf(DESCRIPTOR_SIGNATURE, dataStart);
      if (dataEnd !== dataStart + entry.compressedSize) throw damaged();
      if (dataEnd + DESCRIPTOR_SIZE <= zip.length && zip.readUInt32LE(dataEnd + 4) !== entry.crc) throw damaged();
      next = dataEnd + DESCRIPTOR_SIZE;
    }
    if (next > directory.offset) throw damaged();
    layout.push({ ...entry, dataStart, dataEnd });
    at = next;
  }
  if (at !== directory.offset || layout.length !== directory.entries.length) throw damaged();
  return layout;
}

/**
 * Two entries of which one starts inside the other (its local header, name and compressed data, as its
 * own local header gives their lengths), or null. Entries whose local header cannot be read are left to
 * the walk of {@link zipLayout}, which refuses them as broken.
 */
function overlapOf(zip: Buffer, directory: ZipDirectory): ZipDamage | null {
  const sorted = [...directory.entries].sort((a, b) => a.offset - b.offset);
  let holder: DirectoryEntry | null = null;
  let holderEnd = -1;
  for (const entry of sorted) {
    if (holder !== null && entry.offset < holderEnd) return { kind: 'overlap', name: holder.name, other: entry.name };
    const at = entry.offset;
    if (at + 30 > directory.offset || zip.readUInt32LE(at) !== LOCAL_SIGNATURE) continue;
    const end = at + 30 + zip.readUInt16LE(at + 26) + zip.readUInt16LE(at + 28) + entry.compressedSize;
    if (end > holderEnd) {
      holder = entry;
      holderEnd = end;
    }
  }
  return null;
}

function* slices(data: Buffer, size: number): Generator<Buffer> {
  for (let at = 0; at < data.length; at += size) yield data.subarray(at, at + size);
}

/** The damage of an entry whose content is not what its CRC-32 says. */
const crcDamage = (entry: DirectoryEntry): ZipDamage => ({ kind: 'crc', name: entry.name });

/**
 * An entry's inflated bytes, chunk by chunk. It never produces more than the entry declared (plus one
 * chunk, which is refused): a directory that understates a bomb stops the bomb. A short, broken or
 * over-long stream is `damaged()`; content that does not match the entry's CRC-32 is `damaged({ kind:
 * 'crc' })` before its last chunk is handed over, so no caller sees a damaged entry end (a stored
 * entry is checked whole, first). Only stored and deflated entries are read.
 */
export async function* entryContent(zip: Buffer, entry: ZipEntry, damaged: (damage?: ZipDamage) => Error): AsyncGenerator<Buffer> {
  const data = zip.subarray(entry.dataStart, entry.dataEnd);
  if (entry.method === METHOD_STORED) {
    if (data.length !== entry.size) throw damaged();
    if (zlib.crc32(data) !== entry.crc) throw damaged(crcDamage(entry));
    yield* slices(data, OUTPUT_CHUNK);
    return;
  }
  if (entry.method !== METHOD_DEFLATED) throw damaged();
  const source = Readable.from(slices(data, INPUT_CHUNK));
  const inflater = zlib.createInflateRaw({ chunkSize: OUTPUT_CHUNK });
  source.pipe(inflater);
  let produced = 0;
  let crc = 0;
  try {
    for await (const chunk of inflater as AsyncIterable<Buffer>) {
      produced += chunk.length;
      if (produced > entry.size) throw damaged();
      crc = zlib.crc32(chunk, crc);
      // The last chunk is held back until the whole entry is known to match: no caller sees its end otherwise.
      if (produced === entry.size && crc !== entry.crc) throw damaged(crcDamage(entry));
      yield chunk;
    }
  } catch (error) {
    if (error instanceof Error && 'errno' in error) throw damaged();
    throw error;
  } finally {
    source.destroy();
    inflater.destroy();
  }
  // Trailing bytes after the deflate stream would be read by no one here, but by a streaming reader.
  if (produced !== entry.size || inflater.bytesWritten !== data.length) throw damaged();
  if (crc !== entry.crc) throw damaged(crcDamage(entry));
}

/** Reads a zip into memory for the checks above (zips come from uploads of at most 10 MB). */
export async function readZipFile(file: string, damaged: () => Error): Promise<Buffer> {
  const { size } = await fs.promises.stat(file);
  if (size > MAX_ZIP_FILE_BYTES) throw damaged();
  return fs.promises.readFile(file);
}

// Archives: log bundles and the like.

export const ARCHIVE_MESSAGES = {
  notZip: (subject: string) => `${subject} could not be read as a zip archive.`,
  /** What is wrong with a refused zip, when it can be told; else {@link notZip}'s text. */
  damaged: (subject: string, damage: ZipDamage | undefined, notZip: string = ARCHIVE_MESSAGES.notZip(subject)): string => {
    switch (damage?.kind) {
      case 'zip64':
        return `${subject} is a ZIP64 archive, which is not read here (no upload needs it); zip the files again without ZIP64.`;
      case 'multi-disk':
        return `${subject} is one part of an archive split over several files; send it as one .zip.`;
      case 'encrypted':
        return `${subject} holds an encrypted entry (${shownName(damage.name)}); send a .zip without a password.`;
      case 'overlap':
        return `${subject} holds entries whose data overlap (${shownName(damage.name)} and ${shownName(damage.other)}), as zip bombs do; it is refused.`;
      case 'crc':
        return `${subject} is damaged: the content of ${shownName(damage.name)} does not match its CRC-32 checksum. Zip the files again and send the new archive.`;
      default:
        return notZip;
    }
  },
  entries: (subject: string, limit: number) => `${subject} has more than ${formatCount(limit)} entries; the limit is ${formatCount(limit)}.`,
  unsafeName: (subject: string, name: string) => `${subject} holds an entry named "${shownName(name)}", which is not a plain relative path; it is refused.`,
  duplicate: (subject: string, name: string) => `${subject} holds two entries named "${shownName(name)}"; it is refused.`,
  nested: (subject: string, name: string) => `${subject} holds another archive (${shownName(name)}); nested archives are refused.`,
  inflated: (subject: string, limit: number) => `${subject} inflates to more than ${formatCount(limit)} bytes; the limit is ${formatCount(limit)}.`,
  unsupported: (subject: string, name: string) =>
    `${subject} holds an entry (${shownName(name)}) that is encrypted or compressed with something other than deflate; send a plain .zip.`,
} as const;

/** Names of archives and compressed files, refused inside an archive (an archive in an archive is how bombs nest). */
const NESTED_EXTENSIONS =
  /\.(zip|zipx|jar|war|apk|xlsx|xlsm|xlsb|xltx|docx|pptx|odt|ods|gz|tgz|gzip|bz2|tbz2|xz|txz|lz|lzma|lz4|zst|z|7z|rar|tar|cab|arj|iso)$/i;

/** Magic numbers of archives and compressed streams, checked at the start of each entry's content. */
const NESTED_SIGNATURES: readonly Buffer[] = [
  Buffer.from('PK\x03\x04', 'latin1'),
  Buffer.from('PK\x05\x06', 'latin1'),
  Buffer.from('PK\x07\x08', 'latin1'),
  Buffer.from([0x1f, 0x8b]),
  Buffer.from('BZh', 'latin1'),
  Buffer.from([0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00]),
  Buffer.from([0x28, 0xb5, 0x2f, 0xfd]),
  Buffer.from([0x37, 0x7a, 0xbc, 0xaf, 0x27, 0x1c]),
  Buffer.from('Rar!\x1a\x07', 'latin1'),
  Buffer.from('MSCF', 'latin1'),
];

export function looksLikeArchive(head: Buffer): boolean {
  return NESTED_SIGNATURES.some((signature) => head.length >= signature.length && head.subarray(0, signature.length).equals(signature));
}

/**
 * Whether a name could escape a folder if anything ever used it as a path: absolute (`/x`, `\x`, `C:x`),
 * with a `..` segment (either slash), with control characters, or empty.
 */
export function isUnsafeEntryName(name: string): boolean {
  if (name === '' || /^[\\/]/.test(name) || /^[A-Za-z]:/.test(name)) return true;
  // eslint-disable-next-line no-control-regex -- control characters (NUL included) have no place in a file name
  if (/[\u0000-\u001f\u007f]/.test(name)) return true;
  return name.split(/[\\/]/).some((segment) => segment === '..');
}

const isDirectory = (entry: DirectoryEntry) => /[\\/]$/.test(entry.name) && entry.size === 0;

/**
 * Why an archive's directory is refused, or null: pure, so an upload can judge a zip before anyone reads
 * it. Declared sizes are only a first, cheap look; {@link readArchive} counts the real ones.
 */
export function archiveDirectoryProblem(entries: readonly DirectoryEntry[], subject: string, limits: ArchiveLimits = ARCHIVE_LIMITS): string | null {
  if (entries.length > limits.maxEntries) return ARCHIVE_MESSAGES.entries(subject, limits.maxEntries);
  const seen = new Set<string>();
  let declared = 0;
  for (const entry of entries) {
    if (entry.nameBytes.length > limits.maxNameBytes || isUnsafeEntryName(entry.name)) return ARCHIVE_MESSAGES.unsafeName(subject, entry.name);
    const key = entry.name.replace(/\\/g, '/').toLowerCase();
    if (seen.has(key)) return ARCHIVE_MESSAGES.duplicate(subject, entry.name);
    seen.add(key);
    if (NESTED_EXTENSIONS.test(entry.name.replace(/[\\/]+$/, ''))) return ARCHIVE_MESSAGES.nested(subject, entry.name);
    if (entry.flags & FLAG_ENCRYPTED || (entry.method !== METHOD_STORED && entry.method !== METHOD_DEFLATED)) {
      return ARCHIVE_MESSAGES.unsupported(subject, entry.name);
    }
    if (entry.method === METHOD_STORED ? entry.size !== entry.compressedSize : entry.size > entry.compressedSize * DEFLATE_MAX_RATIO + 1_024) {
      return ARCHIVE_MESSAGES.notZip(subject);
    }
    declared += entry.size;
    if (declared > limits.maxInflatedBytes) return ARCHIVE_MESSAGES.inflated(subject, limits.maxInflatedBytes);
  }
  return null;
}

export interface ArchiveFile {
  /** As stored in the archive: for display and matching only, never a path. */
  name: string;
  /** Inflated size (checked while reading). */
  size: number;
  /** The content, chunk by chunk; read it before asking for the next entry, or it is skipped. */
  content: AsyncGenerator<Buffer>;
}

/**
 * The files of a zip archive, one by one, within the limits: the directory is judged first
 * ({@link archiveDirectoryProblem}), then each file is inflated only as far as the total allows, and a
 * file whose content starts like an archive is refused. Directories are skipped. Throws ZipReadError.
 */
export async function* readArchive(file: string, limits: ArchiveLimits = ARCHIVE_LIMITS, subject = 'The archive'): AsyncGenerator<ArchiveFile> {
  const damaged = (damage?: ZipDamage) => new ZipReadError(ARCHIVE_MESSAGES.damaged(subject, damage));
  const zip = await readZipFile(file, damaged);
  const layout = zipLayout(zip, damaged);
  const problem = archiveDirectoryProblem(layout, subject, limits);
  if (problem) throw new ZipReadError(problem);
  let total = 0;
  for (const entry of layout) {
    if (isDirectory(entry)) continue;
    const content = checkedContent(zip, entry, damaged, subject, (bytes) => {
      total += bytes;
      if (total > limits.maxInflatedBytes) throw new ZipReadError(ARCHIVE_MESSAGES.inflated(subject, limits.maxInflatedBytes));
    });
    try {
      yield { name: entry.name, size: entry.size, content };
    } finally {
      await content.return(undefined);
    }
  }
}

/** A file of an archive with its whole content ({@link readArchiveFiles}). */
export interface ArchiveFileData {
  /** As stored in the archive: for display and matching only, never a path. */
  name: string;
  /** Inflated size. */
  size: number;
  /** The content; null when the caller did not want the file or it is larger than `maxFileBytes` (then it is not inflated at all). */
  data: Buffer | null;
}

export interface ReadArchiveFilesOptions {
  limits?: ArchiveLimits;
  subject?: string;
  /** Files larger than this come back with `data` null. */
  maxFileBytes?: number;
  /** Files the caller will not read come back with `data` null, uninflated. */
  wanted?: (name: string) => boolean;
}

/**
 * The files of a zip archive with their whole contents, under the same checks as {@link readArchive},
 * reading one file ahead: the next file is already inflating on zlib's thread pool while the caller
 * works on this one. A log parse is CPU-bound on the main thread and inflation is CPU-bound too, so
 * on two cores the two overlap instead of taking turns. Each file is inflated in one thread-pool job
 * into a buffer of its declared size (plus one byte, to catch a directory that understates it), so the
 * memory held is bounded by the declared sizes that {@link archiveDirectoryProblem} already checked.
 */
export async function* readArchiveFiles(file: string, options: ReadArchiveFilesOptions = {}): AsyncGenerator<ArchiveFileData> {
  const limits = options.limits ?? ARCHIVE_LIMITS;
  const subject = options.subject ?? 'The archive';
  const maxFileBytes = options.maxFileBytes ?? Infinity;
  const wanted = options.wanted ?? (() => true);
  const damaged = (damage?: ZipDamage) => new ZipReadError(ARCHIVE_MESSAGES.damaged(subject, damage));
  const zip = await readZipFile(file, damaged);
  const layout = zipLayout(zip, damaged);
  const problem = archiveDirectoryProblem(layout, subject, limits);
  if (problem) throw new ZipReadError(problem);
  const files = layout.filter((entry) => !isDirectory(entry));
  const start = (entry: ZipEntry): Inflating | null => {
    if (entry.size > maxFileBytes || !wanted(entry.name)) return null;
    const inflating = inflateWhole(zip, entry, damaged);
    // A file read ahead may fail before (or without) the caller reaching it: it is reported when reached.
    inflating.done.catch(() => undefined);
    return inflating;
  };
  let total = 0;
  let next = files.length > 0 ? start(files[0]!) : null;
  try {
    for (let i = 0; i < files.length; i += 1) {
      const entry = files[i]!;
      const current = next;
      next = i + 1 < files.length ? start(files[i + 1]!) : null;
      const data = current === null ? null : await current.done;
      if (data !== null) {
        total += data.length;
        if (total > limits.maxInflatedBytes) throw new ZipReadError(ARCHIVE_MESSAGES.inflated(subject, limits.maxInflatedBytes));
        if (looksLikeArchive(data)) throw new ZipReadError(ARCHIVE_MESSAGES.nested(subject, entry.name));
      }
      yield { name: entry.name, size: entry.size, data };
    }
  } finally {
    next?.cancel();
  }
}

interface Inflating {
  done: Promise<Buffer>;
  /** Stops the work of a file read ahead that the caller will never reach. */
  cancel: () => void;
}

/**
 * One entry inflated whole, in one zlib thread-pool job; refused (damaged) when it differs from its
 * directory entry, its CRC-32 included (node:zlib's, native: a few milliseconds for a 10 MB entry).
 */
function inflateWhole(zip: Buffer, entry: ZipEntry, damaged: (damage?: ZipDamage) => Error): Inflating {
  const data = zip.subarray(entry.dataStart, entry.dataEnd);
  const settled = (done: Promise<Buffer>): Inflating => ({ done: done.then(checked), cancel: () => undefined });
  const checked = (content: Buffer): Buffer => {
    if (zlib.crc32(content) !== entry.crc) throw damaged(crcDamage(entry));
    return content;
  };
  if (entry.method === METHOD_STORED) return settled(data.length === entry.size ? Promise.resolve(data) : Promise.reject(damaged()));
  if (entry.method !== METHOD_DEFLATED) return settled(Promise.reject(damaged()));
  // Room for one byte more than declared: the first output chunk shows a directory that understates.
  // Z_FINISH from the first write: the whole entry inflates in the first thread-pool job, and the file
  // is handed over from that job's output. Waiting for the stream's 'end' cost a second job (the final
  // flush), queued only when the main thread next turned to its event loop: the file read ahead was
  // never ready, and a parse waited on every file.
  const inflater = zlib.createInflateRaw({ chunkSize: Math.max(64, entry.size + 1), flush: zlib.constants.Z_FINISH });
  const done = new Promise<Buffer>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let produced = 0;
    inflater.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      produced += chunk.length;
      if (produced > entry.size) {
        inflater.destroy();
        reject(damaged());
      } else if (produced === entry.size && inflater.bytesWritten === data.length) {
        // Every compressed byte read and every declared byte out, with no error from zlib (a stream cut
        // short fails under Z_FINISH): the same file the 'end' below would accept.
        resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, produced));
      }
    });
    inflater.on('error', () => reject(damaged()));
    inflater.on('close', () => reject(damaged()));
    inflater.on('end', () => {
      // Trailing bytes after the deflate stream would be read by no one here, but by a streaming reader.
      if (produced !== entry.size || inflater.bytesWritten !== data.length) reject(damaged());
      else resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, produced));
    });
  });
  inflater.end(data);
  return { done: done.then(checked), cancel: () => inflater.destroy() };
}

async function* checkedContent(
  zip: Buffer,
  entry: ZipEntry,
  damaged: (damage?: ZipDamage) => Error,
  subject: string,
  count: (bytes: number) => void,
): AsyncGenerator<Buffer> {
  let first = true;
  for await (const chunk of entryContent(zip, entry, damaged)) {
    count(chunk.length);
    if (first && looksLikeArchive(chunk)) throw new ZipReadError(ARCHIVE_MESSAGES.nested(subject, entry.name));
    first = false;
    yield chunk;
  }
}
