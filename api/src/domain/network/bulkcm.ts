import { SaxesParser, type SaxesTagPlain } from 'saxes';
import { ChunkDecoder } from './decode';
import { NetworkParseError } from './errors';
import { addAttribute, assertChunk, type Attributes, type ChunkSource, type DnStep, type MoRecord } from './records';

/**
 * Streaming reader for 3GPP Bulk CM XML (TS 32.615 `bulkCmConfigDataFile`), including the Ericsson
 * flavour where most MOs are `xn:VsDataContainer`s typed by `xn:vsDataType`.
 *
 * Memory: only the open-element stack (the current MO's ancestors) and the attributes of MOs not yet
 * emitted are held. An MO is emitted as soon as its first child MO is known (its attributes precede
 * its children in every real export) or when it closes, so parents always come before children.
 *
 * Rules worth knowing:
 * - Elements are matched by local name; prefixes and namespace URIs are ignored.
 * - A VsDataContainer whose type equals its parent MO's class is that MO's vendor extension (Ericsson
 *   writes `MeContext=X` + `VsDataContainer id=X type vsDataMeContext`): its attributes are merged into
 *   the parent record. If the parent was already emitted, the extension is emitted as a second record
 *   with the same DN (`vendor: true`); consumers merge records by DN. The container's id does not
 *   matter: OSS-RC writes `<un:UtranRelation id="CC1405B">` holding a `vsDataUtranRelation` container
 *   with id `CC1405A` (the source cell's). Only SubNetworks nest in their own class, so a typed
 *   SubNetwork container with another id stays a child.
 * - Attributes that arrive after an MO was emitted (an `<attributes>` block after child MOs) are
 *   emitted the same way, as a second record with the same DN.
 * - The `configData` `dnPrefix` and the bulk CM `modifier` attribute are ignored: DNs start at the
 *   outermost MO of the file.
 */

interface MoState {
  rawName: string;
  id: string;
  className: string | null;
  container: boolean;
  parent: MoState | null;
  dn: string | null;
  /** The DN's components; its last step is shared with every MO below this one. */
  path: readonly DnStep[] | null;
  attrs: Attributes;
  emitted: boolean;
  /** Vendor extension of the (not yet emitted) parent: attributes go to the parent. */
  mergeInto: MoState | null;
  /** Vendor extension of an already emitted parent: re-emitted under the parent's DN. */
  supplementOf: MoState | null;
  line: number;
  column: number;
}

type Frame =
  | { t: 'root'; raw: string }
  | { t: 'config'; raw: string }
  | { t: 'skip'; raw: string }
  | { t: 'mo'; raw: string; mo: MoState }
  | { t: 'attrs'; raw: string; mo: MoState }
  | { t: 'vsattrs'; raw: string; mo: MoState }
  | { t: 'vstype'; raw: string; mo: MoState; text: string }
  | { t: 'vsdata'; raw: string; mo: MoState }
  | { t: 'attr'; raw: string; mo: MoState; path: string; text: string; hasChildren: boolean };

const ROOT = 'bulkCmConfigDataFile';

/** Classes whose instances contain instances of the same class (3GPP TS 32.622: SubNetwork in SubNetwork). */
const SELF_NESTING = new Set(['SubNetwork']);

function localName(qname: string): string {
  const i = qname.indexOf(':');
  return i < 0 ? qname : qname.slice(i + 1);
}

/** `meContext` and other lower-case spellings name the same class as their 3GPP capitalised form. */
function normaliseClass(name: string): string {
  return name.length > 0 ? name.charAt(0).toUpperCase() + name.slice(1) : name;
}

function stripVsData(type: string): string {
  const t = type.trim();
  return normaliseClass(t.startsWith('vsData') ? t.slice('vsData'.length) : t);
}

/** `Class=id` reads back as this class and id from a DN split at commas and at its first `=`, trimmed. */
function isPlainComponent(className: string, id: string): boolean {
  return className !== '' && className.trim() === className && !/[,=]/.test(className) && !id.includes(',');
}

function isEmpty(attrs: Attributes): boolean {
  for (const _ in attrs) return false;
  return true;
}

/**
 * Parses a Bulk CM file and yields its managed objects in document order (parents before children).
 * Rejects with {@link NetworkParseError} on malformed input; records already yielded must then be
 * discarded by the caller (the importer's transaction does that).
 */
export async function* parseBulkCm(input: ChunkSource): AsyncGenerator<MoRecord> {
  for await (const batch of parseBulkCmBatches(input)) yield* batch;
}

/**
 * {@link parseBulkCm} a batch at a time: the records completed by one input chunk (a few hundred at
 * most for a 64 KiB chunk), never empty. An importer takes these: one await per chunk instead of one
 * per record.
 */
