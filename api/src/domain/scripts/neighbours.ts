import type { Cell, ExternalCell } from '../network/model';
import type { NbrValidationRow } from '../planning/neighbour-validation';
import type { NetworkIndex, ResolvedRelation } from '../planning/network-index';
import { classOf, emptyPlan, int, ldnOf, type MosCommand, type MosValue, type ScriptPlan } from './mos';
import { addOutcome, CreatedMos, createRelation, deleteRelation, relationNode, type Outcome } from './relations';

/**
 * Corrective scripts from a neighbour relations validation (issue 46): `crn` for a MISSING relation
 * (the proxies of the target's node and cell first when it is on another node), `del` for an EXTRA
 * relation whose isRemoveAllowed is true (one that is not allowed to go gets a comment saying it was
 * left), `set` for the stale attributes of a WRONG relation's external cell. Findings a script cannot
 * settle (a source the dump does not know, a relation that leads to another cell) are said, not guessed.
 */

const arrow = (row: NbrValidationRow) => `${row.source} -> ${row.target}`;

function relationOf(index: NetworkIndex, row: NbrValidationRow): ResolvedRelation | null {
  if (row.relationDn === null) return null;
  return index.relationsFrom(row.source).find((r) => r.relation.dn === row.relationDn) ?? null;
}

interface AttributeFix {
  attribute: string;
  from: number;
  to: number;
  what: string;
}

/** The external cell's attributes that differ from the real cell's, as that class names them; what cannot be set is returned apart. */
function proxyFixes(ext: ExternalCell, cell: Cell): { fixes: AttributeFix[]; unsettable: string[] } {
  const cls = classOf(ldnOf(ext.dn));
  const fixes: AttributeFix[] = [];
  const unsettable: string[] = [];
  const add = (attribute: string, from: number | null, to: number | null, what: string) => {
    if (from !== null && to !== null && from !== to) fixes.push({ attribute, from, to, what });
  };
  const pciParts = (from: number | null, to: number | null) => {
    if (from === null || to === null || from === to) return;
    add('physicalLayerCellIdGroup', Math.floor(from / 3), Math.floor(to / 3), `PCI ${from} -> ${to}`);
    add('physicalLayerSubCellId', from % 3, to % 3, `PCI ${from} -> ${to}`);
  };
  switch (cls) {
    case 'ExternalEUtranCellFDD':
    case 'ExternalEUtranCellTDD':
      pciParts(ext.pci, cell.pci);
      add('tac', ext.tac, cell.tac, `TAC ${ext.tac} -> ${cell.tac}`);
      break;
    case 'ExternalGUtranCell':
      pciParts(ext.pci, cell.pci);
      if (ext.tac !== null && (cell.nrTac ?? cell.tac) !== null && ext.tac !== (cell.nrTac ?? cell.tac)) unsettable.push(`TAC (${cls} carries none to set)`);
      break;
    case 'ExternalNRCellCU':
      add('nRPCI', ext.pci, cell.pci, `PCI ${ext.pci} -> ${cell.pci}`);
      add('nRTAC', ext.tac, cell.nrTac ?? cell.tac, `TAC ${ext.tac} -> ${cell.nrTac ?? cell.tac}`);
      break;
    case 'ExternalUtranCellFDD':
      add('physicalCellIdentity', ext.psc, cell.psc, `PSC ${ext.psc} -> ${cell.psc}`);
      add('lac', ext.lac, cell.lac, `LAC ${ext.lac} -> ${cell.lac}`);
      break;
    case 'ExternalUtranCell':
      add('primaryScramblingCode', ext.psc, cell.psc, `PSC ${ext.psc} -> ${cell.psc}`);
      add('lac', ext.lac, cell.lac, `LAC ${ext.lac} -> ${cell.lac}`);
      break;
    case 'ExternalGeranCell':
      if (ext.bsic !== null && cell.bsic !== null && ext.bsic !== cell.bsic) {
        add('ncc', ext.bsic >> 3, cell.bsic >> 3, `BSIC ${ext.bsic} -> ${cell.bsic}`);
        add('bcc', ext.bsic & 7, cell.bsic & 7, `BSIC ${ext.bsic} -> ${cell.bsic}`);
      }
      add('lac', ext.lac, cell.lac, `LAC ${ext.lac} -> ${cell.lac}`);
      break;
    default:
      unsettable.push(`${cls} attributes`);
  }
  const channelDiffers = ext.channel !== null && cell.channel !== null && ext.channel !== cell.channel && !(ext.kind === '5G' && ext.channel === cell.ssb);
  if (channelDiffers) unsettable.push(`channel ${ext.channel} -> ${cell.channel} (the proxy belongs under another frequency: delete it and create it there)`);
  return { fixes, unsettable };
}

