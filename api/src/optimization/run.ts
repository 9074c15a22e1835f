import fs from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import type { RunResponse, RunSummaryItem } from 'contracts';
import { NetworkIndex, optimiseNeighbours, type HoStat, type OptimisationOptions, type OptimisationResult, type ResolvedRelation } from '../domain/planning';
import { FileServiceError, resolveUpload } from '../files';
import { JobRefusal, type TaskContext } from '../jobs/model';
import { lastImportDate } from '../network/queries';
import { previewOf, recordRun, runsDir, writeRunWorkbook, type RunSheet } from '../runs';
import { fileStamp } from '../tracking/exporter';
import { WorkbookReadError } from '../tracking/workbook';
import { loadDumpAround } from '../network/scope';
import { HoWorkbookError, readHoWorkbook, type HoFileRead } from './statistics';
import { optimisationScripts } from '../domain/scripts';
import { prepareRunScripts } from '../runs/scripts';

/**
 * One neighbour relations optimisation run (docs/engines/planning.md#neighbour-optimisation, docs/architecture.md#how-a-job-flows): the owner's statistics workbooks are read,
 * the relations of their source cells come from the stored dump, the engine finds what to remove,
 * block and add, and the run is recorded with its workbook ('Remove', 'Block', 'Add', 'Inputs').
 */

/** The thresholds of every run (the template's 'Read me' explains them). */
export const THRESHOLDS: Required<OptimisationOptions> = {
  blockSuccessRate: 0.9,
  blockMinAttempts: 50,
  addMinAttempts: 100,
  addMinShare: 0,
};

export const OPTIMIZATION_MESSAGES = {
  notYourself: 'You can only run this as yourself.',
  noStatistics: (files: string) => `No handover statistics to optimise: ${files} ${files.includes(',') ? 'have' : 'has'} no data rows.`,
} as const;

export interface OptimisationParams {
  uploadIds: string[];
  ownerId: number;
}
export type OptimisationTaskParams = OptimisationParams & { jobId: string | null };

/** RunResponse plus the owner's notification text (the route answers RunResponse only). */
export type OptimisationAnswer = RunResponse & { notice: string };

const NAMES_SHOWN = 3;
export function namesText(names: readonly string[]): string {
  const shown = names.slice(0, NAMES_SHOWN).join(', ');
  return names.length > NAMES_SHOWN ? `${shown} and ${names.length - NAMES_SHOWN} more` : shown;
}

const percent = (r: number | null): number | null => (r === null ? null : Math.round(r * 1000) / 10);

/**
 * Statistics name targets as the operator's tools do: a cell, an external cell, a relation's id
 * (EUtranCellRelation=…) or a DN. Each is mapped to the name the engine compares, that of the cell the
 * source's relation reaches, so a relation is never both 'unused' and 'missing'.
 */
export function resolveTargets(stats: readonly HoStat[], index: NetworkIndex): HoStat[] {
  const aliases = new Map<string, Map<string, string>>();
  const aliasesOf = (source: string): Map<string, string> => {
    let map = aliases.get(source);
    if (map) return map;
    map = new Map();
    for (const r of index.relationsFrom(source)) {
      const name = targetNameOf(r);
      if (name === null) continue;
      for (const alias of [r.relation.name, r.relation.dn, r.relation.targetRef, r.external?.name ?? null]) if (alias && !map.has(alias)) map.set(alias, name);
    }
    aliases.set(source, map);
    return map;
  };
  return stats.map((s) => {
    if (index.cellByName(s.target)) return s;
    const name = aliasesOf(s.source).get(s.target);
    return name && name !== s.target ? { ...s, target: name } : s;
  });
}

const targetNameOf = (r: ResolvedRelation): string | null => r.target?.name ?? r.targetName;

