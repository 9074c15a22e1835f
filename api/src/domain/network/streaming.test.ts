import { PassThrough, type TransformCallback } from 'node:stream';
import { generateDemoBulkCm } from './demo-generator';
import { importNetworkDump } from './dump';
import { type NetworkSink } from './mapper';
import { emptyCounts, type NetworkCounts } from './model';

/** Counts the bytes that went through, and how many sat in its buffers at worst. */
class MeteredPipe extends PassThrough {
  passed = 0;
  maxBuffered = 0;

  override _transform(chunk: Buffer, _enc: BufferEncoding, cb: TransformCallback): void {
    this.passed += chunk.length;
    this.maxBuffered = Math.max(this.maxBuffered, this.readableLength + this.writableLength);
    cb(null, chunk);
  }
}

describe('bounded memory', () => {
  it('imports a ~20 MB file through a pipe while it is being written', async () => {
    const pipe = new MeteredPipe({ highWaterMark: 64 * 1024 });
    const seen: NetworkCounts = emptyCounts();
    const siteIds = new Set<string>();
    let bytesAtFirstCell = -1;
    const sink: NetworkSink = {
      site: (s) => void siteIds.add(s.id),
      node: () => void seen.nodes++,
      cell: (c) => {
        if (bytesAtFirstCell < 0) bytesAtFirstCell = pipe.passed;
        seen.cells[c.tech]++;
      },
      externalCell: (e) => void seen.externalCells[e.kind]++,
      relation: (r) => void seen.relations[r.kind]++,
    };

    const [summary, result] = await Promise.all([
      generateDemoBulkCm(pipe, { seed: 11, sizeMb: 20 }),
      importNetworkDump(pipe, sink, { coords: 'microdegrees' }),
    ]);
    seen.sites = siteIds.size;

    expect(summary.bytes).toBeGreaterThan(16e6);
    expect(pipe.passed).toBe(summary.bytes);
    expect(result.counts).toEqual(summary.counts);
    expect(seen).toEqual(summary.counts);
    // The first cells were mapped while most of the file was still to be written...
    expect(bytesAtFirstCell).toBeGreaterThan(0);
    expect(bytesAtFirstCell).toBeLessThan(summary.bytes / 20);
    // ...and the writer never ran ahead of the reader by more than the pipe's buffers.
    expect(pipe.maxBuffered).toBeLessThan(1024 * 1024);
  });
});