/** The scripts' changes for a validation's rows (the engine's output) over the dump it read. */
export function neighbourScripts(rows: readonly NbrValidationRow[], index: NetworkIndex): ScriptPlan {
  const plan = emptyPlan();
  const created = new CreatedMos();
  const fixedProxies = new Map<string, string>();
  const take = (outcome: Outcome) => addOutcome(plan, outcome);
  for (const row of rows) {
    switch (row.verdict) {
      case 'OK':
        break;
      case 'MISSING': {
        const source = index.cellByName(row.source);
        const target = index.cellByName(row.target);
        if (!source) plan.byHand.push(`MISSING ${arrow(row)}: ${row.reason}`);
        else if (!target)
          take({ label: 'MISSING', byHand: `${arrow(row)}: ${row.target} is not in the dump, so its identity is unknown`, node: source.nodeName });
        else take(createRelation(index, source, target, 'MISSING', arrow(row), created));
        break;
      }
      case 'EXTRA': {
        const r = relationOf(index, row);
        if (!r) {
          plan.byHand.push(`EXTRA ${arrow(row)}: ${row.relationDn ?? 'the relation'} is not in the dump read`);
        } else if (!r.relation.isRemoveAllowed) {
          const node = relationNode(r);
          const text = `${arrow(row)}: left in place, isRemoveAllowed is false (createdBy ${r.relation.createdBy ?? 'unknown'})`;
          if (node === null) plan.byHand.push(`EXTRA ${text}`);
          else plan.notes.push({ node, label: 'EXTRA', text });
        } else {
          take(deleteRelation(r, 'EXTRA', arrow(row), `not planned (createdBy ${r.relation.createdBy ?? 'unknown'}, isRemoveAllowed true)`));
        }
        break;
      }
      case 'WRONG': {
        const r = relationOf(index, row);
        const node = r ? relationNode(r) : null;
        if (!r || !r.external || !r.target || node === null) {
          // The relation leads to another cell or nowhere, or the plan disagrees with the real cell: a person decides.
          take({ label: 'WRONG', byHand: `${arrow(row)}: ${row.reason}`, node: node ?? index.cellByName(row.source)?.nodeName ?? null });
          break;
        }
        const proxyNode = r.external.nodeName ?? node;
        const { fixes, unsettable } = proxyFixes(r.external, r.target);
        const earlier = fixedProxies.get(r.external.dn);
        if (earlier) {
          plan.notes.push({ node: proxyNode, label: 'WRONG', text: `${arrow(row)}: its external cell ${r.external.name} is corrected above (${earlier})` });
          break;
        }
        if (fixes.length === 0 && unsettable.length === 0) {
          take({ label: 'WRONG', byHand: `${arrow(row)}: ${row.reason}`, node: proxyNode });
          break;
        }
        if (fixes.length > 0) {
          fixedProxies.set(r.external.dn, arrow(row));
          const ldn = ldnOf(r.external.dn);
          const set = (attribute: string, value: MosValue, why: string): MosCommand => ({ verb: 'set', ldn, attribute, value, why });
          plan.changes.push({
            node: proxyNode,
            label: 'WRONG',
            finding: arrow(row),
            commands: fixes.map((f) =>
              set(f.attribute, int(f.to), `external cell ${r.external!.name}: ${f.attribute} ${f.from} -> ${f.to} (${f.what}, as ${r.target!.name} has it)`),
            ),
            undo: fixes.map((f) => set(f.attribute, int(f.from), `external cell ${r.external!.name}: ${f.attribute} back to ${f.from}`)),
          });
        }
        for (const what of unsettable)
          plan.notes.push({ node: proxyNode, label: 'WRONG', text: `${arrow(row)}: external cell ${r.external.name}, ${what}: not scripted` });
        break;
      }
    }
  }
  return plan;
}
