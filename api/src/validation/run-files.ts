import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { RunSummaryItem } from 'contracts';
import { fileStamp } from '../tracking/exporter';
import { recordRun, runsDir, writeRunWorkbook, type RunRecord, type RunSheet } from '../runs';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';

/** What the validation runs share: the download name, and writing + recording a run's workbook in one step. */

/** `CpichValidation_LX0001_LX0002_20261120-100000.xlsx`; many sites shorten to the first and a count. */
export function runFileName(prefix: string, sites: readonly string[], now: Date): string {
  const shown = sites.length <= 3 ? sites.join('_') : `${sites[0]}_and_${sites.length - 1}_more`;
  return `${prefix}_${shown.replace(/[^A-Za-z0-9_-]/g, '-')}_${fileStamp(now)}.xlsx`;
}

/** Writes the sheets to a temporary file next to the kept workbooks and records the run (which moves it in). */
export async function recordRunWithWorkbook(
  db: Kysely<Database>,
  dataDir: string,
  sheets: readonly RunSheet[],
  fileName: string,
  run: Omit<RunRecord, 'workbook'>,
): Promise<Awaited<ReturnType<typeof recordRun>>> {
  const dir = runsDir(dataDir);
  fs.mkdirSync(dir, { recursive: true });
  const temp = path.join(dir, `.pending-${randomUUID()}.xlsx`);
  try {
    await writeRunWorkbook(temp, sheets);
    return await recordRun(db, dataDir, { ...run, workbook: { file: temp, fileName } });
  } finally {
    // Moved by recordRun when it succeeded; otherwise nothing of the run is kept.
    fs.rmSync(temp, { force: true });
  }
}

/** "12 OK, 2 warnings, 1 error" from the summary (words per label, counts of zero left out unless all are). */
export function countsInWords(summary: readonly RunSummaryItem[], words: Record<string, [one: string, many: string]>): string {
  const parts = summary
    .filter((s) => s.count > 0 && words[s.label])
    .map((s) => {
      const [one, many] = words[s.label]!;
      return `${s.count.toLocaleString('en-US')} ${s.count === 1 ? one : many}`;
    });
  return parts.length > 0 ? parts.join(', ') : 'nothing to report';
}
