import { NetworkParseError } from '../errors';
import {
  assertCoordinateEncoding,
  bandOf,
  type Cell,
  type CoordinateEncoding,
  decodeCoordinates,
  emptyCounts,
  type NetworkCounts,
  type NetworkNode,
  type NodeTechnology,
  type Relation,
  type Site,
  type ExternalCell,
} from '../model';
import { type MoRecord, splitDn } from '../records';
import { DEFAULT_SITE_RULE, type SiteRule, siteIdBy, UNMATCHED_EXAMPLES, type UnmatchedNames } from '../site-rule';
import { iubNodeName } from '../utran';
import { badValue, forgetFolded, int, learnNames, num, str } from './attributes';
import { CELL_CLASSES, DN_TECHNOLOGY_CLASSES, EXTERNAL_CLASSES, FREQUENCY_CLASSES, FUNCTION_CLASSES, LOCATION_CLASSES, RELATION_CLASSES } from './classes';
import { baseCell, baseExternal, ExternalInput, type NodeContext, type PendingCell, type PendingExternal } from './common';
import { gsmCell, gsmExternal } from './gsm';
import { lteCell, lteExternal } from './lte';
import { nrCell, nrExternal } from './nr';
import { type DnPath, extendPath, isAncestorOrSelf, type Part, stepsExtend } from './path';
import { relationOf } from './relations';
import { utranCell, utranExternal } from './utran';

/**
 * Maps managed-object records (from {@link parseBulkCm} or {@link parseCmedit}) into the inventory
 * model and hands each entity to a sink as soon as it is complete, so an importer can insert in
 * batches inside one transaction.
 *
 * Memory is bounded by the largest node, not by the file: the mapper keeps the records of the current
 * DN ancestry, the cells and external cells of the current node (NR DU/CU merging and frequency
 * references need the whole node), and the set of site ids and node DNs already emitted (one short
 * string each, so sites are never emitted twice). It builds no index of cells: relations are emitted
 * with the raw DN they point at and resolved later by the importer.
 *
 * Order guarantees, per node (a node = one MeContext, or a ManagedElement without MeContext):
 * site → node → cells → external cells, all when the node ends. Relations are emitted as they are read,
 * i.e. before their node and cells; they carry DNs only. A site is emitted once per id, except that a
 * site first seen without coordinates (e.g. only through RNC cell names) is emitted a second time when a
 * node later supplies its coordinates — upsert sites by id.
 *
 * Records of one node are expected to be contiguous (true of Bulk CM files and of ENM exports sorted
 * by FDN). If a node reappears later, it is not emitted again, but NR DU/CU pairs split across the two
 * visits are not merged.
 */

/**
 * Where the mapper hands its entities. The entity calls are synchronous (a sink that writes somewhere
 * buffers); `drain`, when present, is awaited after every batch of records the mapper was given (one
 * input chunk's worth, a few hundred entities at most): that is where a buffering sink writes.
 */
export interface NetworkSink {
  site(site: Site): void;
  node(node: NetworkNode): void;
  cell(cell: Cell): void;
  externalCell(cell: ExternalCell): void;
  relation(relation: Relation): void;
  drain?(): Promise<void>;
}

export interface MapOptions {
  /** How `latitude`/`longitude` are encoded in this dump (an import setting: the file does not say). */
  coords: CoordinateEncoding;
  /** Which part of a node name (and, for RNC/BSC cells, of the cell name) is the site id. Default: {@link DEFAULT_SITE_RULE}. */
  siteRule?: SiteRule;
}

export interface MapResult {
  /** Exactly what was handed to the sink (sites: distinct ids). */
  counts: NetworkCounts;
  /** Managed-object records read. */
  records: number;
  /** Relation MOs that have no cell among their ancestors, hence no source; not emitted. */
  relationsWithoutSourceCell: number;
  /** Node names (and RNC/BSC cell names) the site rule did not match. */
  unmatchedNames: UnmatchedNames;
}

export class NetworkMapper {
  private readonly coords: CoordinateEncoding;
  private readonly siteRule: SiteRule;
  private readonly unmatched: UnmatchedNames = { count: 0, examples: [] };
  private readonly counts = emptyCounts();
  private readonly sites = new Map<string, boolean>();
  private readonly nodes = new Set<string>();
  private ancestors: MoRecord[] = [];
  /** The DN path of each record in `ancestors`, at the same index. */
  private paths: DnPath[] = [];
  private node: NodeContext | null = null;
  private records = 0;
  private orphanRelations = 0;
  private finished = false;

