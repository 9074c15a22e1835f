import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { readArchive, readArchiveFiles, zipLayout } from './zip';
import { ZipOutput, writeZip } from './zip-output';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cellwise-zip-output-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

async function readBack(file: string): Promise<Record<string, string>> {
  const files: Record<string, string> = {};
  for await (const entry of readArchive(file)) {
    const chunks: Buffer[] = [];
    for await (const chunk of entry.content) chunks.push(chunk);
    files[entry.name] = Buffer.concat(chunks).toString('utf8');
  }
  return files;
}

describe('ZipOutput (yazl)', () => {
  test('writes entries the limited reader reads back byte for byte, UTF-8 names included, each with its CRC-32 checked', async () => {
    const file = path.join(dir, 'a.zip');
    const big = 'LX0001> alt\r\n'.repeat(50_000);
    await writeZip(file, [
      ['sites.txt', 'LX0001\nLX0002\n'],
      ['logs/LX0001.log', big],
      ['Olá/readme.txt', Buffer.from('ç')],
      ['empty.txt', ''],
    ]);
    expect(await readBack(file)).toEqual({ 'sites.txt': 'LX0001\nLX0002\n', 'logs/LX0001.log': big, 'Olá/readme.txt': 'ç', 'empty.txt': '' });
    const whole: Record<string, string> = {};
    for await (const entry of readArchiveFiles(file)) whole[entry.name] = entry.data!.toString('utf8');
    expect(whole['logs/LX0001.log']).toBe(big);
    // Deflated: the repeated log shrinks far below its size.
    expect(fs.statSync(file).size).toBeLessThan(big.length / 20);
  });

  test('each local header carries its CRC-32 and sizes (no data descriptor a reader would have to search for)', async () => {
    const file = path.join(dir, 'headers.zip');
    await writeZip(file, [
      ['a.log', 'alpha\n'.repeat(1000)],
      ['b.log', 'beta\n'],
    ]);
    const zip = fs.readFileSync(file);
    const layout = zipLayout(zip, () => new Error('damaged'));
    expect(layout.map((e) => [e.name, e.flags & 0x8])).toEqual([
      ['a.log', 0],
      ['b.log', 0],
    ]);
    for (const entry of layout) expect(zip.readUInt32LE(entry.offset + 14)).toBe(entry.crc);
  });

  test('entry times are the ones given', async () => {
    const file = path.join(dir, 'times.zip');
    const at = new Date(2026, 2, 5, 14, 30, 10);
    await writeZip(file, [['a.txt', 'a']], at);
    const zip = fs.readFileSync(file);
    const dosTime = zip.readUInt16LE(10);
    const dosDate = zip.readUInt16LE(12);
    expect([dosDate >> 9, (dosDate >> 5) & 0xf, dosDate & 0x1f, dosTime >> 11, (dosTime >> 5) & 0x3f, (dosTime & 0x1f) * 2]).toEqual([46, 3, 5, 14, 30, 10]);
  });

  test('many entries made in a tight loop are written as they come, not held until the end', async () => {
    const file = path.join(dir, 'many.zip');
    const zip = new ZipOutput(file);
    let sizeMidway = 0;
    for (let i = 0; i < 150; i += 1) {
      await zip.add(`n${i}.log`, `node ${i}\n`.repeat(2_000) + String(i));
      if (i === 100) sizeMidway = fs.statSync(file).size;
    }
    await zip.close();
    expect(sizeMidway).toBeGreaterThan(0);
    expect(Object.keys(await readBack(file))).toHaveLength(150);
  });

  test('discard removes a half-written archive', async () => {
    const file = path.join(dir, 'b.zip');
    const zip = new ZipOutput(file);
    await zip.add('one.txt', 'one');
    await zip.discard();
    expect(fs.existsSync(file)).toBe(false);
    await expect(zip.add('two.txt', 'two')).rejects.toThrow('zip already closed');
  });

  test('discard right away, while the file is still being opened, leaves no file behind', async () => {
    for (let i = 0; i < 20; i += 1) {
      const file = path.join(dir, `opening-${i}.zip`);
      await new ZipOutput(file).discard();
      // An open completing after the removal would have created it again by now.
      await new Promise((resolve) => setTimeout(resolve, 5));
      expect(fs.existsSync(file)).toBe(false);
    }
  });

  test('a file that cannot be written fails the write, and writeZip leaves nothing behind', async () => {
    const file = path.join(dir, 'no-such-folder', 'c.zip');
    await expect(writeZip(file, [['a.txt', 'a']])).rejects.toMatchObject({ code: 'ENOENT' });
    expect(fs.existsSync(file)).toBe(false);
  });
});