export async function* parseBulkCmBatches(input: ChunkSource): AsyncGenerator<MoRecord[]> {
  const reader = new BulkCmReader();
  const decoder = new ChunkDecoder({ xml: true, position: () => reader.position() });
  for await (const raw of input) {
    reader.write(decoder.push(assertChunk(raw)));
    const batch = reader.take();
    if (batch) yield batch;
  }
  reader.write(decoder.end());
  reader.finish();
  const last = reader.take();
  if (last) yield last;
}

class BulkCmReader {
  private readonly parser = new SaxesParser<{ xmlns: false; position: true }>({ xmlns: false, position: true });
  private readonly stack: Frame[] = [];
  private queue: MoRecord[] = [];
  private rootClosed = false;
  /** saxes pops (and reports) the open element before it complains about a mismatched close tag. */
  private lastClosed: string | null = null;
  private tagLine = 1;
  private tagColumn = 1;

  constructor() {
    const p = this.parser;
    p.on('opentagstart', (tag) => {
      this.tagLine = p.line;
      // saxes has consumed '<', the name and the character that ended it; step back to the '<' (1-based).
      this.tagColumn = Math.max(1, p.column - tag.name.length - 1);
    });
    p.on('opentag', (tag) => this.open(tag));
    p.on('closetag', () => this.close());
    p.on('text', (text) => this.text(text));
    p.on('cdata', (text) => this.text(text));
    p.on('error', (err) => {
      throw this.saxError(err);
    });
  }

  position(): { line: number; column: number } {
    return { line: this.parser.line, column: this.parser.column + 1 };
  }

  write(text: string): void {
    if (text.length > 0) this.parser.write(text);
  }

  /** The records completed since the last call; null when there are none. */
  take(): MoRecord[] | null {
    if (this.queue.length === 0) return null;
    const out = this.queue;
    this.queue = [];
    return out;
  }

  finish(): void {
    const open = this.stack[this.stack.length - 1];
    if (open) throw this.fail(`unexpected end of file inside <${open.raw}>`);
    if (!this.rootClosed) throw this.fail(`the file is empty: no <${ROOT}> root element`);
    this.parser.close();
  }

  private fail(reason: string, line?: number, column?: number): NetworkParseError {
    const at = this.position();
    return new NetworkParseError(line ?? at.line, column ?? at.column, reason);
  }

  private saxError(err: Error): NetworkParseError {
    if (err instanceof NetworkParseError) return err;
    let reason = err.message.replace(/^(?:[^:]*:)?\d+:\d+: /, '').replace(/\.$/, '');
    if (reason === 'unexpected close tag' && this.lastClosed) reason = `unexpected close tag (expected </${this.lastClosed}>)`;
    if (reason.startsWith('unclosed tag') || reason === 'unexpected end') reason = 'unexpected end of file';
    return this.fail(`malformed XML: ${reason}`);
  }

  private text(text: string): void {
    const top = this.stack[this.stack.length - 1];
    // Text between the fields of a struct is indentation; only leaf values are kept.
    if (top && ((top.t === 'attr' && !top.hasChildren) || top.t === 'vstype')) top.text += text;
  }

  private open(tag: SaxesTagPlain): void {
    const raw = tag.name;
    const ln = localName(raw);
    const parent = this.stack[this.stack.length - 1];
    const at = (reason: string): NetworkParseError => this.fail(reason, this.tagLine, this.tagColumn);

    if (!parent) {
      if (this.rootClosed) throw at(`unexpected element <${raw}> after the root element`);
      if (ln !== ROOT) throw at(`the root element is <${raw}>; a 3GPP Bulk CM file starts with <${ROOT}>`);
      this.stack.push({ t: 'root', raw });
      return;
    }
    switch (parent.t) {
      case 'root':
        this.stack.push(ln === 'configData' ? { t: 'config', raw } : { t: 'skip', raw });
        return;
      case 'skip':
        this.stack.push({ t: 'skip', raw });
        return;
      case 'config':
      case 'mo': {
        if (parent.t === 'mo' && ln === 'attributes') {
          this.stack.push(parent.mo.container ? { t: 'vsattrs', raw, mo: parent.mo } : { t: 'attrs', raw, mo: parent.mo });
          return;
        }
        const id = tag.attributes['id'];
        if (id === undefined || id.trim() === '') throw at(`<${raw}> has no id attribute; every managed object needs one`);
        const owner = parent.t === 'mo' ? this.dnOwner(parent.mo) : null;
        if (owner && owner.className === null) {
          throw at(`<${owner.rawName} id="${owner.id}"> contains child objects before its vsDataType`);
        }
        const container = ln.toLowerCase() === 'vsdatacontainer';
        const mo: MoState = {
          rawName: raw,
          id: id.trim(),
          className: container ? null : normaliseClass(ln),
          container,
          parent: owner,
          dn: null,
          path: null,
          attrs: {},
          emitted: false,
          mergeInto: null,
          supplementOf: null,
          line: this.tagLine,
          column: this.tagColumn,
        };
        if (!container) this.place(mo);
        this.stack.push({ t: 'mo', raw, mo });
        return;
      }
      case 'attrs':
        this.stack.push({ t: 'attr', raw, mo: parent.mo, path: ln, text: '', hasChildren: false });
        return;
      case 'vsattrs':
        if (ln === 'vsDataType') {
          this.stack.push({ t: 'vstype', raw, mo: parent.mo, text: '' });
        } else if (ln === 'vsDataFormatVersion') {
          this.stack.push({ t: 'skip', raw });
        } else if (ln.startsWith('vsData')) {
          if (parent.mo.className === null) this.typeContainer(parent.mo, stripVsData(ln));
          this.stack.push({ t: 'vsdata', raw, mo: parent.mo });
        } else {
          this.stack.push({ t: 'attr', raw, mo: parent.mo, path: ln, text: '', hasChildren: false });
        }
        return;
      case 'vsdata':
        this.stack.push({ t: 'attr', raw, mo: parent.mo, path: ln, text: '', hasChildren: false });
        return;
      case 'attr':
        parent.hasChildren = true;
        this.stack.push({ t: 'attr', raw, mo: parent.mo, path: `${parent.path}.${ln}`, text: '', hasChildren: false });
        return;
      case 'vstype':
        throw at(`unexpected element <${raw}> inside <${parent.raw}>`);
    }
  }