  constructor(
    private readonly sink: NetworkSink,
    options: MapOptions,
  ) {
    this.coords = assertCoordinateEncoding(options.coords);
    this.siteRule = options.siteRule ?? DEFAULT_SITE_RULE;
  }

  /** Maps one record; entities it completes go to the sink at once (relations) or when their node ends. */
  push(incoming: MoRecord): void {
    if (this.finished) throw new Error('NetworkMapper: push after finish');
    this.records++;
    while (this.ancestors.length > 0) {
      if (isAncestorOrSelf(this.ancestors[this.ancestors.length - 1] as MoRecord, this.paths[this.paths.length - 1] as DnPath, incoming)) break;
      this.ancestors.pop();
      this.paths.pop();
    }
    let rec = incoming;
    let repeat = false;
    let path: DnPath;
    const top = this.ancestors[this.ancestors.length - 1];
    const topPath = this.paths[this.paths.length - 1];
    const steps = incoming.path;
    if (top && topPath && ((steps !== undefined && steps.length === topPath.parts.length && stepsExtend(topPath, incoming)) || top.dn === incoming.dn)) {
      // A second record for the same MO (vendor extension or late attributes): complete the first.
      learnNames(incoming.attributes);
      for (const [k, v] of Object.entries(incoming.attributes)) if (!(k in top.attributes)) top.attributes[k] = v;
      forgetFolded(top.attributes);
      rec = top;
      repeat = true;
      path = topPath;
    } else {
      if (steps && (!topPath || stepsExtend(topPath, incoming))) {
        path = extendPath(topPath ?? null, steps, true);
      } else {
        // Below a known ancestor only the new components are split; they are the same ones a split of the whole DN gives.
        const dn = incoming.dn;
        const tail = splitDn(top ? dn.slice(top.dn.length + 1) : dn);
        if (!tail) throw new NetworkParseError(rec.line ?? 0, rec.column ?? 1, `malformed DN "${dn}"`);
        path = extendPath(topPath ?? null, topPath ? topPath.parts.concat(tail) : tail, false);
      }
      learnNames(rec.attributes);
      this.ancestors.push(rec);
      this.paths.push(path);
    }

    const parts = path.parts;
    const key = path.node;
    if (this.node && this.node.dn !== key?.dn) this.flushNode();
    if (key && !this.node) this.node = this.newNode(key);
    const node = this.node;
    const cls = rec.className;

    if (node) {
      // A cmedit export may list UtranCells without their RncFunction: the DN alone shows a controller.
      if (path.controller) node.controller = true;
      if (path.functions !== topPath?.functions) {
        for (const f of path.functions) {
          node.dnTechs.add(DN_TECHNOLOGY_CLASSES[f] as '2G' | '3G' | '4G' | '5G');
          // A function met only in the DNs of its children still is one of the node's (its type says so).
          if (FUNCTION_CLASSES[f]) node.functions.add(f);
        }
      }
      if (cls === 'MeContext' && rec.dn === node.dn) node.meContext = rec;
      if (cls === 'ManagedElement' && !node.managedElement) node.managedElement = rec;
      const fn = FUNCTION_CLASSES[cls];
      if (fn) {
        node.functions.add(cls);
        if (fn.controller) node.controller = true;
      }
      if (LOCATION_CLASSES.has(cls) && !node.location) node.location = this.locationOf(rec);
      const freq = FREQUENCY_CLASSES[cls];
      if (freq) {
        const ch = int(rec, ...freq);
        if (ch !== null) node.frequencies.set(`${cls}=${rec.id}`, ch);
      }
    }

    const cellTech = CELL_CLASSES[cls];
    if (cellTech) {
      if (!node) throw new NetworkParseError(rec.line ?? 0, rec.column ?? 1, `cell ${rec.dn} is not inside a MeContext or ManagedElement`);
      if (!repeat) node.cells.set(rec.dn, { rec, tech: cellTech, fn: this.nearestFunction() });
      return;
    }
    const extKind = EXTERNAL_CLASSES[cls];
    if (extKind) {
      if (repeat) return;
      const parent = this.ancestors.length >= 2 ? (this.ancestors[this.ancestors.length - 2] as MoRecord) : null;
      const pending: PendingExternal = { rec, kind: extKind, parent: parent && parent.dn === rec.parentDn ? parent : null };
      if (node) node.externals.set(rec.dn, pending);
      else this.emitExternal(pending, null, null);
      return;
    }
    if (RELATION_CLASSES[cls] && !repeat) this.emitRelation(rec, parts, key?.name ?? null);
  }

