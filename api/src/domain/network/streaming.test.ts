import { PassThrough, type TransformCallback } from 'node:stream';
import v8 from 'node:v8';
import vm from 'node:vm';
import { generateDemoBulkCm } from '../../demo/network';
import { readFileSync } from 'node:fs';
import { bodastage, capture, fixture } from './__tests__/helpers';
import { importNetworkDump, parseNetworkDump } from './dump';
import { mapNetwork, type NetworkSink } from './mapper';
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

describe('memory held after an import', () => {
  // A full collection on demand (as `node --expose-gc`): what is still on the heap after it is what is held.
  v8.setFlagsFromString('--expose-gc');
  const collectGarbage = vm.runInNewContext('gc') as () => void;
  const heapHeld = () => {
    collectGarbage();
    return process.memoryUsage().heapUsed;
  };

  it('keeps nothing of the file it read (a value cut from a chunk of text keeps the whole chunk)', async () => {
    const pipe = new PassThrough({ highWaterMark: 64 * 1024 });
    const before = heapHeld();
    const nothing = () => undefined;
    const [summary] = await Promise.all([
      generateDemoBulkCm(pipe, { seed: 12, sizeMb: 12 }),
      importNetworkDump(pipe, { site: nothing, node: nothing, cell: nothing, externalCell: nothing, relation: nothing }, { coords: 'microdegrees' }),
    ]);
    const held = heapHeld() - before;
    expect(summary.bytes).toBeGreaterThan(10e6);
    // The mapper's bounded caches of references stay; the file's text (decoded 64 KB at a time) does not.
    // Before the caches kept copies of their keys, this held ~10 MB of a 12 MB file.
    expect(held).toBeLessThan(summary.bytes / 5);
  });
});

describe('batches and single records', () => {
  /** Small chunks, so records end anywhere in them; the same bytes for both runs. */
  const chunksOf = (bytes: Buffer, size: number): Buffer[] => {
    const out: Buffer[] = [];
    for (let i = 0; i < bytes.length; i += size) out.push(bytes.subarray(i, i + size));
    return out;
  };

  // The importer maps a chunk's records at a time; the result must be what record-by-record mapping gives.
  test.each([
    ['a generated Bulk CM dump', () => generated(3)],
    ['an Ericsson Bulk CM sample', () => readFileSync(bodastage('bulkcm2.xml'))],
    ['a cmedit export', () => readFileSync(fixture('cmedit-export.txt'))],
  ])('%s: the same entities in the same order', async (_name, file) => {
    const bytes = await file();
    const batched = capture();
    const single = capture();
    const a = await importNetworkDump(chunksOf(bytes, 4096), batched.sink, { coords: 'microdegrees' });
    const b = await mapNetwork(parseNetworkDump(chunksOf(bytes, 97)), single.sink, { coords: 'microdegrees' });
    expect(a).toEqual(b);
    expect(batched.got).toEqual(single.got);
    expect(batched.got.order.length).toBeGreaterThan(3);
  });
});

async function generated(sites: number): Promise<Buffer> {
  const pipe = new PassThrough();
  const parts: Buffer[] = [];
  pipe.on('data', (chunk: Buffer) => parts.push(chunk));
  await generateDemoBulkCm(pipe, { seed: 4, sites });
  return Buffer.concat(parts);
}
