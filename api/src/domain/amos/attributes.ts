import { type Block } from './blocks';
import { type BlockContext, excerpt, refOf, report, truncated } from './context';
import { looksLikeMo, newMoFacts, type SharedMoFacts, sharedMoFacts } from './mo';
import { isBlank, isRule, isRuleAt, isTrimmed, skipSpaces, skipSpacesAt, skipToken, skipWord, toInt, tokens, trimmedAt, trimmedSlice } from './text';
import { type AttributeItem, type MoAttribute, type MoTech } from './types';

/**
 * `get` and `hget`. Checked against public moshell/AMOS logs:
 *
 *     MO                                                      Attribute         Value          (get . attr)
 *     Router=LTE,InterfaceIPv4=LTE,AddressIPv4=1              reservedBy        [3] =
 *     >>> reservedBy = ENodeBFunction=1
 *     >>> reservedBy = Transport=1,SctpEndpoint=LTE
 *     ENodeBFunction=1                                        eNBId             142198
 *     Total: 1 MOs
 *
 *     382  ENodeBFunction=1                                                                   (get <one MO>)
 *     ===========================================
 *     ENodeBFunctionId                     1
 *
 *     MO                                             electricalAntennaTilt operationalState userLabel   (hget)
 *     AntennaUnitGroup=1,AntennaNearUnit=1,RetSubUnit=1 30                 1 (ENABLED)      S1_RET
 *
 * `hget` columns are cut at the header's column starts; a value wider than its column moves the next
 * cut to the end of the word it runs into.
 */

const TOTAL_RE = /^Total:\s*(\d+)\s+MOs?\b/;
const ARRAY_RE = /^\[(\d+)\]\s*=?\s*$/;

/** `[3] =` → 3; null for any other value. */
function declaredItems(value: string): number | null {
  if (value.charCodeAt(0) !== 91) return null;
  const m = ARRAY_RE.exec(value);
  return m ? Number(m[1]) : null;
}

/** `>>> name = value` (`>>> 1.field = value` inside structs). */
function continuation(text: string): AttributeItem {
  const body = text.trim().slice(3).trim();
  const eq = body.indexOf(' = ');
  if (eq >= 0) return { name: body.slice(0, eq).trim(), value: body.slice(eq + 3).trim() };
  const bare = body.indexOf('=');
  if (bare >= 0) return { name: body.slice(0, bare).trim(), value: body.slice(bare + 1).trim() };
  return { name: '', value: body };
}

/**
 * Counts distinct MOs without hashing each MO text: a Set of MO texts (often 100 characters) costs a
 * full hash of every new text, and nearly every MO of a table is new. An MO is its head (all but the
 * id of its last RDN, one string shared by siblings read in a row, so hashed once) and that id.
 */
export class DistinctMos {
  private byHead = new Map<string, Set<string>>();
  private whole = new Set<string>();
  private ids = 0;

  /** The Set of the last head (siblings come in runs: one look-up per run). */
  private lastHead: string | null = null;
  private lastIds: Set<string> | null = null;

  /** `id` is the MO without its head, when the caller has it at hand. */
  add(mo: string, head: string | null, id: string | null = null): void {
    if (head === null) {
      this.whole.add(mo);
      return;
    }
    let ids = head === this.lastHead ? this.lastIds : this.byHead.get(head);
    if (ids === undefined || ids === null) {
      ids = new Set();
      this.byHead.set(head, ids);
    }
    this.lastHead = head;
    this.lastIds = ids;
    const before = ids.size;
    ids.add(id ?? mo.slice(head.length));
    this.ids += ids.size - before;
  }

  get size(): number {
    return this.whole.size + this.ids;
  }

  clear(): void {
    this.lastHead = null;
    this.lastIds = null;
    if (this.ids > 0 || this.byHead.size > 0) this.byHead = new Map();
    if (this.whole.size > 0) this.whole = new Set();
    this.ids = 0;
  }
}

