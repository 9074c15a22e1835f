import fs from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import yazl from 'yazl';
import type { RunKind } from 'contracts';
import type { Database } from '../db/schema';
import { scriptFiles, type ScriptFiles, type ScriptPlan, type ScriptRun } from '../domain/scripts';
import { FileServiceError, newExport, recordExport } from '../files';
import { runsDir, RUN_MESSAGES } from './index';

/**
 * A run's corrective AMOS scripts (issue 46) as a zip kept beside its workbook under files/runs/: one
 * `.mos` per node, its undo, a README and the sitelist. They are written when the run is recorded,
 * from the findings and the dump the run itself read: a MISSING relation's script needs the target's
 * identity (eNB id, cell id, PCI, TAC) as the run saw it, which the workbook does not carry, and a dump
 * imported later could make a script of findings that no longer hold. A run that found nothing a
 * command can correct keeps no zip.
 */

export const SCRIPTS_MESSAGES = {
  none: 'This run found nothing that needs a corrective script.',
} as const;

/** The zip of run `runId` (run ids are global across operators: the route reads the run in its operator first). */
export function runScriptsFile(dataDir: string, runId: number): string {
  return path.join(runsDir(dataDir), `${runId}.scripts.zip`);
}

/** Writes `[name, content]` pairs as a zip with yazl (deflated, entry times of `modified`). */
export function writeScriptsZip(file: string, files: ReadonlyArray<readonly [string, string]>, modified = new Date()): Promise<void> {
  return new Promise((resolve, reject) => {
    const zip = new yazl.ZipFile();
    const out = fs.createWriteStream(file);
    out.on('error', reject);
    out.on('close', () => resolve());
    zip.outputStream.on('error', reject).pipe(out);
    for (const [name, content] of files) zip.addBuffer(Buffer.from(content, 'utf8'), name, { mtime: modified, mode: 0o100644 });
    zip.end();
  });
}

/** A run's scripts, checked before the run is recorded (so a generator fault records nothing), then kept once the run has its id. */
export interface PendingScripts {
  keep: (runId: number) => Promise<void>;
}

/**
 * Checks the plan's scripts against the command grammar now (with a stand-in run id: the id only
 * changes comments and CV names) and answers how to keep them for the recorded run. Null when no
 * finding needs a command.
 */
export function prepareRunScripts(dataDir: string, plan: ScriptPlan, run: Omit<ScriptRun, 'runId'>): PendingScripts | null {
  if (scriptFiles(plan, { ...run, runId: 0 }) === null) return null;
  return {
    keep: async (runId) => {
      const files = scriptFiles(plan, { ...run, runId }) as ScriptFiles;
      const dir = runsDir(dataDir);
      fs.mkdirSync(dir, { recursive: true });
      const temp = path.join(dir, `.pending-${randomUUID()}.zip`);
      try {
        await writeScriptsZip(temp, files.files, run.date);
        fs.renameSync(temp, runScriptsFile(dataDir, runId));
      } finally {
        fs.rmSync(temp, { force: true });
      }
    },
  };
}

/** `NbrRelationsValidation_LX0001_20260305-143000.xlsx` → `NbrRelationsValidation_LX0001_20260305-143000_scripts.zip`. */
export function scriptsFileName(workbookName: string | null, kind: RunKind, runId: number): string {
  const base = workbookName ? workbookName.replace(/\.xlsx$/i, '') : `${kind}_${runId}`;
  return `${base}_scripts.zip`;
}

/** A fresh export of a run's scripts zip for `userId` (the File/Download id); 404 for a run not found (in the caller's operator) or without scripts. */
export async function exportRunScripts(db: Kysely<Database>, dataDir: string, kind: RunKind, runId: number, userId: number): Promise<string> {
  const run = await db.selectFrom('runs').select(['id', 'file_name']).where('id', '=', runId).where('kind', '=', kind).executeTakeFirst();
  if (!run) throw new FileServiceError(404, RUN_MESSAGES.notFound);
  const source = runScriptsFile(dataDir, run.id);
  if (!fs.existsSync(source)) throw new FileServiceError(404, SCRIPTS_MESSAGES.none);
  const pending = newExport(dataDir, `runs.${kind}.scripts`, scriptsFileName(run.file_name, kind, run.id));
  fs.copyFileSync(source, pending.file);
  return recordExport(db, userId, pending);
}
