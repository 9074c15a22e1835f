// `node scripts/serve-release.mjs <folder> --port <n> --allow-origin <console origin> [...]`: serves one area's
// release folder (scripts/release-remote.mjs) from its own origin, the way a team deploys its area alone.
// Any static server will do in production (a CDN, nginx); what it must do is what this one does:
// - let only the console's own origins read the files cross-origin (the shell fetches mf-manifest.json and
//   navigation.json; its page loads the scripts), and say so per origin (Vary: Origin);
// - keep hashed files forever and make the browser ask again for the manifests and the entry.
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { parseArgs } from 'node:util';

const TYPES = { '.js': 'application/javascript', '.json': 'application/json', '.css': 'text/css', '.map': 'application/json' };

export function releaseHandler(root, allowOrigins) {
  return (req, res) => {
    const origin = req.headers.origin;
    if (origin && allowOrigins.includes(origin)) res.setHeader('Access-Control-Allow-Origin', origin);
    res.setHeader('Vary', 'Origin');
    if (req.method !== 'GET' && req.method !== 'HEAD') return void res.writeHead(405, { Allow: 'GET, HEAD' }).end();
    let file;
    try {
      // Resolved on every request: a deployment that points the folder at a new release is served at once.
      const folder = fs.realpathSync(root);
      file = fs.realpathSync(path.join(folder, decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname)));
      if (!file.startsWith(folder + path.sep) || !fs.statSync(file).isFile()) throw new Error('not a file');
    } catch {
      return void res.writeHead(404).end();
    }
    const name = path.basename(file);
    const hashed = /\.[0-9a-f]{8}\.(js|css)$/.test(name);
    res.writeHead(200, {
      'Content-Type': TYPES[path.extname(name)] ?? 'application/octet-stream',
      'Cache-Control': hashed ? 'public, max-age=31536000, immutable' : 'no-cache',
      'X-Content-Type-Options': 'nosniff',
    });
    if (req.method === 'HEAD') return void res.end();
    fs.createReadStream(file).pipe(res);
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values, positionals } = parseArgs({
    options: {
      port: { type: 'string', default: '4000' },
      host: { type: 'string', default: '127.0.0.1' },
      'allow-origin': { type: 'string', multiple: true, default: [] },
    },
    allowPositionals: true,
  });
  const folder = positionals[0];
  if (!folder || !fs.existsSync(path.join(folder, 'mf-manifest.json'))) {
    process.stderr.write('usage: serve-release.mjs <release folder with mf-manifest.json> --port <n> --allow-origin <console origin>\n');
    process.exit(2);
  }
  const server = http.createServer(releaseHandler(folder, values['allow-origin']));
  server.listen(Number(values.port), values.host, () => {
    const { port } = server.address();
    process.stdout.write(`serving ${folder} at http://${values.host}:${port}/mf-manifest.json\n`);
  });
  process.on('SIGTERM', () => server.close(() => process.exit(0)));
}
