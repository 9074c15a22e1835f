import { type DnComponent, type MoRecord } from '../records';
import { DN_TECHNOLOGY_CLASSES, FUNCTION_CLASSES } from './classes';

/** Where a record sits: its DN's components and what they show (its node, a controller, functions). */

/** A DN component, with the DN up to it when a reader handed it over ({@link MoRecord.path}). */
export type Part = DnComponent & { readonly dn?: string };

/** The DN of `parts[0..upTo]`: the reader's when it gave one, else joined. */
export function dnAt(parts: readonly Part[], upTo: number): string {
  const known = (parts[upTo] as Part).dn;
  if (known !== undefined) return known;
  let s = '';
  for (let i = 0; i <= upTo; i++) {
    const p = parts[i] as Part;
    s += (i === 0 ? '' : ',') + `${p.className}=${p.id}`;
  }
  return s;
}

export interface NodeKey {
  name: string;
  dn: string;
  /** True when the key is a MeContext (which wins over any ManagedElement of the DN). */
  meContext: boolean;
}

/**
 * What the mapper needs from a DN, worked out once per record from its parent's and reused by its
 * children (records arrive parents first, so only the last component or two are ever looked at). With
 * a reader's {@link MoRecord.path}, `parts` is that array and nothing is split.
 */
export interface DnPath {
  parts: readonly Part[];
  /** `parts` is a reader's path: its steps are shared objects, so a prefix is tested by identity. */
  steps: boolean;
  /** The node the DN is in: its first MeContext, else its first ManagedElement. */
  node: NodeKey | null;
  /** A controller function (RncFunction, BscFunction) is among the components. */
  controller: boolean;
  /**
   * The function classes among the components (and GsmSector), shared with the parent's path when the
   * new components add none, so a record only looks at them when they changed.
   */
  functions: readonly string[];
}

const NO_FUNCTIONS: readonly string[] = [];

export function keyAt(parts: readonly Part[], at: number): NodeKey {
  const p = parts[at] as Part;
  return { name: p.id, dn: dnAt(parts, at), meContext: p.className === 'MeContext' };
}

/** The path of `parent` extended to `parts`, of which the first `parent.parts.length` are the parent's. */
export function extendPath(parent: DnPath | null, parts: readonly Part[], steps: boolean): DnPath {
  let node = parent?.node ?? null;
  let controller = parent?.controller ?? false;
  let functions = parent?.functions ?? NO_FUNCTIONS;
  const from = parent ? parent.parts.length : 0;
  for (let i = from; i < parts.length; i++) {
    const cls = (parts[i] as Part).className;
    if (cls === 'MeContext' && !node?.meContext) node = keyAt(parts, i);
    else if (cls === 'ManagedElement' && !node) node = keyAt(parts, i);
    if (FUNCTION_CLASSES[cls]?.controller === true) controller = true;
    if (DN_TECHNOLOGY_CLASSES[cls] && !functions.includes(cls)) functions = [...functions, cls];
  }
  return { parts, steps, node, controller, functions };
}

/** The reader's path of `rec` extends `path` (or is it): tested on the shared step objects. */
export function stepsExtend(path: DnPath, rec: MoRecord): boolean {
  const steps = rec.path;
  if (!steps || !path.steps) return false;
  const depth = path.parts.length;
  return depth <= steps.length && steps[depth - 1] === path.parts[depth - 1];
}

/**
 * Whether `top` (with `path`) is `rec`'s MO or one of its ancestors. Shared steps say so at once; else
 * (no reader path, or an MO of the same DN met again) `rec.dn` is `top.dn` or starts with `top.dn,`.
 */
export function isAncestorOrSelf(top: MoRecord, path: DnPath, rec: MoRecord): boolean {
  if (stepsExtend(path, rec)) return true;
  // Cheap tests first: the parsers hand over the parent's own DN string as `parentDn`, and startsWith
  // on long DNs costs more than the rest of a record's mapping.
  const topDn = top.dn;
  const dn = rec.dn;
  return topDn === dn || (dn.charCodeAt(topDn.length) === 44 && (topDn === rec.parentDn || dn.startsWith(topDn)));
}
