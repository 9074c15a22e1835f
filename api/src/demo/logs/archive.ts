import { type Kysely } from 'kysely';
import { type Database } from '../../db/schema';
import { ZipOutput } from '../../files/zip-output';
import { emptyCounts } from './formats';
import { readDemoLogNodes } from './inventory';
import { type DemoLogNode, type DemoLogOptions, type DemoLogSummary, MOBATCH_RESULT_FILE } from './model';
import { type Category, ipOf, nodeLog, type NodePlan, SECOND, unreachableLog } from './node-log';
import { int, rngFor } from '../random';

/**
 * Writes the MoBatch output archive of `nodes` to `file`: `<node>.log` for each and `mobatch_result.txt`.
 * Deterministic for the same nodes, seed, now and scale.
 */
export async function writeLogArchive(file: string, nodes: readonly DemoLogNode[], options: DemoLogOptions = {}): Promise<DemoLogSummary> {
  const seed = options.seed ?? 1;
  const now = options.now ?? new Date();
  const scale = options.scale ?? {};
  const summary: DemoLogSummary = {
    logs: 0,
    textBytes: 0,
    unreachable: null,
    alarms: { unacknowledged: emptyCounts(), acknowledged: emptyCounts() },
    clean: [],
    warningsOnly: [],
    lockedCells: [],
    disabledCells: [],
    disabledTermPoints: [],
    deviations: [],
    crlfFiles: [],
    ipPrefixedFile: null,
    cvlsFile: null,
  };
  const pickR = rngFor(seed, 0xfffff, 9);
  const radio = nodes.filter((n) => n.type === 'RadioNode');
  const candidates = radio.length > 0 ? radio : nodes;
  // Not the first node, so the first site of the list (the one a newcomer opens) is alive.
  const unreachable = candidates.length === 0 ? null : candidates[candidates.length > 1 ? 1 + Math.floor(pickR() * (candidates.length - 1)) : 0]!;
  summary.unreachable = unreachable?.name ?? null;
  const radioNames = radio.map((n) => n.name);

  // Sessions run one after another: the last one ends a little before `now`.
  const secondsPerNode = 20;
  const first = now.getTime() - (nodes.length + 1) * secondsPerNode * SECOND;
  const results: string[] = [];
  const zip = new ZipOutput(file, now);
  try {
    let reachable = 0;
    let mixed = 0;
    for (let i = 0; i < nodes.length; i += 1) {
      const node = nodes[i]!;
      const ip = ipOf(i);
      const start = new Date(first + i * secondsPerNode * SECOND);
      const fileName = `${node.name}.log`;
      if (node === unreachable) {
        const text = unreachableLog(node, ip, start, 10_000 + i);
        await zip.add(fileName, text);
        summary.textBytes += Buffer.byteLength(text);
        summary.logs += 1;
        results.push(`${'no contact'.padEnd(12)}0m15s  ${node.name}`);
        continue;
      }
      const k = reachable;
      reachable += 1;
      const slot = (k + seed) % 8;
      const category: Category = slot === 0 ? 'clean' : slot === 3 ? 'warnings' : 'mixed';
      const at = radioNames.indexOf(node.name);
      const r = rngFor(seed, i, 2);
      const wanted = scale.termPoints ?? int(r, 2, 5);
      const neighbours: string[] = [];
      for (let d = 1; at >= 0 && neighbours.length < Math.min(wanted, radioNames.length - 1); d += 1)
        neighbours.push(radioNames[(at + d) % radioNames.length]!);
      const plan: NodePlan = {
        node,
        index: i,
        ip,
        start,
        category,
        mixedIndex: category === 'mixed' ? mixed : k,
        neighbours,
        crlf: k % 5 === 2,
        ipPrefix: k === 1,
        cvls: k === 3,
      };
      if (category === 'mixed') mixed += 1;
      const outcome = nodeLog(plan, seed, now, scale);
      await zip.add(fileName, outcome.text);
      summary.textBytes += Buffer.byteLength(outcome.text);
      summary.logs += 1;
      for (const a of outcome.unack) summary.alarms.unacknowledged[a.severity] += 1;
      for (const a of outcome.ack) summary.alarms.acknowledged[a.severity] += 1;
      const all = [...outcome.unack, ...outcome.ack];
      if (all.length === 0) summary.clean.push(node.name);
      else if (all.every((a) => a.severity === 'w')) summary.warningsOnly.push(node.name);
      summary.lockedCells.push(...outcome.locked);
      summary.disabledCells.push(...outcome.disabled);
      summary.disabledTermPoints.push(...outcome.disabledTerms);
      summary.deviations.push(...outcome.deviations);
      if (plan.crlf) summary.crlfFiles.push(fileName);
      if (plan.ipPrefix) summary.ipPrefixedFile = fileName;
      if (plan.cvls) summary.cvlsFile = fileName;
      const seconds = 8 + Math.floor(r() * 12);
      results.push(`${'OK'.padEnd(12)}0m${seconds}s  ${node.name}`);
    }
    const result = results.join('\n') + '\n';
    await zip.add(MOBATCH_RESULT_FILE, result);
    summary.textBytes += Buffer.byteLength(result);
    await zip.close();
  } catch (error) {
    await zip.discard();
    throw error;
  }
  return summary;
}

/** Writes the MoBatch output archive of the stored network inventory (see {@link writeLogArchive}). */
export async function writeDemoLogArchive(db: Kysely<Database>, file: string, options: DemoLogOptions = {}): Promise<DemoLogSummary> {
  return writeLogArchive(file, await readDemoLogNodes(db), options);
}