  /** Emits the last node and lets the sink drain; the sink has seen every entity when this resolves. */
  async finish(): Promise<MapResult> {
    if (!this.finished) {
      this.flushNode();
      this.finished = true;
      this.ancestors = [];
      this.paths = [];
      await this.sink.drain?.();
    }
    return {
      counts: this.counts,
      records: this.records,
      relationsWithoutSourceCell: this.orphanRelations,
      unmatchedNames: { count: this.unmatched.count, examples: [...this.unmatched.examples] },
    };
  }

  private newNode(key: { name: string; dn: string }): NodeContext {
    return {
      name: key.name,
      dn: key.dn,
      meContext: null,
      managedElement: null,
      functions: new Set(),
      dnTechs: new Set(),
      controller: false,
      location: null,
      cells: new Map(),
      externals: new Map(),
      frequencies: new Map(),
    };
  }

  private nearestFunction(): MoRecord | null {
    for (let i = this.ancestors.length - 2; i >= 0; i--) {
      const a = this.ancestors[i] as MoRecord;
      if (FUNCTION_CLASSES[a.className]) return a;
    }
    return null;
  }

  private locationOf(rec: MoRecord): { lat: number; lon: number } | null {
    const lat = num(rec, 'latitude');
    const lon = num(rec, 'longitude');
    if (lat === null || lon === null || (lat === 0 && lon === 0)) return null;
    const decoded = decodeCoordinates(this.coords, lat, lon, str(rec, 'latitudeSign'));
    if (!decoded) {
      throw new NetworkParseError(
        rec.line ?? 0,
        rec.column ?? 1,
        `${rec.className}=${rec.id}: latitude ${lat} / longitude ${lon} are outside the globe when read as ${this.coords} — is the coordinate encoding right?`,
      );
    }
    return decoded;
  }

  private siteIdOf(name: string): string {
    const { siteId, matched } = siteIdBy(this.siteRule, name);
    if (!matched) {
      this.unmatched.count++;
      if (this.unmatched.examples.length < UNMATCHED_EXAMPLES && !this.unmatched.examples.includes(name)) this.unmatched.examples.push(name);
    }
    return siteId;
  }

  private emitSite(id: string, name: string, location: { lat: number; lon: number } | null): void {
    const had = this.sites.get(id);
    if (had === undefined) this.counts.sites++;
    else if (had || !location) return;
    this.sites.set(id, location !== null);
    this.sink.site({ id, name, lat: location?.lat ?? null, lon: location?.lon ?? null });
  }

  private flushNode(): void {
    const n = this.node;
    if (!n) return;
    this.node = null;

    const type = str(n.meContext, 'neType') ?? str(n.managedElement, 'neType', 'managedElementType') ?? inferType(n);
    const controller = n.controller || (type !== null && /^(RNC|BSC)$/i.test(type));
    const techs = new Set<'2G' | '3G' | '4G' | '5G'>();
    for (const c of n.cells.values()) techs.add(c.tech === 'NB-IoT' ? '4G' : c.tech);
    if (techs.size === 0) for (const t of n.dnTechs) techs.add(t);
    const technology: NodeTechnology | null = techs.size === 0 ? null : techs.size === 1 ? [...techs][0]! : 'multi';

    let siteId: string | null = null;
    if (!controller) {
      siteId = this.siteIdOf(n.name);
      let location = n.location;
      if (!location) {
        for (const c of n.cells.values()) {
          location = this.locationOf(c.rec);
          if (location) break;
        }
      }
      const siteName = str(n.managedElement, 'userLabel') ?? str(n.meContext, 'userLabel') ?? str(n.managedElement, 'locationName', 'siteLocation') ?? siteId;
      this.emitSite(siteId, siteName, location);
    }

    if (!this.nodes.has(n.dn)) {
      this.nodes.add(n.dn);
      this.counts.nodes++;
      this.sink.node({ name: n.name, dn: n.dn, siteId, technology, type });
    }

    const nrDone = new Set<string>();
    for (const pending of n.cells.values()) {
      let cell: Cell;
      if (pending.tech === '5G') {
        if (nrDone.has(pending.rec.id)) continue;
        nrDone.add(pending.rec.id);
        cell = nrCell(n, pending.rec.id, siteId);
      } else {
        cell = this.cell(n, pending, siteId);
      }
      if (controller) {
        cell.siteId = this.siteIdOf(this.carrierName(pending.rec) ?? cell.name);
        this.emitSite(cell.siteId, cell.siteId, null);
      }
      this.counts.cells[cell.tech]++;
      this.sink.cell(cell);
    }
    for (const ext of n.externals.values()) this.emitExternal(ext, n.name, n.frequencies);
  }

