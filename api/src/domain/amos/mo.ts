import { type LinkInterface, type MoFacts, type MoTech } from './types';

/** `Class=id` pairs of an MO text (`ENodeBFunction=1,EUtranCellFDD=LX0001_1`); an RDN without `=` ends the list. */
export function rdns(mo: string): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  let i = 0;
  while (i < mo.length) {
    let comma = mo.indexOf(',', i);
    if (comma < 0) comma = mo.length;
    const part = mo.slice(i, comma);
    const eq = part.indexOf('=');
    if (eq <= 0 || !isClassName(part, eq)) break;
    out.push([part.slice(0, eq), part.slice(eq + 1)]);
    i = comma + 1;
  }
  return out;
}

function isClassName(s: string, end: number): boolean {
  return isClassNameAt(s, 0, end);
}

/** Class name characters: 1 for letters, 2 for digits and `_` (not first). */
const CLASS_CHARS = new Uint8Array(128);
for (let c = 0; c < 128; c += 1) {
  if ((c >= 65 && c <= 90) || (c >= 97 && c <= 122)) CLASS_CHARS[c] = 1;
  else if ((c >= 48 && c <= 57) || c === 95) CLASS_CHARS[c] = 2;
}

/** `s[start, end)` is a class name: a letter, then letters, digits and `_`. */
export function isClassNameAt(s: string, start: number, end: number): boolean {
  if (end <= start) return false;
  const c0 = s.charCodeAt(start);
  if (c0 >= 128 || CLASS_CHARS[c0] !== 1) return false;
  for (let i = start + 1; i < end; i += 1) {
    const c = s.charCodeAt(i);
    if (c >= 128 || CLASS_CHARS[c] === 0) return false;
  }
  return true;
}

/** True when `s` starts with `Class=` (used to find where an MO begins in an alarm row). */
export function looksLikeMo(s: string): boolean {
  const eq = s.indexOf('=');
  return eq > 0 && eq < 80 && isClassName(s, eq);
}

/** Technology named by a class: EUtranCell* → 4G, NbIotCell* → NB-IoT, NRCell* → 5G, UtranCell/NodeBLocalCell → 3G, GsmSector/Trx/GeranCell* → 2G. */
export function techOfClass(cls: string): MoTech | null {
  // Every cell class starts with E, N, U, G or T, and the second character tells them apart: most
  // classes are told by two characters, and a class is a cut string, on which a native comparison costs
  // more than a loop over a few characters.
  const c0 = cls.charCodeAt(0);
  const c1 = cls.charCodeAt(1);
  switch (c0) {
    case 69: // E
      return c1 === 85 && hasAt(cls, 'EUtranCell', 0) ? '4G' : null;
    case 78: // N
      if (c1 === 98) return hasAt(cls, 'NbIotCell', 0) ? 'NB-IoT' : null;
      if (c1 === 82) return hasAt(cls, 'NRCell', 0) ? '5G' : null;
      return c1 === 111 && isAt(cls, 'NodeBLocalCell', 0) ? '3G' : null;
    case 85: // U
      return isAt(cls, 'UtranCell', 0) ? '3G' : null;
    case 71: // G
      if (c1 === 115) return isAt(cls, 'GsmSector', 0) ? '2G' : null;
      return c1 === 101 && hasAt(cls, 'GeranCell', 0) ? '2G' : null;
    case 84: // T
      return isAt(cls, 'Trx', 0) ? '2G' : null;
    default:
      return null;
  }
}

/** `s.startsWith(part, at)`, compared in a loop (see {@link techOfClass}). */
function hasAt(s: string, part: string, at: number): boolean {
  const len = part.length;
  if (at + len > s.length) return false;
  for (let k = 0; k < len; k += 1) if (s.charCodeAt(at + k) !== part.charCodeAt(k)) return false;
  return true;
}

/** `s.slice(at) === part`, compared in a loop. */
function isAt(s: string, part: string, at: number): boolean {
  return s.length === at + part.length && hasAt(s, part, at);
}

