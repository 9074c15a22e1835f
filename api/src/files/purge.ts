import fs from 'node:fs';
import path from 'node:path';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';
import { FILE_RETENTION } from './limits';
import { exportsDir, uploadsDir } from './store';

export interface PurgeResult {
  uploads: number;
  exports: number;
  /** Files and folders on disk that no row recorded (a crash between writing and recording). */
  orphans: number;
}

/** Rows are deleted in slices, so a long backlog never builds one giant statement. */
const DELETE_BATCH = 500;

const isoBefore = (now: number, ms: number) => new Date(now - ms).toISOString();

async function deleteRows(db: Kysely<Database>, table: 'file_uploads' | 'file_exports', ids: readonly string[]): Promise<void> {
  for (let at = 0; at < ids.length; at += DELETE_BATCH) {
    await db
      .deleteFrom(table)
      .where('id', 'in', ids.slice(at, at + DELETE_BATCH))
      .execute();
  }
}

/** Entries of a folder older than `before` (ms) whose id no row holds. */
async function orphansIn(dir: string, known: ReadonlySet<string>, idOf: (entry: string) => string, before: number): Promise<string[]> {
  let entries: string[];
  try {
    entries = await fs.promises.readdir(dir);
  } catch {
    return [];
  }
  const old: string[] = [];
  for (const entry of entries) {
    if (known.has(idOf(entry))) continue;
    const stat = await fs.promises.stat(path.join(dir, entry)).catch(() => null);
    if (stat && stat.mtimeMs < before) old.push(entry);
  }
  return old;
}

/**
 * Removes what has expired (FILE_RETENTION): uploads unused for a day or used more than an hour ago,
 * exports older than a week, and unrecorded leftovers as old. Rows go first, then files: a row without
 * its file answers 'not found', never a half-served download. Safe to run on several instances at once.
 */
export async function purgeExpiredFiles(db: Kysely<Database>, dataDir: string, now: number): Promise<PurgeResult> {
  const uploads = await db
    .selectFrom('file_uploads')
    .select('id')
    .where((eb) =>
      eb.or([
        eb.and([eb('consumed_at', 'is', null), eb('created_at', '<', isoBefore(now, FILE_RETENTION.unusedUploadMs))]),
        eb('consumed_at', '<', isoBefore(now, FILE_RETENTION.usedUploadMs)),
      ]),
    )
    .execute();
  const uploadIds = uploads.map((u) => u.id);
  await deleteRows(db, 'file_uploads', uploadIds);
  for (const id of uploadIds) await fs.promises.rm(path.join(uploadsDir(dataDir), id), { recursive: true, force: true });

  const exports = await db.selectFrom('file_exports').select(['id', 'stored_name']).where('created_at', '<', isoBefore(now, FILE_RETENTION.exportMs)).execute();
  await deleteRows(
    db,
    'file_exports',
    exports.map((e) => e.id),
  );
  for (const e of exports) await fs.promises.rm(path.join(exportsDir(dataDir), path.basename(e.stored_name)), { force: true });

  const liveUploads = new Set((await db.selectFrom('file_uploads').select('id').execute()).map((u) => u.id));
  const liveExports = new Set((await db.selectFrom('file_exports').select('id').execute()).map((e) => e.id));
  const strayUploads = await orphansIn(uploadsDir(dataDir), liveUploads, (entry) => entry, now - FILE_RETENTION.unusedUploadMs);
  const strayExports = await orphansIn(exportsDir(dataDir), liveExports, (entry) => entry.replace(/\..*$/, ''), now - FILE_RETENTION.exportMs);
  for (const entry of strayUploads) await fs.promises.rm(path.join(uploadsDir(dataDir), entry), { recursive: true, force: true });
  for (const entry of strayExports) await fs.promises.rm(path.join(exportsDir(dataDir), entry), { force: true });

  return { uploads: uploadIds.length, exports: exports.length, orphans: strayUploads.length + strayExports.length };
}

export interface PurgeTimer {
  /** The first run's end (it never rejects): start-up waits for it, so the app starts clean. */
  first: Promise<void>;
  /** Stops the timer and waits for a run in progress (the database must outlive it). */
  stop(): Promise<void>;
}

/**
 * Runs the purge now and then every `everyMs`, one run at a time, reporting failures (a purge that
 * fails is retried on the next tick; it never stops the API). The timer does not keep the process alive.
 */
export function startPurgeTimer(run: () => Promise<unknown>, onError: (error: unknown) => void, everyMs: number = FILE_RETENTION.purgeEveryMs): PurgeTimer {
  let running: Promise<unknown> | null = null;
  const tick = () => {
    if (running) return;
    running = run()
      .catch(onError)
      .finally(() => {
        running = null;
      });
  };
  tick();
  const first = (running ?? Promise.resolve()).then(() => undefined);
  const timer = setInterval(tick, everyMs);
  timer.unref();
  return {
    first,
    stop: async () => {
      clearInterval(timer);
      await running;
    },
  };
}
