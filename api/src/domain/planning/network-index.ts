import type { Cell, CellTech, ExternalCell, ExternalCellKind, Relation } from '../network/model';

/** The dump as the validators read it. */
export interface NetworkDump {
  cells: readonly Cell[];
  externalCells: readonly ExternalCell[];
  relations: readonly Relation[];
}

export interface ResolvedRelation {
  relation: Relation;
  source: Cell | null;
  /** The real cell the relation reaches: directly, or through its external cell's global id. */
  target: Cell | null;
  /** The external cell (proxy) the relation points at, when it points at one. */
  external: ExternalCell | null;
  /** The real cell's name, else the external cell's name, else the last RDN value of targetRef. */
  targetName: string | null;
}

const kindOfTech = (tech: CellTech): ExternalCellKind => (tech === 'NB-IoT' ? '4G' : tech);

/** The value of the last RDN of a DN (`…,ExternalEUtranCellFDD=X` → `X`). */
export function lastRdnValue(dn: string | null): string | null {
  if (!dn) return null;
  const last = dn.slice(dn.lastIndexOf(',') + 1);
  const eq = last.indexOf('=');
  return eq >= 0 ? last.slice(eq + 1) : last;
}

/** Lookups over one dump: cells by DN / name / global id, external cells by DN, relations by source cell. */
export class NetworkIndex {
  private readonly byDn = new Map<string, Cell>();
  private readonly byName = new Map<string, Cell>();
  private readonly byGlobal = new Map<string, Cell>();
  private readonly extByDn = new Map<string, ExternalCell>();
  private readonly fromCell = new Map<string, ResolvedRelation[]>();

  constructor(readonly dump: NetworkDump) {
    for (const c of dump.cells) {
      this.byDn.set(c.dn, c);
      for (const alt of c.altDns) if (!this.byDn.has(alt)) this.byDn.set(alt, c);
      if (!this.byName.has(c.name)) this.byName.set(c.name, c);
      if (c.globalId !== null) this.byGlobal.set(`${kindOfTech(c.tech)}|${c.globalId}`, c);
    }
    for (const e of dump.externalCells) this.extByDn.set(e.dn, e);
    for (const r of dump.relations) {
      const resolved = this.resolve(r);
      const key = resolved.source?.name ?? `dn:${r.sourceCellDn}`;
      const list = this.fromCell.get(key);
      if (list) list.push(resolved);
      else this.fromCell.set(key, [resolved]);
    }
    for (const list of this.fromCell.values()) list.sort((a, b) => (a.relation.dn < b.relation.dn ? -1 : a.relation.dn > b.relation.dn ? 1 : 0));
  }

  cellByDn(dn: string): Cell | null {
    return this.byDn.get(dn) ?? null;
  }

  cellByName(name: string): Cell | null {
    return this.byName.get(name) ?? null;
  }

  /** The real cell an external cell stands for (same kind, same global id). */
  cellOfExternal(ext: ExternalCell): Cell | null {
    return ext.globalId === null ? null : (this.byGlobal.get(`${ext.kind}|${ext.globalId}`) ?? null);
  }

  cells(): readonly Cell[] {
    return this.dump.cells;
  }

  cellsOfSite(siteId: string): Cell[] {
    return this.dump.cells.filter((c) => c.siteId === siteId).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  }

  resolve(r: Relation): ResolvedRelation {
    const source = this.byDn.get(r.sourceCellDn) ?? null;
    let target: Cell | null = null;
    let external: ExternalCell | null = null;
    if (r.targetRef !== null) {
      target = this.byDn.get(r.targetRef) ?? null;
      if (!target) {
        external = this.extByDn.get(r.targetRef) ?? null;
        if (external) target = this.cellOfExternal(external);
      }
    }
    const targetName = target?.name ?? external?.name ?? lastRdnValue(r.targetRef);
    return { relation: r, source, target, external, targetName };
  }

  /** Relations whose source is the named cell, sorted by DN. */
  relationsFrom(cellName: string): readonly ResolvedRelation[] {
    return this.fromCell.get(cellName) ?? [];
  }
}