/**
 * The items of a value without `>>>` lines (nearly all): one frozen empty array for all of them rather
 * than one array each; the first item read gives the value its own array.
 */
const NO_ITEMS = Object.freeze([]) as unknown as AttributeItem[];

/** Bits of the technologies of skipped values (site level is never recorded). */
const TECH_BITS: Readonly<Record<MoTech, number>> = { '2G': 1, '3G': 2, '4G': 4, '5G': 8, 'NB-IoT': 16, site: 0 };
const TECHS = Object.keys(TECH_BITS) as MoTech[];

class Collector {
  readonly out: MoAttribute[];
  private last: MoAttribute | null = null;
  private readonly mos = new DistinctMos();
  /** MO of the last value added (null at the start of a table). */
  lastMo: string | null = null;
  private lastLine = -1;
  private lastSource: MoAttribute['source'] | null = null;
  /** {@link ParseOptions.keepAttributes} (null: every value is built). */
  private readonly keep: ReadonlySet<string> | null;
  /** The block is of the log's own node: only then do skipped values count in its technologies. */
  private readonly own: boolean;
  /** TECH_BITS of the values skipped so far; added to the context when the block is read through. */
  private skippedTechs = 0;
  /** The last value was skipped: what its `>>>` items are checked against (last is null then). */
  private skipped: SkippedValue | null = null;
  constructor(
    private readonly block: Block,
    private readonly ctx: BlockContext,
    into: MoAttribute[],
  ) {
    this.out = into;
    this.keep = ctx.keep;
    const own = ctx.ownNode;
    this.own = own !== null && (block.node === own || block.node.toLowerCase() === own.toLowerCase());
  }

  /** Facts of factsMo (the MO of the last value, unless a skipped value did not need them). */
  private facts: SharedMoFacts | null = null;
  private factsMo: string | null = null;
  /** factsMo is a RetSubUnit. */
  private isRet = false;

  /** Facts of `mo`, kept for the rows of the same MO that follow. */
  private factsOf(mo: string, known: SharedMoFacts | null): SharedMoFacts {
    let facts = this.facts;
    if (known !== null || facts === null || mo !== this.factsMo) {
      facts = known ?? sharedMoFacts(mo);
      this.facts = facts;
      this.factsMo = mo;
      const cls = facts.moClass;
      this.isRet = cls !== null && cls.length === 10 && cls === 'RetSubUnit';
    }
    return facts;
  }

  /** Counts a new MO for the footer. */
  private count(mo: string, facts: SharedMoFacts): void {
    this.mos.add(mo, facts.head, facts.cellIsLast ? facts.cell : null);
    this.lastMo = mo;
  }

  /**
   * One attribute value of `mo` read on line `n`; built field by field (never spread), so every row has
   * one shape. Skipped instead when its attribute is not kept (and its MO is not a RetSubUnit).
   */
  add(mo: string, attribute: string, value: string, n: number, known: SharedMoFacts | null = null): void {
    // `known`: the facts of an MO the caller knows to differ from lastMo.
    this.finish();
    const newMo = known !== null || mo !== this.lastMo;
    const facts = this.factsOf(mo, known);
    if (newMo) this.count(mo, facts);
    const kept = this.keep === null || this.keep.has(attribute);
    if (!kept && !this.isRet) {
      this.skip(attribute, mo, facts, value.charCodeAt(0) === 91 ? declaredItems(value) : null, n);
      return;
    }
    // The values of one hget row share their line's source.
    if (n !== this.lastLine) {
      this.lastSource = refOf(this.ctx, n);
      this.lastLine = n;
    }
    const attr: MoAttribute = {
      node: this.block.node,
      command: this.block.command,
      source: this.lastSource!,
      mo,
      moClass: facts.moClass,
      tech: facts.tech,
      cell: facts.cell,
      attribute,
      value,
      declaredItems: value.charCodeAt(0) === 91 ? declaredItems(value) : null,
      items: NO_ITEMS,
    };
    if (kept) this.out.push(attr);
    if (this.isRet && this.ctx.rets !== null) this.ctx.rets.push(attr);
    this.last = attr;
  }

