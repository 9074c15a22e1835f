import fs from 'node:fs';
import path from 'node:path';

/** The API's version, read from its package.json at start-up. */
export const VERSION: string = (JSON.parse(fs.readFileSync(path.resolve(__dirname, '../../package.json'), 'utf8')) as { version: string }).version;
