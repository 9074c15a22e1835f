import fs from 'node:fs';
import { once } from 'node:events';
import type { Readable } from 'node:stream';
import { setImmediate as nextTurn } from 'node:timers/promises';
import yazl from 'yazl';

/**
 * Zips the console writes (the MoBatch scripts, the demo logs), with yazl: entries are deflated on
 * zlib's thread pool, not on the event loop, the archive streams to its file as it is made, and yazl
 * switches to ZIP64 by itself past 4 GB or 65,535 entries. Reading zips is files/zip.ts, with its limits
 * (docs/architecture.md#files-and-archives).
 *
 * Entries are added as whole buffers, so each local header carries its CRC-32 and sizes: a streamed
 * entry would end in a data descriptor, which a reader can only find by searching the compressed bytes
 * for its signature (files/zip.ts does, as exceljs' streaming reader does).
 */

/** Output yazl has made but the file has not taken yet, past which `add` waits for the file. */
const HIGH_WATER_BYTES = 8 * 1024 * 1024;
/** Content added between two turns of the event loop: a few entries deflate side by side on the thread pool. */
const TURN_BYTES = 256 * 1024;
/** Regular file, rw-r--r--. */
const FILE_MODE = 0o100644;

export class ZipOutput {
  private readonly zip = new yazl.ZipFile();
  private readonly out: fs.WriteStream;
  private readonly written: Promise<void>;
  private failure: Error | null = null;
  private sinceTurn = 0;
  private state: 'open' | 'closed' | 'discarded' = 'open';

  constructor(
    readonly file: string,
    /** Entry times. */
    private readonly modified: Date = new Date(),
  ) {
    this.out = fs.createWriteStream(file);
    this.written = new Promise<void>((resolve, reject) => {
      const fail = (error: Error) => {
        this.failure ??= error;
        reject(error);
      };
      this.zip.outputStream.on('error', fail);
      this.out.on('error', fail);
      this.out.on('finish', () => resolve());
    });
    // Reported by add() and close(); discard() ignores it.
    this.written.catch(() => undefined);
    this.zip.outputStream.pipe(this.out);
  }

  /** Adds one entry; `name` uses `/` between folders. Waits while the file lags behind. */
  async add(name: string, data: Buffer | string): Promise<void> {
    if (this.state !== 'open') throw new Error('zip already closed');
    if (this.failure) throw this.failure;
    const content = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
    this.zip.addBuffer(content, name, { mtime: this.modified, mode: FILE_MODE });
    this.sinceTurn += content.length;
    if (this.sinceTurn < TURN_BYTES) return;
    this.sinceTurn = 0;
    // A turn of the event loop: deflates finished meanwhile are written out, so a caller that makes its
    // entries in a tight loop does not hold all of them in memory.
    await nextTurn();
    // yazl's output is a PassThrough (typed as the older ReadableStream): its buffer is what the file lags behind.
    while ((this.zip.outputStream as Readable).readableLength > HIGH_WATER_BYTES && !this.failure) {
      if (this.out.writableNeedDrain) await once(this.out, 'drain');
      else await nextTurn();
    }
    if (this.failure) throw this.failure;
  }

  /** Writes the central directory and closes the file. */
  async close(): Promise<void> {
    if (this.state === 'discarded') throw new Error('zip discarded');
    if (this.state === 'open') {
      this.state = 'closed';
      this.zip.end();
    }
    await this.written;
    if (!this.out.closed) await once(this.out, 'close');
  }

  /** Stops writing and removes the half-written file (on error). */
  async discard(): Promise<void> {
    this.state = 'discarded';
    this.zip.outputStream.unpipe(this.out);
    // The file is opened asynchronously: removed before its open completed, the open would create it
    // again. So the stream is closed first (after its open, if one is pending), then the file removed.
    if (!this.out.closed) {
      const closed = once(this.out, 'close').catch(() => undefined);
      this.out.destroy();
      await closed;
    }
    await fs.promises.rm(this.file, { force: true });
  }
}

/** Writes a whole zip from `[name, content]` pairs; no file is left behind when it fails. */
export async function writeZip(file: string, entries: Iterable<readonly [string, Buffer | string]>, modified?: Date): Promise<void> {
  const zip = new ZipOutput(file, modified);
  try {
    for (const [name, data] of entries) await zip.add(name, data);
    await zip.close();
  } catch (error) {
    await zip.discard();
    throw error;
  }
}