  /**
   * A value of a table row that is not kept, known by where it starts in the block's text: nothing is cut
   * unless it declares items (`[n] =`) or its MO is a RetSubUnit (then it is added as any value).
   */
  skipAt(mo: string, attribute: string, all: string, valueAt: number, valueEnd: number, n: number, known: SharedMoFacts | null): void {
    const facts = known ?? (mo === this.factsMo && this.facts !== null ? this.facts : null);
    if (facts === null || facts.moClass === 'RetSubUnit') {
      this.add(mo, attribute, trimmedAt(all, valueAt, valueEnd), n, known);
      return;
    }
    this.finish();
    if (known !== null || mo !== this.lastMo) {
      this.factsOf(mo, known);
      this.count(mo, facts);
    }
    let first = valueAt;
    while (first < valueEnd && isTrimmed(all.charCodeAt(first))) first += 1;
    this.skip(attribute, mo, facts, all.charCodeAt(first) === 91 ? declaredItems(trimmedAt(all, first, valueEnd)) : null, n);
  }

  private skip(attribute: string, mo: string, facts: SharedMoFacts, declared: number | null, n: number): void {
    if (this.own) this.skippedTechs |= TECH_BITS[facts.tech];
    // Only a value that declares items needs remembering: its `>>>` lines are counted against it.
    this.skipped = declared === null ? SKIPPED_PLAIN : { attribute, mo, declared, items: 0, line: n };
  }

  /** A `>>>` line: an item of the last attribute. */
  item(text: string, n: number): void {
    if (this.skipped !== null) {
      if (this.skipped !== SKIPPED_PLAIN) this.skipped.items += 1;
      return;
    }
    if (!this.last) {
      report(this.ctx, this.block, 'unparsed-line', `continuation without an attribute: ${excerpt(text)}`, n);
      return;
    }
    if (this.last.items === NO_ITEMS) this.last.items = [];
    this.last.items.push(continuation(text));
  }

  /** An indented line that is not a row: the last value wraps. */
  wrap(text: string): boolean {
    if (this.skipped !== null) return true;
    if (!this.last) return false;
    this.last.value = `${this.last.value} ${text.trim()}`.trim();
    return true;
  }

  /** Checks `[n] =` of the last attribute against its `>>>` items. */
  finish(): void {
    const a = this.last;
    this.last = null;
    if (a && a.declaredItems !== null && a.declaredItems !== a.items.length) {
      report(this.ctx, this.block, 'count-mismatch', `${a.attribute} of ${a.mo} says [${a.declaredItems}], items read: ${a.items.length}`, a.source.line);
    }
    const s = this.skipped;
    this.skipped = null;
    if (s !== null && s.declared !== null && s.declared !== s.items) {
      report(this.ctx, this.block, 'count-mismatch', `${s.attribute} of ${s.mo} says [${s.declared}], items read: ${s.items}`, s.line);
    }
  }

  /** MOs of the current table are counted from here (for its `Total: N MOs`). */
  startTable(): void {
    this.mos.clear();
    this.lastMo = null;
  }

  distinctMos(): number {
    return this.mos.size;
  }

  /** The block was read through: its skipped values count in the node's technologies. */
  done(): void {
    if (this.skippedTechs === 0) return;
    for (const tech of TECHS) if ((this.skippedTechs & TECH_BITS[tech]) !== 0) this.ctx.skippedTechs.add(tech);
  }
}

/** A value read but not built: what its `>>>` lines are counted against when it declares `[n] =`. */
interface SkippedValue {
  attribute: string;
  mo: string;
  declared: number | null;
  items: number;
  line: number;
}

