import { type CellTech, type Rat, type Relation } from '../model';
import { type MoRecord } from '../records';
import { bool, lastComponent, str } from './attributes';
import { CELL_CLASSES, EXTERNAL_CLASSES, ratOf, RELATION_CLASSES, TARGET_ATTRIBUTES } from './classes';
import { dnAt, type Part } from './path';

/**
 * The relation a relation MO stands for (docs/engines/network.md): its source is the nearest cell
 * above it, its target the first reference attribute present; null when no cell is above it.
 */
export function relationOf(rec: MoRecord, parts: readonly Part[], nodeName: string | null): Relation | null {
  let source = -1;
  for (let i = parts.length - 2; i >= 0; i--) {
    if (CELL_CLASSES[(parts[i] as Part).className]) {
      source = i;
      break;
    }
  }
  if (source < 0) return null;
  const sourceRat = ratOf(CELL_CLASSES[(parts[source] as Part).className] as CellTech);
  const targetRef = str(rec, ...TARGET_ATTRIBUTES);
  const targetClass = lastComponent(targetRef)?.className ?? '';
  const targetTech = CELL_CLASSES[targetClass] ?? EXTERNAL_CLASSES[targetClass];
  const targetRat = targetTech ? ratOf(targetTech) : (RELATION_CLASSES[rec.className] as Rat);
  const createdBy = str(rec, 'createdBy');
  return {
    dn: rec.dn,
    name: rec.id,
    nodeName,
    sourceCellDn: dnAt(parts, source),
    kind: `${sourceRat}-${targetRat}`,
    targetRef,
    createdBy: createdBy === null ? null : createdBy.toUpperCase(),
    isRemoveAllowed: bool(rec, ['isRemoveAllowed', 'removeAllowed'], true),
    isHoAllowed: bool(rec, ['isHoAllowed', 'hoAllowed'], true),
  };
}