  /** The NodeB carrying a controller's cell, from its Iub link; null when the cell names none. */
  private carrierName(rec: MoRecord): string | null {
    const ref = str(rec, 'iubLinkRef');
    if (ref === null) return null;
    if (splitDn(ref) === null) throw badValue(rec, 'iubLinkRef', ref, 'a DN');
    return iubNodeName(ref);
  }

  private cell(n: NodeContext, p: PendingCell, siteId: string | null): Cell {
    const c = baseCell(n, p.rec, p.tech, siteId);
    switch (p.tech) {
      case '4G':
      case 'NB-IoT':
        lteCell(c, p);
        break;
      case '3G':
        utranCell(c, p);
        break;
      case '2G':
        gsmCell(c, p);
        break;
      case '5G':
        break;
    }
    c.band = bandOf(c.tech, c.channel);
    return c;
  }

  private emitExternal(p: PendingExternal, nodeName: string | null, frequencies: Map<string, number> | null): void {
    const { rec, kind } = p;
    const ext = baseExternal(rec, kind, nodeName);
    const x = new ExternalInput(p, frequencies, FREQUENCY_CLASSES);
    switch (kind) {
      case '4G':
        lteExternal(ext, x);
        break;
      case '5G':
        nrExternal(ext, x);
        break;
      case '3G':
        utranExternal(ext, x);
        break;
      case '2G':
        gsmExternal(ext, x);
        break;
    }
    ext.band = bandOf(kind, ext.channel);
    this.counts.externalCells[kind]++;
    this.sink.externalCell(ext);
  }

  private emitRelation(rec: MoRecord, parts: readonly Part[], nodeName: string | null): void {
    const relation = relationOf(rec, parts, nodeName);
    if (relation === null) {
      this.orphanRelations++;
      return;
    }
    this.counts.relations[relation.kind]++;
    this.sink.relation(relation);
  }
}

function inferType(n: NodeContext): string | null {
  const f = n.functions;
  if (f.has('RncFunction')) return 'RNC';
  if (f.has('BscFunction') || f.has('BssFunction')) return 'BSC';
  if (f.has('GNBDUFunction') || f.has('GNBCUCPFunction') || f.size > 1) return 'RadioNode';
  if (f.has('ENodeBFunction')) return 'ERBS';
  if (f.has('NodeBFunction')) return 'RBS';
  if (f.has('BtsFunction')) return 'BTS';
  return null;
}

/** Maps a whole record stream; the sink sees every entity before this resolves (and drains after each record). */
export async function mapNetwork(records: AsyncIterable<MoRecord> | Iterable<MoRecord>, sink: NetworkSink, options: MapOptions): Promise<MapResult> {
  const mapper = new NetworkMapper(sink, options);
  for await (const rec of records) {
    mapper.push(rec);
    if (sink.drain) await sink.drain();
  }
  return mapper.finish();
}

/** {@link mapNetwork} over batches of records (what the parsers' batch readers yield): the sink drains after each batch. */
export async function mapNetworkBatches(batches: AsyncIterable<MoRecord[]>, sink: NetworkSink, options: MapOptions): Promise<MapResult> {
  const mapper = new NetworkMapper(sink, options);
  for await (const batch of batches) {
    for (const rec of batch) mapper.push(rec);
    if (sink.drain) await sink.drain();
  }
  return mapper.finish();
}