/** What a skipped value without declared items leaves behind: its `>>>` lines are accepted, not counted. */
const SKIPPED_PLAIN: SkippedValue = {
  attribute: '',
  mo: '',
  declared: null,
  items: 0,
  line: 0,
};

/**
 * Ends of words in one text, asked for at rising positions (rows are read left to right, top to
 * bottom): the next space (and tab) is searched for once and kept until passed, so a text without
 * spaces is not searched to its end once per line.
 */
class WordEnds {
  private space = -1;
  private tab = -1;
  constructor(
    private readonly text: string,
    private readonly tabs: boolean,
  ) {}

  /** {@link skipWord} of `text[from, to)`. */
  end(from: number, to: number): number {
    const text = this.text;
    if (this.space < from) {
      this.space = text.indexOf(' ', from);
      if (this.space < 0) this.space = text.length;
    }
    let end = this.space;
    if (this.tabs) {
      if (this.tab < from) {
        this.tab = text.indexOf('\t', from);
        if (this.tab < 0) this.tab = text.length;
      }
      if (this.tab < end) end = this.tab;
    }
    return end < to ? end : to;
  }
}

/**
 * Attribute names of a table's rows: a table repeats a few names row after row (three per relation, one
 * per cell parameter), so each is looked up in the kept set (a hash of the name) once, and the rows after
 * it compare their name with it and share its string.
 */
class AttributeNames {
  private readonly seen: string[] = [];
  private readonly keptSeen: boolean[] = [];
  private next = 0;
  /** Whether the name returned last is kept ({@link ParseOptions.keepAttributes}). */
  kept = true;
  constructor(
    private readonly text: string,
    private readonly keep: ReadonlySet<string> | null,
  ) {}

  /** The name at `text[from, to)`. */
  at(from: number, to: number): string {
    // A cut and a comparison: V8's startsWith compares character by character, several times slower.
    const name = this.text.slice(from, to);
    const seen = this.seen;
    for (let k = 0; k < seen.length; k += 1) {
      const known = seen[k]!;
      if (known.length === name.length && known === name) {
        this.kept = this.keptSeen[k]!;
        return known;
      }
    }
    this.kept = this.keep === null || this.keep.has(name);
    // A few slots, reused in turn: a table with more names than that only loses the shortcut.
    const slot = seen.length < ATTRIBUTE_SLOTS ? seen.length : this.next;
    this.next = (slot + 1) % ATTRIBUTE_SLOTS;
    seen[slot] = name;
    this.keptSeen[slot] = this.kept;
    return name;
  }
}

const ATTRIBUTE_SLOTS = 8;

