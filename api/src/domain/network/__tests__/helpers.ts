/* Shared by the colocated tests of this folder; not exported from index.ts. */
import { createReadStream, existsSync } from 'node:fs';
import path from 'node:path';
import { type Cell, type ExternalCell, type NetworkNode, type Relation, type Site } from '../model';
import { type NetworkSink } from '../mapper';
import { type MoRecord } from '../records';

export const BODASTAGE_DIR = path.resolve(__dirname, '../../../../test/fixtures/bodastage');
export const FIXTURES_DIR = path.resolve(__dirname, '../../../../test/fixtures/network');

export function bodastage(name: string): string {
  const p = path.join(BODASTAGE_DIR, name);
  if (!existsSync(p)) throw new Error(`sample ${p} is missing`);
  return p;
}

export function fixture(name: string): string {
  const p = path.join(FIXTURES_DIR, name);
  if (!existsSync(p)) throw new Error(`fixture ${p} is missing`);
  return p;
}

/** Small highWaterMark so even the tiny fixtures arrive in many chunks, split anywhere. */
export function stream(file: string, highWaterMark = 97): NodeJS.ReadableStream & AsyncIterable<Buffer> {
  return createReadStream(file, { highWaterMark });
}

export async function collect<T>(it: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const x of it) out.push(x);
  return out;
}

export function byDn(records: MoRecord[], dn: string): MoRecord {
  const r = records.find((x) => x.dn === dn);
  if (!r) throw new Error(`no record ${dn}; have:\n${records.map((x) => x.dn).join('\n')}`);
  return r;
}

export interface Captured {
  sites: Site[];
  nodes: NetworkNode[];
  cells: Cell[];
  externalCells: ExternalCell[];
  relations: Relation[];
  /** Entity kinds in the order the sink saw them, e.g. 'site:LX0001'. */
  order: string[];
}

export function capture(): { sink: NetworkSink; got: Captured } {
  const got: Captured = { sites: [], nodes: [], cells: [], externalCells: [], relations: [], order: [] };
  const sink: NetworkSink = {
    site: (s) => {
      got.sites.push(s);
      got.order.push(`site:${s.id}`);
    },
    node: (n) => {
      got.nodes.push(n);
      got.order.push(`node:${n.name}`);
    },
    cell: (c) => {
      got.cells.push(c);
      got.order.push(`cell:${c.name}`);
    },
    externalCell: (e) => {
      got.externalCells.push(e);
      got.order.push(`ext:${e.name}`);
    },
    relation: (r) => {
      got.relations.push(r);
      got.order.push(`rel:${r.name}`);
    },
  };
  return { sink, got };
}

export function find<T>(items: T[], pred: (x: T) => boolean, what: string): T {
  const hit = items.find(pred);
  if (hit === undefined) throw new Error(`not found: ${what}`);
  return hit;
}
