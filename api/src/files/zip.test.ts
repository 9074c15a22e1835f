import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { deflatedZeros, zip } from '../../test/fixtures/files/zips';
import { ARCHIVE_LIMITS } from './limits';
import { corruptedZip, encryptedZip, insideOffsetZip, sharedOffsetZip, twoLogs, zip64Zip } from '../../test/fixtures/monitoring/damaged-zips';
import { contentProblem, type ContentFacts } from './content';
import { archiveDirectoryProblem, entryContent, isUnsafeEntryName, readArchive, readArchiveFiles, zipLayout, type DirectoryEntry, type ZipDamage } from './zip';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cellwise-zip-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
let counter = 0;
function fileOf(content: Buffer): string {
  const file = path.join(dir, `archive-${(counter += 1)}.zip`);
  fs.writeFileSync(file, content);
  return file;
}
const entry = (name: string, size = 10, compressedSize = size, method = 8): DirectoryEntry => ({
  name,
  nameBytes: Buffer.from(name),
  flags: 0,
  method,
  crc: 0,
  compressedSize,
  size,
  offset: 0,
});

async function readAll(content: Buffer, limits = ARCHIVE_LIMITS): Promise<Record<string, string>> {
  const files: Record<string, string> = {};
  for await (const file of readArchive(fileOf(content), limits)) {
    const chunks: Buffer[] = [];
    for await (const chunk of file.content) chunks.push(chunk);
    files[file.name] = Buffer.concat(chunks).toString();
  }
  return files;
}

describe('archive directory (pure)', () => {
  it('refuses names that would escape a folder if they were ever used as paths', () => {
    for (const name of ['../x.log', 'logs/../../x.log', '/etc/passwd', '\\windows\\x', 'C:x.log', 'c:\\x.log', 'a\\..\\..\\b', 'a\u0000b', '']) {
      expect({ name, unsafe: isUnsafeEntryName(name) }).toEqual({ name, unsafe: true });
    }
    for (const name of ['node.log', 'logs/2024/a.log', 'a..b.log', '..log', 'dir/'])
      expect({ name, unsafe: isUnsafeEntryName(name) }).toEqual({ name, unsafe: false });
    expect(archiveDirectoryProblem([entry('../evil.sh')], 'File logs.zip')).toBe(
      'File logs.zip holds an entry named "../evil.sh", which is not a plain relative path; it is refused.',
    );
  });

  it('bounds the entry count: 10,000 pass, 10,001 do not', () => {
    const entries = (n: number) => Array.from({ length: n }, (_, i) => entry(`f${i}.log`));
    expect(archiveDirectoryProblem(entries(10_000), 'The archive')).toBeNull();
    expect(archiveDirectoryProblem(entries(10_001), 'The archive')).toBe('The archive has more than 10,000 entries; the limit is 10,000.');
  });

  it('refuses nested archives by name, duplicates, declared totals over the limit and impossible sizes', () => {
    for (const name of ['inner.zip', 'LOGS.ZIP', 'book.xlsx', 'a.log.gz', 'x.7z', 'x.rar', 'x.tar', 'deep/x.tgz']) {
      expect(archiveDirectoryProblem([entry(name)], 'The archive')).toBe(`The archive holds another archive (${name}); nested archives are refused.`);
    }
    expect(archiveDirectoryProblem([entry('a.log'), entry('A.LOG')], 'The archive')).toMatch(/two entries named/);
    expect(archiveDirectoryProblem([entry('a.log', 600_000_000, 1_000_000), entry('b.log', 600_000_000, 1_000_000)], 'The archive')).toBe(
      'The archive inflates to more than 1,000,000,000 bytes; the limit is 1,000,000,000.',
    );
    expect(archiveDirectoryProblem([entry('a.log', 2_000_000, 1_000)], 'The archive')).toMatch(/could not be read as a zip/);
    expect(archiveDirectoryProblem([entry('a.log', 10, 10, 12)], 'The archive')).toMatch(/other than deflate/);
  });
});