/** Attributes of one `get` block, added to `into` (returned). Table rows are read in place in the block's text. */
export function parseGetBlock(block: Block, ctx: BlockContext, into: MoAttribute[] = []): MoAttribute[] {
  const c = new Collector(block, ctx, into);
  let mode: 'none' | 'table' | 'single' = 'none';
  let singleMo = '';
  let seen = false;
  let afterRule = false;
  const all = block.text;
  const { starts, ends, ns } = block;
  const words = new WordEnds(all, ctx.tabs);
  const names = new AttributeNames(all, ctx.keep);

  for (let k = 0; k < starts.length; k += 1) {
    const s = starts[k]!;
    const e = ends[k]!;
    const n = ns[k]!;
    if (n === block.headerLine) continue;
    const first = skipSpacesAt(all, s, e);
    if (first === e) continue; // blank
    const c0 = all.charCodeAt(first);
    if ((c0 === 61 || c0 === 32) && isRuleAt(all, s, e)) {
      afterRule = true;
      continue;
    }
    const wasAfterRule = afterRule;
    afterRule = false;
    // A table row, told from the header (M), the footer (T), `>>>` items and a proxy line after a rule
    // (digits) by its first character: `MO  attribute  value`, read in place. Rows of one MO follow each
    // other: the MO of the row before is compared in place, not cut again.
    if (mode === 'table' && first === s && c0 !== 84 && c0 !== 62 && !(c0 === 77 && all.startsWith('MO', s)) && !(wasAfterRule && c0 >= 48 && c0 <= 57)) {
      const moEnd = words.end(s, e);
      const last = c.lastMo;
      // The length and the last character (the id) first: most new MOs differ there.
      let mo = all.slice(s, moEnd);
      const same = last !== null && mo.length === last.length && mo.charCodeAt(mo.length - 1) === last.charCodeAt(last.length - 1) && mo === last;
      if (same) mo = last;
      const attrAt = skipSpacesAt(all, moEnd, e);
      const attrEnd = words.end(attrAt, e);
      // A new MO's facts are needed anyway (a class read means it holds an `=`); it is known to differ
      // from the last one, so no string is compared again.
      const facts = same ? null : newMoFacts(mo);
      if ((facts !== null && facts.moClass === null && !mo.includes('=')) || attrEnd === attrAt) {
        report(ctx, block, 'unparsed-line', `not an attribute row: ${excerpt(all.slice(s, e))}`, n);
        continue;
      }
      const attribute = names.at(attrAt, attrEnd);
      if (names.kept) c.add(mo, attribute, trimmedAt(all, attrEnd, e), n, facts);
      else c.skipAt(mo, attribute, all, attrEnd, e, n, facts);
      continue;
    }
    // Header, proxy line and footer are told by their first character, so a table row is never tokenised.
    const text = all.slice(s, e);
    const at = first - s;
    if (c0 === 77 && text.startsWith('MO', at)) {
      const tk = tokens(text);
      if (tk.length === 3 && tk[0] === 'MO' && tk[1] === 'Attribute' && tk[2] === 'Value') {
        c.finish();
        mode = 'table';
        c.startTable();
        seen = true;
        continue;
      }
    }
    if (wasAfterRule && c0 >= 48 && c0 <= 57) {
      const tk = tokens(text);
      if (tk.length === 2 && toInt(tk[0]!) !== null && looksLikeMo(tk[1]!)) {
        // `get <MO>`: `<proxy>  <MO>` between rules, then `attribute value` rows.
        c.finish();
        mode = 'single';
        singleMo = tk[1]!;
        if (!seen) c.startTable();
        seen = true;
        continue;
      }
    }
    const total = c0 === 84 ? TOTAL_RE.exec(text.slice(at)) : null;
    if (total) {
      // Also a bare `Total: 0 MOs` printed without a table.
      c.finish();
      seen = true;
      const mos = c.distinctMos();
      if (Number(total[1]) !== mos) report(ctx, block, 'count-mismatch', `footer says ${total[1]} MOs, MOs read: ${mos}`, n);
      mode = 'none';
      c.startTable();
      continue;
    }
    if (mode === 'none') continue;
    if (c0 === 62 && text.startsWith('>>>', at)) {
      c.item(text, n);
      continue;
    }
    if (at > 0) {
      if (!c.wrap(text)) report(ctx, block, 'unparsed-line', `not an attribute row: ${excerpt(text)}`, n);
      continue;
    }
    if (mode === 'single') {
      const end = skipToken(text, 0);
      c.add(singleMo, text.slice(0, end), text.slice(skipSpaces(text, end)).trim(), n);
      continue;
    }
    const moEnd = skipWord(text, 0, ctx.tabs);
    let mo = text.slice(0, moEnd);
    if (mo === c.lastMo) mo = c.lastMo;
    const attrAt = skipSpaces(text, moEnd);
    const attrEnd = skipWord(text, attrAt, ctx.tabs);
    if ((mo !== c.lastMo && !mo.includes('=')) || attrEnd === attrAt) {
      report(ctx, block, 'unparsed-line', `not an attribute row: ${excerpt(text)}`, n);
      continue;
    }
    c.add(mo, text.slice(attrAt, attrEnd), trimmedSlice(text, skipSpaces(text, attrEnd)), n);
  }
  c.finish();
  c.done();
  if (!seen) truncated(ctx, block, 'no attribute table');
  else if (mode !== 'none') truncated(ctx, block, 'attribute table without its Total: N MOs footer');
  return c.out;
}