/** `LINKS[cls]` without looking a cut string up among the property names (all of them start with T, I or A). */
function linkOfClass(cls: string): LinkInterface | undefined {
  switch (cls.charCodeAt(0)) {
    case 84: // TermPointTo…
      if (cls.length < 14 || !hasAt(cls, 'TermPointTo', 0)) return undefined;
      if (isAt(cls, 'Mme', 11)) return 'S1';
      if (isAt(cls, 'ENB', 11) || isAt(cls, 'GNB', 11) || isAt(cls, 'ENodeB', 11)) return 'X2';
      if (isAt(cls, 'GNodeB', 11)) return 'Xn';
      if (isAt(cls, 'Amf', 11)) return 'NG';
      return isAt(cls, 'GNBDU', 11) || isAt(cls, 'GNBCUCP', 11) ? 'F1' : undefined;
    case 73:
      return isAt(cls, 'IubLink', 0) || isAt(cls, 'Iub', 0) ? 'Iub' : undefined;
    case 65:
      return isAt(cls, 'AbisIp', 0) ? 'Abis' : undefined;
    default:
      return undefined;
  }
}

/**
 * Class, technology and cell of an MO. The technology comes from the outermost RDN with a cell class,
 * so an MO below a cell (`EUtranCellFDD=X,EUtranFreqRelation=Y`) counts for that cell; an MO with no
 * cell class is site level.
 */
export function moFacts(mo: string): MoFacts {
  const facts = sharedMoFacts(mo);
  return { mo, moClass: facts.moClass, tech: facts.tech, cell: facts.cell };
}

/** MO facts as {@link sharedMoFacts} keeps them. */
export interface SharedMoFacts extends Readonly<MoFacts> {
  /**
   * The MO up to the `=` of its last RDN (`…,EUtranCellRelation=`) when every RDN was read, else null.
   * Sibling MOs read one after the other share this string.
   */
  readonly head: string | null;
  /** The cell is the id of the last RDN. */
  readonly cellIsLast: boolean;
  /** {@link linkOf} the MO. */
  readonly link: LinkInterface | null;
  /** Class of each RDN when every RDN was read (head not null), else null. */
  readonly classes: readonly string[] | null;
  /** Index in classes of the RDN whose id is the cell (-1: none). */
  readonly cellAt: number;
}

let lastFacts: SharedMoFacts | null = null;

/**
 * {@link moFacts} without the copy, for callers that only read it. Tables print one MO on several
 * consecutive rows (one per attribute): the last answer is reused. Sibling MOs follow each other too
 * (`…,EUtranCellRelation=1`, `…,EUtranCellRelation=2`): an MO that differs from the last one only in the
 * id of its last RDN has the same classes, so only the cell may change.
 */
export function sharedMoFacts(mo: string): SharedMoFacts {
  const last = lastFacts;
  if (last !== null && last.mo === mo) return last;
  return newMoFacts(mo);
}

/** {@link sharedMoFacts} for an MO the caller knows to differ from the last one (facts are the same either way). */
export function newMoFacts(mo: string): SharedMoFacts {
  const last = lastFacts;
  const head = last === null ? null : last.head;
  // The cheap tests first: `=` where the head ends and no RDN after it; then the head itself.
  if (
    last !== null &&
    head !== null &&
    mo.length >= head.length &&
    mo.charCodeAt(head.length - 1) === 61 &&
    mo.indexOf(',', head.length) < 0 &&
    mo.slice(0, head.length) === head
  ) {
    lastFacts = {
      mo,
      moClass: last.moClass,
      tech: last.tech,
      cell: last.cellIsLast ? mo.slice(head.length) : last.cell,
      head,
      cellIsLast: last.cellIsLast,
      link: last.link,
      classes: last.classes,
      cellAt: last.cellAt,
    };
    return lastFacts;
  }
  lastFacts = (last === null ? null : sameClasses(mo, last)) ?? computeFacts(mo);
  return lastFacts;
}

/**
 * The facts of `mo` when its RDNs have the classes of `last`'s, in order (`…,ExternalENodeBFunction=A,
 * TermPointToENB=1` after `…=B,TermPointToENB=1`): classes decide the class, technology and link, and
 * only the ids are read. Null when the classes differ. A class is compared by one native search that
 * must find it in place (a loop over its characters costs several times more on a cut string).
 */
