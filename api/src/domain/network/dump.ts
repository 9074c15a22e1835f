import { parseBulkCmBatches } from './bulkcm';
import { parseCmeditBatches } from './cmedit';
import { mapNetworkBatches, type MapOptions, type MapResult, type NetworkSink } from './mapper';
import { assertChunk, type Chunk, type ChunkSource, type MoRecord } from './records';

export type DumpFormat = 'bulkcm' | 'cmedit';

export interface DumpOptions {
  /** 'auto' (default) looks at the first non-blank character: `<` (or a UTF-16 mark) means Bulk CM XML. */
  format?: DumpFormat | 'auto';
}

/** Decides the format from the first bytes; null while only blanks have been seen. */
function sniff(chunk: Chunk): DumpFormat | null {
  if (typeof chunk === 'string') {
    const t = chunk.replace(/^\uFEFF/, '').trimStart();
    return t === '' ? null : t.startsWith('<') ? 'bulkcm' : 'cmedit';
  }
  if ((chunk[0] === 0xff && chunk[1] === 0xfe) || (chunk[0] === 0xfe && chunk[1] === 0xff)) return 'bulkcm';
  let i = chunk[0] === 0xef && chunk[1] === 0xbb && chunk[2] === 0xbf ? 3 : 0;
  for (; i < chunk.length; i++) {
    const b = chunk[i] as number;
    if (b === 0x20 || b === 0x09 || b === 0x0a || b === 0x0d) continue;
    return b === 0x3c ? 'bulkcm' : 'cmedit';
  }
  return null;
}

/** Parses a Bulk CM XML file or a cmedit export, reading only as much ahead as needed to tell which. */
export async function* parseNetworkDump(input: ChunkSource, options: DumpOptions = {}): AsyncGenerator<MoRecord> {
  for await (const batch of parseNetworkDumpBatches(input, options)) yield* batch;
}

/** {@link parseNetworkDump} a batch at a time: the records completed by one input chunk, never empty. */
export async function* parseNetworkDumpBatches(input: ChunkSource, options: DumpOptions = {}): AsyncGenerator<MoRecord[]> {
  const format = options.format ?? 'auto';
  if (format === 'bulkcm') return yield* parseBulkCmBatches(input);
  if (format === 'cmedit') return yield* parseCmeditBatches(input);

  const iterator = (Symbol.asyncIterator in input ? input[Symbol.asyncIterator]() : toAsync(input as Iterable<Chunk>)) as AsyncIterator<Chunk>;
  const head: Chunk[] = [];
  let detected: DumpFormat | null = null;
  while (detected === null) {
    const next = await iterator.next();
    if (next.done) break;
    const chunk = assertChunk(next.value);
    head.push(chunk);
    detected = sniff(chunk);
  }
  const replay: AsyncIterable<Chunk> = {
    async *[Symbol.asyncIterator]() {
      yield* head;
      for (;;) {
        const next = await iterator.next();
        if (next.done) return;
        yield next.value;
      }
    },
  };
  try {
    yield* detected === 'bulkcm' ? parseBulkCmBatches(replay) : parseCmeditBatches(replay);
  } finally {
    // Stops (and destroys) a Readable we abandon half way, e.g. after a parse error.
    await iterator.return?.();
  }
}

async function* toAsync(it: Iterable<Chunk>): AsyncGenerator<Chunk> {
  yield* it;
}

/** Parse + map in one call: what an importer runs inside its transaction. */
export function importNetworkDump(input: ChunkSource, sink: NetworkSink, options: MapOptions & DumpOptions): Promise<MapResult> {
  return mapNetworkBatches(parseNetworkDumpBatches(input, { format: options.format ?? 'auto' }), sink, options);
}