export function optimisationSheets(
  result: OptimisationResult,
  index: NetworkIndex,
  inputs: { files: readonly HoFileRead[]; sources: number; relations: number; dumpDate: string | null },
): RunSheet[] {
  const siteOf = (cell: string) => index.cellByName(cell)?.siteId ?? null;
  const remove: RunSheet = {
    name: 'Remove',
    columns: [
      { key: 'source', label: 'Source Cell' },
      { key: 'sourceSite', label: 'Source Site' },
      { key: 'target', label: 'Target Cell' },
      { key: 'relation', label: 'Relation' },
      { key: 'createdBy', label: 'Created By' },
      { key: 'attempts', label: 'Attempts' },
      { key: 'periods', label: 'Periods' },
      { key: 'evidence', label: 'Evidence' },
    ],
    rows: result.remove.map((r) => ({
      source: r.source,
      sourceSite: siteOf(r.source),
      target: r.target,
      relation: r.relationDn,
      createdBy: r.createdBy,
      attempts: r.attempts,
      periods: r.periods,
      evidence: r.evidence,
    })),
  };
  const block: RunSheet = {
    name: 'Block',
    columns: [
      { key: 'source', label: 'Source Cell' },
      { key: 'sourceSite', label: 'Source Site' },
      { key: 'target', label: 'Target Cell' },
      { key: 'relation', label: 'Relation' },
      { key: 'createdBy', label: 'Created By' },
      { key: 'attempts', label: 'Attempts' },
      { key: 'successes', label: 'Successes' },
      { key: 'successRate', label: 'Success Rate (%)' },
      { key: 'periods', label: 'Periods' },
      { key: 'evidence', label: 'Evidence' },
    ],
    rows: result.block.map((r) => ({
      source: r.source,
      sourceSite: siteOf(r.source),
      target: r.target,
      relation: r.relationDn,
      createdBy: r.createdBy,
      attempts: r.attempts,
      successes: r.successes,
      successRate: percent(r.successRate),
      periods: r.periods,
      evidence: r.evidence,
    })),
  };
  const add: RunSheet = {
    name: 'Add',
    columns: [
      { key: 'source', label: 'Source Cell' },
      { key: 'sourceSite', label: 'Source Site' },
      { key: 'target', label: 'Target Cell' },
      { key: 'targetSite', label: 'Target Site' },
      { key: 'attempts', label: 'Attempts' },
      { key: 'successes', label: 'Successes' },
      { key: 'successRate', label: 'Success Rate (%)' },
      { key: 'share', label: 'Share Of Source (%)' },
      { key: 'inDump', label: 'In Dump' },
      { key: 'periods', label: 'Periods' },
      { key: 'evidence', label: 'Evidence' },
    ],
    rows: result.add.map((r) => ({
      source: r.source,
      sourceSite: siteOf(r.source),
      target: r.target,
      targetSite: siteOf(r.target),
      attempts: r.attempts,
      successes: r.successes,
      successRate: percent(r.successRate),
      share: percent(r.share),
      inDump: r.sourceInDump && r.targetInDump ? 'both' : r.sourceInDump ? 'source only' : r.targetInDump ? 'target only' : 'neither',
      periods: r.periods,
      evidence: r.evidence,
    })),
  };
  const t = THRESHOLDS;
  const inputRows: Array<{ item: string; value: string | number | null }> = [
    ...inputs.files.map((f) => ({ item: 'File', value: `${f.name}: ${f.rows} rows` })),
    { item: 'Periods', value: result.periods.length === 0 ? null : result.periods.filter((p) => p !== '').join(', ') || '(none named)' },
    { item: 'Source cells in the statistics', value: inputs.sources },
    { item: 'Defined relations of those cells in the dump', value: inputs.relations },
    { item: 'Dump date', value: inputs.dumpDate },
    { item: 'Remove when', value: 'no handover attempt over every period of the source, and isRemoveAllowed' },
    { item: 'Block when', value: `at least ${t.blockMinAttempts} attempts and a success rate below ${t.blockSuccessRate * 100}% (relations with HO allowed)` },
    {
      item: 'Add when',
      value: `at least ${t.addMinAttempts} attempts${t.addMinShare > 0 ? ` and ${t.addMinShare * 100}% of the source's attempts` : ''} to a cell that is not a defined neighbour`,
    },
  ];
  const inputsSheet: RunSheet = {
    name: 'Inputs',
    columns: [
      { key: 'item', label: 'Item' },
      { key: 'value', label: 'Value' },
    ],
    rows: inputRows,
  };
  return [remove, block, add, inputsSheet];
}

export function summaryOf(result: OptimisationResult): RunSummaryItem[] {
  return [
    { label: 'Remove', count: result.remove.length, tone: 'warning' },
    { label: 'Block', count: result.block.length, tone: 'error' },
    { label: 'Add', count: result.add.length, tone: 'info' },
  ];
}