function sameClasses(mo: string, last: SharedMoFacts): SharedMoFacts | null {
  const classes = last.classes;
  if (classes === null) return null;
  const final = classes.length - 1;
  let cell: string | null = null;
  let i = 0;
  for (let k = 0; k < final; k += 1) {
    const cls = classes[k]!;
    const eq = i + cls.length;
    if (mo.charCodeAt(eq) !== 61 || mo.indexOf(cls, i) !== i) return null;
    const comma = mo.indexOf(',', eq + 1);
    if (comma < 0) return null;
    if (k === last.cellAt) cell = mo.slice(eq + 1, comma);
    i = comma + 1;
  }
  const cls = classes[final]!;
  const eq = i + cls.length;
  if (mo.charCodeAt(eq) !== 61 || mo.indexOf(cls, i) !== i || mo.indexOf(',', eq + 1) >= 0) return null;
  if (final === last.cellAt) cell = mo.slice(eq + 1);
  return {
    mo,
    moClass: last.moClass,
    tech: last.tech,
    cell,
    head: mo.slice(0, eq + 1),
    cellIsLast: last.cellIsLast,
    link: last.link,
    classes,
    cellAt: last.cellAt,
  };
}

/** {@link rdns} walked in place (no pairs built): the outermost cell class and the last class. */
function computeFacts(mo: string): SharedMoFacts {
  let tech: MoTech = 'site';
  let cell: string | null = null;
  let moClass: string | null = null;
  let head: string | null = null;
  let cellIsLast = false;
  let link: LinkInterface | null = null;
  const classes: string[] = [];
  let cellAt = -1;
  for (let i = 0; i < mo.length;) {
    // The class is read up to its first non-class character, which must be the `=` (a `,` cannot come first).
    const c0 = mo.charCodeAt(i);
    if (c0 >= 128 || CLASS_CHARS[c0] !== 1) break;
    let eq = i + 1;
    for (let c = mo.charCodeAt(eq); c < 128 && CLASS_CHARS[c] !== 0; c = mo.charCodeAt(eq)) eq += 1;
    if (mo.charCodeAt(eq) !== 61) break;
    let comma = mo.indexOf(',', eq + 1);
    const final = comma < 0;
    if (final) comma = mo.length;
    moClass = mo.slice(i, eq);
    classes.push(moClass);
    if (cell === null) {
      const t = techOfClass(moClass);
      if (t) {
        tech = t;
        cell = mo.slice(eq + 1, comma);
        cellIsLast = final;
        cellAt = classes.length - 1;
      }
    }
    if (c0 === 84 || c0 === 73 || c0 === 65) link = linkOfClass(moClass) ?? link; // as linkOf
    if (final) head = mo.slice(0, eq + 1);
    i = comma + 1;
  }
  return { mo, moClass, tech, cell, head, cellIsLast, link, classes: head === null ? null : classes, cellAt };
}

const LINKS: Record<string, LinkInterface> = {
  TermPointToMme: 'S1',
  TermPointToENB: 'X2',
  TermPointToGNB: 'X2',
  TermPointToENodeB: 'X2',
  TermPointToGNodeB: 'Xn',
  TermPointToAmf: 'NG',
  TermPointToGNBDU: 'F1',
  TermPointToGNBCUCP: 'F1',
  IubLink: 'Iub',
  Iub: 'Iub',
  AbisIp: 'Abis',
};

/** Interface of a termination point / link MO, from its deepest RDN that names one; null otherwise. */
export function linkOf(mo: string): LinkInterface | null {
  let link: LinkInterface | null = null;
  for (let i = 0; i < mo.length;) {
    let comma = mo.indexOf(',', i);
    if (comma < 0) comma = mo.length;
    const eq = mo.indexOf('=', i);
    if (eq <= i || eq >= comma || !isClassNameAt(mo, i, eq)) break;
    // Only the class names of LINKS: they all start with T, I or A.
    const c0 = mo.charCodeAt(i);
    if (c0 === 84 || c0 === 73 || c0 === 65) link = LINKS[mo.slice(i, eq)] ?? link;
    i = comma + 1;
  }
  return link;
}
