import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { type Kysely } from 'kysely';
import { type Database } from '../../db/schema';
import { writeLogArchive } from './archive';
import { readDemoLogNodes } from './inventory';
import { DEMO_LOGS_FILE, type DemoLogSummary } from './model';

/** What the parse job is given: archives by name and path relative to DATA_DIR; no owner for the demo. */
export interface DemoParseParams {
  archives: Array<{ name: string; file: string }>;
  ownerId: null;
}

export interface DemoLogsParse<T> {
  /** Where the archive was written. */
  file: string;
  summary: DemoLogSummary;
  /** What the parse answered. */
  parsed: T;
}

/**
 * When the current operator has a network inventory but no parsed logs yet, writes the demo MoBatch
 * archive of its nodes to `<dataDir>/demo/` and hands it to `parse` (the server passes the
 * `monitoring.parse` job). Answers null, writing nothing, when a parse exists or there is no inventory.
 */
export async function parseDemoLogsIfNone<T>(
  db: Kysely<Database>,
  options: {
    dataDir: string;
    parse: (params: DemoParseParams) => Promise<T>;
    seed?: number;
    now?: Date;
    /** The archive's name under `<dataDir>/demo/` (default {@link DEMO_LOGS_FILE}); one per operator. */
    fileName?: string;
  },
): Promise<DemoLogsParse<T> | null> {
  const parsed = await db.selectFrom('monitoring_parses').select('id').limit(1).executeTakeFirst();
  if (parsed) return null;
  const nodes = await readDemoLogNodes(db);
  if (nodes.length === 0) return null;

  const dir = path.join(options.dataDir, 'demo');
  fs.mkdirSync(dir, { recursive: true });
  const fileName = options.fileName ?? DEMO_LOGS_FILE;
  const file = path.join(dir, fileName);
  // Written under a private name and renamed when complete, so no reader ever sees half an archive.
  const partial = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.partial`;
  let summary: DemoLogSummary;
  try {
    summary = await writeLogArchive(partial, nodes, { seed: options.seed, now: options.now });
    fs.renameSync(partial, file);
  } finally {
    fs.rmSync(partial, { force: true });
  }
  const result = await options.parse({ archives: [{ name: fileName, file: path.relative(options.dataDir, file) }], ownerId: null });
  return { file, summary, parsed: result };
}