describe('reading archives', () => {
  it('streams each file, stored or deflated, with or without data descriptors', async () => {
    const archive = zip([
      { name: 'logs/', method: 0 },
      { name: 'logs/a.log', data: 'alpha\n'.repeat(1000) },
      { name: 'logs/b.log', data: 'beta', method: 0 },
      { name: 'logs/c.log', data: 'gamma', descriptor: true },
    ]);
    expect(await readAll(archive)).toEqual({ 'logs/a.log': 'alpha\n'.repeat(1000), 'logs/b.log': 'beta', 'logs/c.log': 'gamma' });
  });

  it('skips a file whose content the reader does not take', async () => {
    const names: string[] = [];
    for await (const file of readArchive(
      fileOf(
        zip([
          { name: 'a.log', data: 'a' },
          { name: 'b.log', data: 'b' },
        ]),
      ),
    ))
      names.push(file.name);
    expect(names).toEqual(['a.log', 'b.log']);
  });

  it('stops a bomb whose directory understates it at the declared size', async () => {
    const zeros = await deflatedZeros(8);
    const file = fileOf(zip([{ name: 'huge.log', raw: zeros.raw, size: 1_000 }]));
    let produced = 0;
    await expect(
      (async () => {
        for await (const entry of readArchive(file)) for await (const chunk of entry.content) produced += chunk.length;
      })(),
    ).rejects.toMatchObject({ statusCode: 400, message: 'The archive could not be read as a zip archive.' });
    expect(produced).toBeLessThanOrEqual(1_000);
  });

  it('refuses an honest bomb from its directory and counts inflated bytes against the limit', async () => {
    const zeros = await deflatedZeros(4);
    await expect(readAll(zip([{ name: 'zeros.log', raw: zeros.raw, size: zeros.size }]), { ...ARCHIVE_LIMITS, maxInflatedBytes: 50_000_000 })).rejects.toThrow(
      'The archive inflates to more than 50,000,000 bytes; the limit is 50,000,000.',
    );
  });

  it('refuses an archive inside an archive even under an innocent name', async () => {
    const inner = zip([{ name: 'x.log', data: 'x' }]);
    await expect(readAll(zip([{ name: 'notes.txt', data: inner }]))).rejects.toThrow(
      'The archive holds another archive (notes.txt); nested archives are refused.',
    );
    const gzip = Buffer.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0]);
    await expect(readAll(zip([{ name: 'data.bin', data: gzip, method: 0 }]))).rejects.toThrow(/nested archives are refused/);
  });

  it('refuses zip-slip names, truncated archives and text', async () => {
    await expect(readAll(zip([{ name: '../../etc/cron.d/x', data: 'x' }]))).rejects.toThrow(/not a plain relative path/);
    const archive = zip([{ name: 'a.log', data: 'a'.repeat(5000) }]);
    await expect(readAll(archive.subarray(0, archive.length - 30))).rejects.toThrow('The archive could not be read as a zip archive.');
    await expect(readAll(Buffer.from('not a zip at all'))).rejects.toThrow('The archive could not be read as a zip archive.');
  });
});