interface Columns {
  names: string[];
  /** Start of each column, the MO column first. */
  starts: number[];
}

function headerColumns(text: string): Columns | null {
  const names: string[] = [];
  const starts: number[] = [];
  let i = skipSpaces(text, 0);
  while (i < text.length) {
    const end = skipToken(text, i);
    names.push(text.slice(i, end));
    starts.push(i);
    i = skipSpaces(text, end);
  }
  if (names[0] !== 'MO' || names.length < 2) return null;
  return { names: names.slice(1), starts };
}

/**
 * Cuts an hget row at the header's column starts; returns the MO and one value per attribute column.
 * An MO longer than its column, or a value running into the next column, shifts the rest of the row.
 */
export function cutHgetRow(text: string, cols: Columns): { mo: string; values: string[] } {
  const moEnd = skipToken(text, 0);
  const cuts: number[] = [];
  let shift = cols.starts.length > 1 && moEnd >= cols.starts[1]! ? moEnd + 1 - cols.starts[1]! : 0;
  for (let k = 1; k < cols.starts.length; k += 1) {
    const at = cols.starts[k]! + shift;
    if (k > 1 && at < text.length && text.charCodeAt(at - 1) !== 32 && text.charCodeAt(at) !== 32) {
      // Inside a word that started left of the cut: that word belongs to the column before.
      const moved = skipSpaces(text, skipToken(text, at));
      shift += moved - at;
      cuts.push(moved);
    } else cuts.push(at);
  }
  const values: string[] = [];
  for (let k = 0; k < cuts.length; k += 1) {
    const from = cuts[k]!;
    const to = k + 1 < cuts.length ? cuts[k + 1]! : text.length;
    values.push(from < text.length ? text.slice(from, Math.max(from, to)).trim() : '');
  }
  return { mo: text.slice(0, moEnd), values };
}

/** Attributes of one `hget` block: one entry per row and column, added to `into` (returned). */
export function parseHgetBlock(block: Block, ctx: BlockContext, into: MoAttribute[] = []): MoAttribute[] {
  const c = new Collector(block, ctx, into);
  let cols: Columns | null = null;
  let rows = 0;
  let seen = false;
  for (let k = 0; k < block.lines.length; k += 1) {
    const text = block.lines[k]!;
    const n = block.ns[k]!;
    if (n === block.headerLine || isBlank(text) || isRule(text)) continue;
    const trimmed = text.trim();
    if (trimmed.startsWith('MO ')) {
      const h = headerColumns(text);
      if (h) {
        c.finish();
        cols = h;
        seen = true;
        continue;
      }
    }
    const total = TOTAL_RE.exec(trimmed);
    if (total) {
      // Also a bare `Total: 0 MOs` printed without a table.
      c.finish();
      seen = true;
      if (Number(total[1]) !== rows) report(ctx, block, 'count-mismatch', `footer says ${total[1]} MOs, rows read: ${rows}`, n);
      rows = 0;
      cols = null;
      continue;
    }
    if (!cols) continue;
    if (trimmed.startsWith('>>>')) {
      c.item(text, n);
      continue;
    }
    if (text.charCodeAt(0) === 32 || !text.slice(0, skipToken(text, 0)).includes('=')) {
      report(ctx, block, 'unparsed-line', `not an hget row: ${excerpt(text)}`, n);
      continue;
    }
    const { mo, values } = cutHgetRow(text, cols);
    rows += 1;
    cols.names.forEach((name, k) => c.add(mo, name, values[k] ?? '', n));
  }
  c.finish();
  c.done();
  if (!seen) truncated(ctx, block, 'no hget table');
  else if (cols) truncated(ctx, block, 'hget table without its Total: N MOs footer');
  return c.out;
}
