import fs from 'node:fs';
import { once } from 'node:events';
import zlib from 'node:zlib';

/**
 * Writes a zip (deflated entries, no ZIP64) to a file, one entry at a time, so an archive of many
 * large entries never sits in memory whole. Used for what the console hands out (the MoBatch scripts)
 * and for the demo logs; reading zips is files/zip.ts, with its limits.
 */

const LOCAL_SIGNATURE = 0x04034b50;
const CENTRAL_SIGNATURE = 0x02014b50;
const EOCD_SIGNATURE = 0x06054b50;
const METHOD_DEFLATED = 8;
/** Bit 11: names are UTF-8. */
const FLAG_UTF8 = 0x800;
const VERSION = 20;
const MAX_32 = 0xffffffff;

interface Written {
  nameBytes: Buffer;
  crc: number;
  compressedSize: number;
  size: number;
  offset: number;
  dosTime: number;
  dosDate: number;
}

function dosDateTime(at: Date): { dosTime: number; dosDate: number } {
  const year = Math.max(1980, at.getUTCFullYear());
  return {
    dosTime: (at.getUTCHours() << 11) | (at.getUTCMinutes() << 5) | Math.floor(at.getUTCSeconds() / 2),
    dosDate: ((year - 1980) << 9) | ((at.getUTCMonth() + 1) << 5) | at.getUTCDate(),
  };
}

export class ZipWriter {
  private readonly out: fs.WriteStream;
  private readonly entries: Written[] = [];
  private offset = 0;
  private closed = false;

  constructor(
    file: string,
    /** Entry times (UTC, as zip has no zone). */
    private readonly modified: Date = new Date(),
  ) {
    this.out = fs.createWriteStream(file);
  }

  private async write(chunk: Buffer): Promise<void> {
    this.offset += chunk.length;
    if (!this.out.write(chunk)) await once(this.out, 'drain');
  }

  /** Adds one entry; `name` uses `/` between folders. */
  async add(name: string, data: Buffer | string): Promise<void> {
    if (this.closed) throw new Error('zip already closed');
    const raw = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
    const compressed = zlib.deflateRawSync(raw, { level: 6 });
    if (raw.length > MAX_32 || this.offset + compressed.length > MAX_32 || this.entries.length >= 0xffff) {
      throw new Error('zip too large for this writer (no ZIP64)');
    }
    const nameBytes = Buffer.from(name, 'utf8');
    const { dosTime, dosDate } = dosDateTime(this.modified);
    const entry: Written = { nameBytes, crc: zlib.crc32(raw), compressedSize: compressed.length, size: raw.length, offset: this.offset, dosTime, dosDate };
    const header = Buffer.alloc(30);
    header.writeUInt32LE(LOCAL_SIGNATURE, 0);
    header.writeUInt16LE(VERSION, 4);
    header.writeUInt16LE(FLAG_UTF8, 6);
    header.writeUInt16LE(METHOD_DEFLATED, 8);
    header.writeUInt16LE(dosTime, 10);
    header.writeUInt16LE(dosDate, 12);
    header.writeUInt32LE(entry.crc, 14);
    header.writeUInt32LE(entry.compressedSize, 18);
    header.writeUInt32LE(entry.size, 22);
    header.writeUInt16LE(nameBytes.length, 26);
    header.writeUInt16LE(0, 28);
    this.entries.push(entry);
    await this.write(header);
    await this.write(nameBytes);
    await this.write(compressed);
  }

  /** Writes the central directory and closes the file. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    const directoryStart = this.offset;
    for (const e of this.entries) {
      const header = Buffer.alloc(46);
      header.writeUInt32LE(CENTRAL_SIGNATURE, 0);
      header.writeUInt16LE(VERSION, 4);
      header.writeUInt16LE(VERSION, 6);
      header.writeUInt16LE(FLAG_UTF8, 8);
      header.writeUInt16LE(METHOD_DEFLATED, 10);
      header.writeUInt16LE(e.dosTime, 12);
      header.writeUInt16LE(e.dosDate, 14);
      header.writeUInt32LE(e.crc, 16);
      header.writeUInt32LE(e.compressedSize, 20);
      header.writeUInt32LE(e.size, 24);
      header.writeUInt16LE(e.nameBytes.length, 28);
      header.writeUInt32LE(e.offset, 42);
      await this.write(header);
      await this.write(e.nameBytes);
    }
    const end = Buffer.alloc(22);
    end.writeUInt32LE(EOCD_SIGNATURE, 0);
    end.writeUInt16LE(this.entries.length, 8);
    end.writeUInt16LE(this.entries.length, 10);
    end.writeUInt32LE(this.offset - directoryStart, 12);
    end.writeUInt32LE(directoryStart, 16);
    await this.write(end);
    this.out.end();
    await once(this.out, 'finish');
  }

  /** Closes and removes a half-written file (on error). */
  async discard(): Promise<void> {
    this.closed = true;
    // The file is opened asynchronously: removed before its open completed, the open would create it
    // again. So the stream is closed first (after its open, if one is pending), then the file removed.
    if (!this.out.closed) {
      const closed = once(this.out, 'close').catch(() => undefined);
      this.out.destroy();
      await closed;
    }
    await fs.promises.rm(this.out.path, { force: true });
  }
}

/** Writes a whole zip from `[name, content]` pairs. */
export async function writeZip(file: string, entries: Iterable<readonly [string, Buffer | string]>, modified?: Date): Promise<void> {
  const zip = new ZipWriter(file, modified);
  try {
    for (const [name, data] of entries) await zip.add(name, data);
    await zip.close();
  } catch (error) {
    await zip.discard();
    throw error;
  }
}