describe('reading archives whole, one file ahead', () => {
  async function readWhole(content: Buffer, limits = ARCHIVE_LIMITS): Promise<Record<string, string | null>> {
    const files: Record<string, string | null> = {};
    for await (const file of readArchiveFiles(fileOf(content), { limits })) files[file.name] = file.data === null ? null : file.data.toString();
    return files;
  }

  it('reads each file, stored or deflated, with or without data descriptors, in archive order', async () => {
    const archive = zip([
      { name: 'logs/', method: 0 },
      { name: 'logs/a.log', data: 'alpha\n'.repeat(1000) },
      { name: 'logs/b.log', data: 'beta', method: 0 },
      { name: 'logs/c.log', data: 'gamma', descriptor: true },
      { name: 'logs/empty.log', data: '' },
    ]);
    const files = await readWhole(archive);
    expect(Object.keys(files)).toEqual(['logs/a.log', 'logs/b.log', 'logs/c.log', 'logs/empty.log']);
    expect(files).toEqual({ 'logs/a.log': 'alpha\n'.repeat(1000), 'logs/b.log': 'beta', 'logs/c.log': 'gamma', 'logs/empty.log': '' });
  });

  it('does not inflate files the caller does not want or that are over its size', async () => {
    const zeros = await deflatedZeros(8);
    // Understated: inflating it would fail, so a null here proves it was never inflated.
    const archive = zip([
      { name: 'skip.bin', raw: zeros.raw, size: 1_000 },
      { name: 'big.log', data: 'x'.repeat(5_000) },
      { name: 'a.log', data: 'a' },
    ]);
    const seen: Array<[string, string | null]> = [];
    for await (const file of readArchiveFiles(fileOf(archive), { maxFileBytes: 4_999, wanted: (name) => name.endsWith('.log') })) {
      seen.push([file.name, file.data === null ? null : file.data.toString()]);
    }
    expect(seen).toEqual([
      ['skip.bin', null],
      ['big.log', null],
      ['a.log', 'a'],
    ]);
  });

  it('refuses a bomb whose directory understates it, with the files before it read', async () => {
    const zeros = await deflatedZeros(8);
    const names: string[] = [];
    await expect(
      (async () => {
        for await (const file of readArchiveFiles(
          fileOf(
            zip([
              { name: 'a.log', data: 'a' },
              { name: 'huge.log', raw: zeros.raw, size: 1_000 },
            ]),
          ),
        ))
          names.push(file.name);
      })(),
    ).rejects.toMatchObject({ statusCode: 400, message: 'The archive could not be read as a zip archive.' });
    expect(names).toEqual(['a.log']);
  });

  it('a caller that stops early is not hit by the failure of the file read ahead', async () => {
    const zeros = await deflatedZeros(8);
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      for await (const file of readArchiveFiles(
        fileOf(
          zip([
            { name: 'a.log', data: 'a' },
            { name: 'huge.log', raw: zeros.raw, size: 1_000 },
          ]),
        ),
      )) {
        expect(file.name).toBe('a.log');
        break;
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
    expect(unhandled).toEqual([]);
  });

  it('refuses trailing bytes after a deflate stream', async () => {
    const data = Buffer.from('alpha\n'.repeat(100));
    const raw = Buffer.concat([zlib.deflateRawSync(data), Buffer.from('junk')]);
    await expect(readWhole(zip([{ name: 'a.log', raw, size: data.length, crc: zlib.crc32(data) }]))).rejects.toThrow(
      'The archive could not be read as a zip archive.',
    );
  });

  it('refuses a deflate stream that stops before its end, even with every declared byte out', async () => {
    const data = Buffer.from('alpha\n'.repeat(100));
    // A sync flush writes all of the data but no final block: the stream never says it is complete.
    const raw = zlib.deflateRawSync(data, { finishFlush: zlib.constants.Z_SYNC_FLUSH });
    expect(zlib.inflateRawSync(raw, { finishFlush: zlib.constants.Z_SYNC_FLUSH })).toEqual(data);
    await expect(readWhole(zip([{ name: 'a.log', raw, size: data.length, crc: zlib.crc32(data) }]))).rejects.toThrow(
      'The archive could not be read as a zip archive.',
    );
  });

  it('refuses honest bombs, nested archives, zip-slip names, truncated archives and text like the streaming reader', async () => {
    const zeros = await deflatedZeros(4);
    await expect(
      readWhole(zip([{ name: 'zeros.log', raw: zeros.raw, size: zeros.size }]), { ...ARCHIVE_LIMITS, maxInflatedBytes: 50_000_000 }),
    ).rejects.toThrow('The archive inflates to more than 50,000,000 bytes; the limit is 50,000,000.');
    await expect(readWhole(zip([{ name: 'notes.txt', data: zip([{ name: 'x.log', data: 'x' }]) }]))).rejects.toThrow(
      'The archive holds another archive (notes.txt); nested archives are refused.',
    );
    await expect(readWhole(zip([{ name: '../../etc/cron.d/x', data: 'x' }]))).rejects.toThrow(/not a plain relative path/);
    const archive = zip([{ name: 'a.log', data: 'a'.repeat(5000) }]);
    await expect(readWhole(archive.subarray(0, archive.length - 30))).rejects.toThrow('The archive could not be read as a zip archive.');
    await expect(readWhole(Buffer.from('not a zip at all'))).rejects.toThrow('The archive could not be read as a zip archive.');
  });
});

describe('CRC-32: content that is not what was zipped', () => {
  const CRC_MESSAGE = 'The archive is damaged: the content of LX0002.log does not match its CRC-32 checksum. Zip the files again and send the new archive.';
  const text = 'LX0002> alt\n' + '>>> Total: 0 Alarms\n'.repeat(200);

  /** A deflated entry whose content has one byte changed: level 0 writes stored deflate blocks, so the byte reaches the output and inflation succeeds. */
  function corruptedDeflated(descriptor = false): Buffer {
    const raw = Buffer.from(zlib.deflateRawSync(Buffer.from(text), { level: 0 }));
    const at = raw.indexOf('Total');
    raw[at] = 'X'.charCodeAt(0);
    return zip([
      { name: 'LX0001.log', data: 'LX0001> alt\n' },
      { name: 'LX0002.log', raw, size: text.length, crc: zlib.crc32(text), descriptor },
    ]);
  }

  it.each([
    ['stored', corruptedZip],
    ['deflated', () => corruptedDeflated()],
    ['deflated, sizes in a data descriptor', () => corruptedDeflated(true)],
  ])('a %s entry with a changed byte is refused by each reader, saying so', async (_kind, build) => {
    await expect(readAll(build())).rejects.toThrow(CRC_MESSAGE);
    const names: string[] = [];
    await expect(
      (async () => {
        for await (const file of readArchiveFiles(fileOf(build()))) names.push(file.name);
      })(),
    ).rejects.toMatchObject({ statusCode: 400, message: CRC_MESSAGE });
    expect(names).toEqual(['LX0001.log']);
  });

  it('the streaming reader never hands over the end of a damaged entry', async () => {
    const archive = corruptedDeflated();
    const [, second] = zipLayout(archive, () => new Error('damaged'));
    const chunks: Buffer[] = [];
    await expect(
      (async () => {
        for await (const chunk of entryContent(archive, second!, (damage) => new Error(damage?.kind ?? 'broken'))) chunks.push(chunk);
      })(),
    ).rejects.toThrow('crc');
    expect(Buffer.concat(chunks).length).toBeLessThan(text.length);
  });

  it('intact entries pass, and a CRC the local header and the directory disagree on makes the zip unreadable', async () => {
    const honest = zip([{ name: 'LX0002.log', data: text }]);
    expect(await readAll(honest)).toEqual({ 'LX0002.log': text });
    const lying = Buffer.from(honest);
    lying.writeUInt32LE(lying.readUInt32LE(14) ^ 1, 14); // the local header's CRC-32
    await expect(readAll(lying)).rejects.toThrow('The archive could not be read as a zip archive.');
  });
});

describe('refusals that say what is wrong (issue 43)', () => {
  const CASES: Array<[string, () => Buffer, string]> = [
    ['an encrypted entry', encryptedZip, 'The archive holds an encrypted entry (LX0002.log); send a .zip without a password.'],
    ['a ZIP64 archive', zip64Zip, 'The archive is a ZIP64 archive, which is not read here (no upload needs it); zip the files again without ZIP64.'],
    ['two entries at one offset', sharedOffsetZip, 'The archive holds entries whose data overlap (LX0001.log and LX0002.log), as zip bombs do; it is refused.'],
    [
      'an entry starting inside another',
      insideOffsetZip,
      'The archive holds entries whose data overlap (LX0001.log and LX0002.log), as zip bombs do; it is refused.',
    ],
  ];

  it.each(CASES)('%s: each reader says so', async (_name, build, message) => {
    await expect(readAll(build())).rejects.toThrow(message);
    await expect(readArchiveFiles(fileOf(build())).next()).rejects.toThrow(message);
  });

  it('the honest zip the cases are made from is read, and a split archive is named as such', async () => {
    expect(Object.keys(await readAll(twoLogs()))).toEqual(['LX0001.log', 'LX0002.log']);
    const split = Buffer.from(twoLogs());
    split.writeUInt16LE(1, split.length - 22 + 4); // number of this disk
    await expect(readAll(split)).rejects.toThrow('The archive is one part of an archive split over several files; send it as one .zip.');
  });

  it('the upload check gives the same reasons, and "not a zip archive" for the rest', () => {
    const facts = (buf: Buffer): ContentFacts => {
      let zipDamage: ZipDamage | undefined;
      try {
        return { head: buf.subarray(0, 16), zipEntries: zipLayout(buf, (d) => ((zipDamage = d), new Error('no'))) };
      } catch {
        return { head: buf.subarray(0, 16), zipEntries: null, zipDamage };
      }
    };
    expect(contentProblem('logs.zip', 'zip', facts(encryptedZip()))).toBe(
      'File logs.zip holds an encrypted entry (LX0002.log); send a .zip without a password.',
    );
    expect(contentProblem('logs.zip', 'zip', facts(zip64Zip()))).toMatch(/^File logs\.zip is a ZIP64 archive/);
    expect(contentProblem('logs.zip', 'zip', facts(Buffer.from('plain text, no zip')))).toBe('File logs.zip is not a zip archive.');
  });
});