  private close(): void {
    const frame = this.stack.pop();
    if (!frame) return;
    this.lastClosed = frame.raw;
    switch (frame.t) {
      case 'root':
        this.rootClosed = true;
        return;
      case 'attr':
        if (!frame.hasChildren) addAttribute(this.bag(frame.mo), frame.path, frame.text.trim());
        return;
      case 'vstype': {
        const type = frame.text.trim();
        if (frame.mo.className === null && type !== '') this.typeContainer(frame.mo, stripVsData(type));
        return;
      }
      case 'mo':
        this.closeMo(frame.mo);
        return;
      default:
        return;
    }
  }

  /** The MO whose DN children of `mo` extend: a merged vendor extension stands for its parent. */
  private dnOwner(mo: MoState): MoState {
    return mo.mergeInto ?? mo.supplementOf ?? mo;
  }

  private bag(mo: MoState): Attributes {
    return mo.mergeInto ? mo.mergeInto.attrs : mo.attrs;
  }

  /** Gives a standard MO (or a typed container) its DN; the parent must be out before any child. */
  private place(mo: MoState): void {
    const parent = mo.parent;
    if (parent) this.ensureEmitted(parent);
    const className = mo.className as string;
    mo.dn = parent ? `${parent.dn as string},${className}=${mo.id}` : `${className}=${mo.id}`;
    // A component a split of the DN would not give back (a comma in the id…) gets no path: the mapper
    // then splits the DN and reports it as it always did.
    const plain = (!parent || parent.path !== null) && isPlainComponent(className, mo.id);
    const step: DnStep = { className, id: mo.id, dn: mo.dn };
    mo.path = !plain ? null : parent ? [...(parent.path as DnStep[]), step] : [step];
  }

  private typeContainer(mo: MoState, className: string): void {
    mo.className = className;
    const parent = mo.parent;
    if (parent && parent.className === className && (parent.id === mo.id || !SELF_NESTING.has(className))) {
      if (!parent.emitted) {
        mo.mergeInto = parent;
        for (const [k, v] of Object.entries(mo.attrs)) {
          for (const one of typeof v === 'string' ? [v] : v) addAttribute(parent.attrs, k, one);
        }
        mo.attrs = {};
      } else {
        mo.supplementOf = parent;
      }
      return;
    }
    this.place(mo);
  }

  private ensureEmitted(mo: MoState): void {
    if (mo.emitted) return;
    if (mo.parent) this.ensureEmitted(mo.parent);
    this.emit(mo, mo.attrs);
    mo.emitted = true;
    mo.attrs = {};
  }

  private closeMo(mo: MoState): void {
    if (mo.className === null) {
      throw this.fail(`<${mo.rawName} id="${mo.id}"> (line ${mo.line}) has no vsDataType`);
    }
    if (mo.mergeInto) return;
    if (mo.supplementOf) {
      this.emitAs(mo.supplementOf, mo, mo.attrs, true);
      mo.attrs = {};
      return;
    }
    if (!mo.emitted) {
      this.ensureEmitted(mo);
    } else if (!isEmpty(mo.attrs)) {
      this.emit(mo, mo.attrs);
      mo.attrs = {};
    }
  }

  private emit(mo: MoState, attrs: Attributes): void {
    this.emitAs(mo, mo, attrs, mo.container);
  }

  private emitAs(identity: MoState, source: MoState, attrs: Attributes, vendor: boolean): void {
    const rec: MoRecord = {
      dn: identity.dn as string,
      className: identity.className as string,
      id: identity.id,
      parentDn: identity.parent ? (identity.parent.dn as string) : null,
      attributes: attrs,
      line: source.line,
      column: source.column,
    };
    if (identity.path) rec.path = identity.path;
    if (vendor) rec.vendor = true;
    this.queue.push(rec);
  }
}
