import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { readArchive } from './zip';
import { ZipWriter, writeZip } from './zip-writer';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cellwise-zip-writer-'));
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

describe('ZipWriter', () => {
  test('writes entries the limited reader reads back byte for byte, UTF-8 names included', async () => {
    const file = path.join(dir, 'a.zip');
    const big = 'LX0001> alt\r\n'.repeat(50_000);
    await writeZip(file, [
      ['sites.txt', 'LX0001\nLX0002\n'],
      ['logs/LX0001.log', big],
      ['Olá/readme.txt', Buffer.from('ç')],
      ['empty.txt', ''],
    ]);
    expect(await readBack(file)).toEqual({ 'sites.txt': 'LX0001\nLX0002\n', 'logs/LX0001.log': big, 'Olá/readme.txt': 'ç', 'empty.txt': '' });
    // Deflated: the repeated log shrinks far below its size.
    expect(fs.statSync(file).size).toBeLessThan(big.length / 20);
  });

  test('discard removes a half-written archive', async () => {
    const file = path.join(dir, 'b.zip');
    const zip = new ZipWriter(file);
    await zip.add('one.txt', 'one');
    await zip.discard();
    expect(fs.existsSync(file)).toBe(false);
  });

  test('discard right away, while the file is still being opened, leaves no file behind', async () => {
    for (let i = 0; i < 20; i += 1) {
      const file = path.join(dir, `opening-${i}.zip`);
      await new ZipWriter(file).discard();
      // An open completing after the removal would have created it again by now.
      await new Promise((resolve) => setTimeout(resolve, 5));
      expect(fs.existsSync(file)).toBe(false);
    }
  });
});