/** The sheet the page previews: the largest of Remove, Block and Add (the first of equals). */
export function previewSheet(sheets: readonly RunSheet[]): RunSheet {
  const candidates = sheets.slice(0, 3);
  return candidates.reduce((best, s) => (s.rows.length > best.rows.length ? s : best), candidates[0]!);
}

/** Thread task `optimization.neighbours`. */
export async function optimisationTask(params: OptimisationTaskParams, context: TaskContext): Promise<OptimisationAnswer> {
  const files: HoFileRead[] = [];
  const count = params.uploadIds.length;
  for (const [i, id] of params.uploadIds.entries()) {
    let upload: Awaited<ReturnType<typeof resolveUpload>>;
    try {
      upload = await resolveUpload(context.db, context.dataDir, id, params.ownerId, 'xlsx');
    } catch (error) {
      if (error instanceof FileServiceError) throw new JobRefusal(error.statusCode === 404 ? 404 : 400, { message: error.message });
      throw error;
    }
    context.progress((i / count) * 60, `Reading ${upload.name}`);
    try {
      files.push(
        await readHoWorkbook(upload.file, upload.name, (read, share) =>
          context.progress(((i + share) / count) * 60, `Reading ${upload.name}: ${read.toLocaleString('en-US')} rows`),
        ),
      );
    } catch (error) {
      if (error instanceof HoWorkbookError) throw new JobRefusal(400, { message: error.message });
      if (error instanceof WorkbookReadError) throw new JobRefusal(400, { message: `File ${upload.name}: ${error.message}` });
      throw error;
    }
  }
  const stats = files.flatMap((f) => f.stats);
  const fileNames = files.map((f) => f.name);
  if (stats.length === 0) throw new JobRefusal(400, { message: OPTIMIZATION_MESSAGES.noStatistics(fileNames.join(', ')) });

  context.progress(65, 'Reading the relations of the dump');
  const sources = [...new Set(stats.map((s) => s.source))];
  const dump = await loadDumpAround(context.db, sources, [...new Set(stats.map((s) => s.target))]);
  const index = new NetworkIndex(dump);
  context.progress(75, 'Finding remove, block and add candidates');
  const result = optimiseNeighbours(resolveTargets(stats, index), index, THRESHOLDS);
  const scripts = prepareRunScripts(context.dataDir, optimisationScripts(result, index), {
    title: `Neighbour relations optimisation of ${namesText(fileNames)}`,
    tag: 'OPT',
    date: new Date(),
  });

  const sites = [...new Set(sources.flatMap((s) => index.cellByName(s)?.siteId ?? []))].sort();
  const sheets = optimisationSheets(result, index, {
    files,
    sources: sources.length,
    relations: sources.reduce((n, s) => n + index.relationsFrom(s).length, 0),
    dumpDate: await lastImportDate(context.db),
  });
  const summary = summaryOf(result);
  const counts = `${result.remove.length} to remove, ${result.block.length} to block, ${result.add.length} to add`;
  const message = `Optimised ${sources.length} ${sources.length === 1 ? 'cell' : 'cells'} over ${result.periods.length} ${result.periods.length === 1 ? 'period' : 'periods'}: ${counts}.`;

  context.progress(85, 'Writing the workbook');
  fs.mkdirSync(runsDir(context.dataDir), { recursive: true });
  const temp = path.join(runsDir(context.dataDir), `${randomUUID()}.partial.xlsx`);
  try {
    await writeRunWorkbook(temp, sheets);
    const answer = await recordRun(context.db, context.dataDir, {
      kind: 'nbrRelationsOptimization',
      userId: params.ownerId,
      sites,
      files: fileNames,
      parameters: { thresholds: THRESHOLDS, periods: result.periods.length, statistics: stats.length },
      jobId: params.jobId,
      message,
      summary,
      preview: previewOf(previewSheet(sheets)),
      // The candidates; the Inputs sheet says what the run read, not what it found.
      findings: sheets.filter((s) => s.name !== 'Inputs'),
      workbook: { file: temp, fileName: `NbrRelationsOptimization_${fileStamp(new Date())}.xlsx` },
    });
    await scripts?.keep(answer.runId);
    return { ...answer, notice: `Nbr relations optimisation of ${namesText(fileNames)}: ${counts}.` };
  } finally {
    fs.rmSync(temp, { force: true });
  }
}
