import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../src/config';
import { chooseEncoding, COMPRESS_MIN_BYTES } from '../src/http/compression';
import { testApp } from './support/app';
import { TEST_DATABASES, type TestDatabase } from './support/databases';

// The build's own compression plugins, writing the fake web root's files as a production build writes dist/.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { emitCompressed } = require('../../tools/webpack/compression') as {
  emitCompressed: (dir: string, files: Record<string, string>) => Promise<string[]>;
};

/** Bytes on the wire (issue 17): static files precompressed at build time, API answers above a small size compressed. */

test('the encoding follows Accept-Encoding: brotli first, gzip next, nothing refused with q=0', () => {
  expect(chooseEncoding(undefined)).toBeUndefined();
  expect(chooseEncoding('')).toBeUndefined();
  expect(chooseEncoding('gzip, deflate, br, zstd')).toBe('br');
  expect(chooseEncoding('gzip;q=1.0, br;q=0')).toBe('gzip');
  expect(chooseEncoding('GZIP')).toBe('gzip');
  expect(chooseEncoding('*')).toBe('gzip');
  expect(chooseEncoding('identity')).toBeUndefined();
  expect(chooseEncoding('gzip;q=0, br;q=0')).toBeUndefined();
});

describe.each(TEST_DATABASES)('compression on $name', (kind) => {
  let database: TestDatabase;
  let app: FastifyInstance;
  let config: Config;
  // Big enough to be compressed, and compressible like a real bundle.
  const bundle = `/* shell */\n${Array.from({ length: 400 }, (_, i) => `export const value${i} = "console chunk ${i}";`).join('\n')}\n`;

  beforeAll(async () => {
    database = await kind.open();
    ({ app, config } = await testApp(database));
    const dist = (dir: string) => path.join(config.webRoot, dir);
    expect(await emitCompressed(dist('shell/dist'), { 'main.1a2b3c4d.js': bundle })).toHaveLength(2);
    expect(
      await emitCompressed(dist('mfe-tracking/dist'), { '123.0a1b2c3d.js': bundle, 'remoteEntry.js': bundle, 'navigation.json': '{"routes":[]}' }),
    ).toHaveLength(4);
    // The shell lists its files at start: a second app sees the compressed copies made above.
    await app.close();
    ({ app, config } = await testApp(database, { WEB_ROOT: config.webRoot }));
    // Loading webpack into jest's module registry takes a while on a busy machine.
  }, 120_000);
  afterAll(async () => {
    await app.close();
    await database.close();
  });

  test('the build writes a .br and a .gz beside each text file worth compressing, and leaves small ones alone', () => {
    const dist = path.join(config.webRoot, 'mfe-tracking/dist');
    expect(zlib.brotliDecompressSync(fs.readFileSync(path.join(dist, '123.0a1b2c3d.js.br'))).toString()).toBe(bundle);
    expect(zlib.gunzipSync(fs.readFileSync(path.join(dist, '123.0a1b2c3d.js.gz'))).toString()).toBe(bundle);
    // navigation.json above is a few bytes.
    expect(fs.readFileSync(path.join(dist, 'navigation.json'), 'utf8')).toBe('{"routes":[]}');
    expect(fs.existsSync(path.join(dist, 'navigation.json.br'))).toBe(false);
    expect(fs.existsSync(path.join(dist, 'navigation.json.gz'))).toBe(false);
  });

  test.each([
    ['/main.1a2b3c4d.js', 'shell'],
    ['/remotes/mfe-tracking/123.0a1b2c3d.js', 'remote'],
  ])('%s (%s, hashed) goes out as brotli or gzip as the browser asks, cached as immutable', async (url) => {
    const br = await app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'gzip, deflate, br' } });
    expect(br.statusCode).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['content-type']).toMatch(/javascript/);
    expect(br.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(br.headers.vary).toMatch(/Accept-Encoding/i);
    expect(br.rawPayload.length).toBeLessThan(bundle.length / 4);
    expect(zlib.brotliDecompressSync(br.rawPayload).toString()).toBe(bundle);

    const gz = await app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'gzip' } });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(zlib.gunzipSync(gz.rawPayload).toString()).toBe(bundle);

    const plain = await app.inject({ method: 'GET', url });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(bundle);
  });

  test('an entry point that keeps its name is compressed but always revalidated', async () => {
    const res = await app.inject({ method: 'GET', url: '/remotes/mfe-tracking/remoteEntry.js', headers: { 'accept-encoding': 'br' } });
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers['cache-control']).toBe('no-cache');
  });

  test('an API answer above the threshold is compressed for a browser that takes it, and only then', async () => {
    const spec = await app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(spec.headers['content-encoding']).toBeUndefined();
    expect(spec.body.length).toBeGreaterThan(COMPRESS_MIN_BYTES);

    const br = await app.inject({ method: 'GET', url: '/api/docs/json', headers: { 'accept-encoding': 'gzip, br' } });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toMatch(/Accept-Encoding/i);
    expect(JSON.parse(zlib.brotliDecompressSync(br.rawPayload).toString())).toEqual(spec.json());

    const gz = await app.inject({ method: 'GET', url: '/api/docs/json', headers: { 'accept-encoding': 'gzip' } });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(zlib.gunzipSync(gz.rawPayload).toString())).toEqual(spec.json());
  });

  test('a small answer and an error answer go out as they are', async () => {
    const health = await app.inject({ method: 'GET', url: '/api/health', headers: { 'accept-encoding': 'br' } });
    expect(health.statusCode).toBe(200);
    expect(health.headers['content-encoding']).toBeUndefined();
    expect(health.json<{ status: string }>().status).toBe('ok');

    const refused = await app.inject({ method: 'GET', url: '/api/Users/GetUsers', headers: { 'accept-encoding': 'br' } });
    expect(refused.statusCode).toBe(401);
    expect(refused.headers['content-encoding']).toBeUndefined();
    expect(typeof refused.json<{ message: string }>().message).toBe('string');
  });
});
