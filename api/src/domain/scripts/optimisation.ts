import type { NetworkIndex, ResolvedRelation } from '../planning/network-index';
import type { OptimisationResult } from '../planning/optimisation';
import { bool, classOf, emptyPlan, ldnOf, type ScriptPlan } from './mos';
import { addOutcome, deleteRelation, relationNode } from './relations';

/**
 * Corrective scripts from a neighbour optimisation (issue 46): `del` for each remove candidate (a relation
 * with no handover attempt, allowed to be removed) and `set … isHoAllowed false` for each block candidate
 * (handovers that mostly fail). Add candidates stay in the workbook: whether to define a neighbour the
 * statistics only suggest is the engineer's call.
 */

/** Relation classes that carry isHoAllowed. */
const HO_CLASSES = new Set(['EUtranCellRelation', 'UtranCellRelation', 'NRCellRelation']);

function relationAt(index: NetworkIndex, source: string, dn: string): ResolvedRelation | null {
  return index.relationsFrom(source).find((r) => r.relation.dn === dn) ?? null;
}

export function optimisationScripts(result: OptimisationResult, index: NetworkIndex): ScriptPlan {
  const plan = emptyPlan();
  for (const c of result.remove) {
    const finding = `${c.source} -> ${c.target}`;
    const r = relationAt(index, c.source, c.relationDn);
    if (!r) plan.byHand.push(`REMOVE ${finding}: ${c.relationDn} is not in the dump read`);
    else addOutcome(plan, deleteRelation(r, 'REMOVE', finding, c.evidence));
  }
  for (const c of result.block) {
    const finding = `${c.source} -> ${c.target}`;
    const r = relationAt(index, c.source, c.relationDn);
    const node = r ? relationNode(r) : null;
    if (!r || node === null) {
      plan.byHand.push(`BLOCK ${finding}: ${c.relationDn} is not in the dump read`);
      continue;
    }
    const ldn = ldnOf(r.relation.dn);
    if (!HO_CLASSES.has(classOf(ldn))) {
      plan.notes.push({ node, label: 'BLOCK', text: `${finding}: ${classOf(ldn)} has no isHoAllowed: not scripted` });
      continue;
    }
    plan.changes.push({
      node,
      label: 'BLOCK',
      finding,
      commands: [{ verb: 'set', ldn, attribute: 'isHoAllowed', value: bool(false), why: c.evidence }],
      undo: [{ verb: 'set', ldn, attribute: 'isHoAllowed', value: bool(true), why: 'handovers allowed again' }],
    });
  }
  return plan;
}
