import { checkMosScript } from './grammar';
import { unwritable, writeNodeScripts, writeReadme, type ScriptPlan, type ScriptRun } from './mos';

export { checkMosScript, MOM, type GrammarError } from './grammar';
export { ldnOf, filterOf, writeNodeScripts, writeReadme, emptyPlan, type ScriptPlan, type ScriptRun, type ScriptChange, type ScriptNote } from './mos';
export { neighbourScripts } from './neighbours';
export { cpichScripts, recommendCpich, CPICH_LIMITS, type CpichRecommendation } from './cpich';
export { optimisationScripts } from './optimisation';
export { planningScripts } from './planning';

export class ScriptGrammarError extends Error {}

export interface ScriptFiles {
  /** `[name, content]` in zip order: README.txt, sites.txt, then each node's script and its undo. */
  files: Array<[string, string]>;
  nodes: string[];
  changes: number;
}

/**
 * The files of a run's scripts zip, or null when no finding needs a command. A change whose node name
 * or LDNs a script cannot carry is moved to the README; every file is checked against the command
 * grammar before it is handed out, so a generator bug is a loud error, never a script that stops
 * halfway on a node.
 */
export function scriptFiles(plan: ScriptPlan, run: ScriptRun): ScriptFiles | null {
  const byHand = [...plan.byHand];
  const changes = plan.changes.filter((c) => {
    const problem = unwritable(c);
    if (problem) byHand.push(`${c.label} ${c.finding} on ${c.node}: ${problem}`);
    return problem === null;
  });
  if (changes.length === 0) return null;
  const nodes = new Set(changes.map((c) => c.node));
  const scripts = writeNodeScripts({ changes, notes: plan.notes.filter((n) => nodes.has(n.node)), byHand }, run);
  const elsewhere = plan.notes.filter((n) => !nodes.has(n.node)).map((n) => `${n.node}: ${n.label} ${n.text}`);
  const files: Array<[string, string]> = [
    ['README.txt', writeReadme(run, scripts, [...byHand, ...elsewhere])],
    ['sites.txt', `${scripts.map((s) => s.node).join('\n')}\n`],
  ];
  for (const s of scripts) {
    for (const [name, content] of [
      [`${s.node}.mos`, s.script],
      [`${s.node}_undo.mos`, s.undo],
    ] as const) {
      const errors = checkMosScript(content);
      if (errors.length > 0) throw new ScriptGrammarError(`${name}: ${errors.map((e) => `line ${e.line}: ${e.message}`).join('; ')}`);
      files.push([name, content]);
    }
  }
  return { files, nodes: scripts.map((s) => s.node), changes: changes.length };
}
