import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { FastifyInstance } from 'fastify';

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

/** Below this the headers and the CPU cost more than the bytes saved (a typical error or OK answer). */
export const COMPRESS_MIN_BYTES = 1024;
const COMPRESSIBLE_TYPE = /^(application\/(json|javascript|xml)|text\/)/i;

/** The encoding to answer in: brotli when the browser takes it, else gzip, else none (q=0 refuses). */
export function chooseEncoding(acceptEncoding: string | undefined): 'br' | 'gzip' | undefined {
  if (!acceptEncoding) return undefined;
  const accepted = new Set<string>();
  for (const part of acceptEncoding.toLowerCase().split(',')) {
    const [name, ...params] = part.trim().split(';');
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    if (name && !(q && Number(q.slice(2)) === 0)) accepted.add(name.trim());
  }
  if (accepted.has('br')) return 'br';
  if (accepted.has('gzip') || accepted.has('*')) return 'gzip';
  return undefined;
}

/**
 * Compresses answers built in memory (JSON lists, reports, the docs' spec) above a small size. Streams —
 * file downloads, static files that come precompressed — pass untouched. Brotli at a middle quality:
 * at its top qualities it costs more time per answer than the bytes it saves over the network.
 */
export function registerCompression(app: FastifyInstance): void {
  app.addHook('onSend', async (request, reply, payload) => {
    if (typeof payload !== 'string' && !Buffer.isBuffer(payload)) return payload;
    if (request.method === 'HEAD' || reply.hasHeader('content-encoding')) return payload;
    const type = String(reply.getHeader('content-type') ?? '');
    if (!COMPRESSIBLE_TYPE.test(type)) return payload;
    const body = typeof payload === 'string' ? Buffer.from(payload) : payload;
    const encoding = chooseEncoding(request.headers['accept-encoding']);
    reply.header('vary', 'Accept-Encoding');
    if (!encoding || body.length < COMPRESS_MIN_BYTES) return payload;
    const compressed =
      encoding === 'br'
        ? await brotli(body, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 5, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: body.length } })
        : await gzip(body, { level: 6 });
    reply.header('content-encoding', encoding);
    reply.removeHeader('content-length');
    return compressed;
  });
}
