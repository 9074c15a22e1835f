import { once } from 'node:events';
import { type Writable } from 'node:stream';
import { FORMAT_VERSION } from './identities';

// XML writing

export const esc = (v: string | number): string => String(v).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

export type Field = [string, string | number | Field[] | Array<string | number>];

export function es(fields: Field[]): string {
  let out = '';
  for (const [name, value] of fields) {
    if (Array.isArray(value)) {
      if (value.length > 0 && Array.isArray(value[0])) out += `<es:${name}>${es(value as Field[])}</es:${name}>`;
      else for (const v of value as Array<string | number>) out += `<es:${name}>${esc(v)}</es:${name}>`;
    } else {
      out += `<es:${name}>${esc(value)}</es:${name}>`;
    }
  }
  return out;
}

export const plmnStruct = (p: { mcc: string; mnc: string }): Field[] => [
  ['mcc', p.mcc],
  ['mnc', p.mnc],
  ['mncLength', p.mnc.length],
];

export class XmlOut {
  bytes = 0;
  private parts: string[] = [];
  private pending = 0;

  constructor(private readonly sink: Writable | null) {}

  push(s: string): void {
    this.parts.push(s);
    this.pending += s.length;
  }

  /** Opens a VsDataContainer (children follow; close with {@link closeVs}). */
  openVs(id: string | number, type: string, fields: Field[]): void {
    this.push(
      `<xn:VsDataContainer id="${esc(id)}">\n<xn:attributes>\n<xn:vsDataType>vsData${type}</xn:vsDataType>\n` +
        `<xn:vsDataFormatVersion>${FORMAT_VERSION}</xn:vsDataFormatVersion>\n<es:vsData${type}>${es(fields)}</es:vsData${type}>\n</xn:attributes>\n`,
    );
  }

  closeVs(): void {
    this.push('</xn:VsDataContainer>\n');
  }

  vs(id: string | number, type: string, fields: Field[]): void {
    this.openVs(id, type, fields);
    this.closeVs();
  }

  async maybeFlush(): Promise<void> {
    if (this.pending >= 1 << 16) await this.flush();
  }

  async flush(): Promise<void> {
    if (this.parts.length === 0) return;
    const data = this.parts.join('');
    this.parts = [];
    this.pending = 0;
    this.bytes += Buffer.byteLength(data);
    if (this.sink && !this.sink.write(data)) await once(this.sink, 'drain');
  }
}

export interface RelationAttrs {
  createdBy?: string;
  isRemoveAllowed: boolean;
  isHoAllowed: boolean;
}

export function relationFields(ref: [string, string], a: RelationAttrs): Field[] {
  const f: Field[] = [ref];
  if (a.createdBy !== undefined) f.push(['createdBy', a.createdBy]);
  f.push(['isRemoveAllowed', String(a.isRemoveAllowed)], ['isHoAllowed', String(a.isHoAllowed)]);
  return f;
}

/** Intra-site relations are planned by the operator; the rest mostly come from ANR / X2. */
export function relationAttrs(r: () => number, intraSite: boolean, withCreatedBy: boolean): RelationAttrs {
  const x = r();
  const createdBy = intraSite ? (x < 0.8 ? 'OPERATOR' : 'ANR') : x < 0.6 ? 'ANR' : x < 0.7 ? 'X2' : 'OPERATOR';
  const a: RelationAttrs = {
    isRemoveAllowed: intraSite ? r() < 0.3 : r() < 0.9,
    isHoAllowed: r() < 0.97,
  };
  if (withCreatedBy) a.createdBy = createdBy;
  return a;
}
