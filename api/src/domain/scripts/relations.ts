import type { Cell, ExternalCell } from '../network/model';
import { DEFAULT_GNB_ID_LENGTH } from '../network/nr';
import type { NetworkIndex, ResolvedRelation } from '../planning/network-index';
import {
  bool,
  classOf,
  idOf,
  int,
  ldnOf,
  parentOf,
  plmnCode,
  plmnStruct,
  ref,
  struct,
  text,
  type FindingLabel,
  type MosAttribute,
  type MosCommand,
  type ScriptChange,
  type ScriptPlan,
} from './mos';

/**
 * Relations as the generators change them: delete one (undone by creating it again with what the dump
 * knew of it), create one from a source cell to a target cell (with the frequency relation and the
 * proxies of another node's cell it needs, each undone in reverse). The MO classes and attribute names
 * are Ericsson's, as the dump importer reads them (api/src/domain/network/mapper/).
 */

/** Where each relation class keeps its target, and whether it carries isHoAllowed / isRemoveAllowed. */
const RELATION_TARGET: Readonly<Record<string, { attribute: string; ho: boolean; remove: boolean }>> = {
  EUtranCellRelation: { attribute: 'neighborCellRef', ho: true, remove: true },
  UtranCellRelation: { attribute: 'externalUtranCellFDDRef', ho: true, remove: true },
  GeranCellRelation: { attribute: 'extGeranCellRef', ho: false, remove: true },
  GUtranCellRelation: { attribute: 'neighborCellRef', ho: false, remove: true },
  NRCellRelation: { attribute: 'nRCellRef', ho: true, remove: true },
  UtranRelation: { attribute: 'utranCellRef', ho: false, remove: false },
  GsmRelation: { attribute: 'externalGsmCellRef', ho: false, remove: false },
};

/** A change, or why the finding could not be made one (said in the script or the README). */
export type Outcome = { change: ScriptChange } | { label: FindingLabel; byHand: string; node: string | null };

/** A change joins the plan; a finding that could not be one becomes a comment in its node's script, or a README line without a node. */
export function addOutcome(plan: ScriptPlan, outcome: Outcome): void {
  if ('change' in outcome) plan.changes.push(outcome.change);
  else if (outcome.node !== null) plan.notes.push({ node: outcome.node, label: outcome.label, text: outcome.byHand });
  else plan.byHand.push(`${outcome.label} ${outcome.byHand}`);
}

export const relationNode = (r: ResolvedRelation): string | null => r.relation.nodeName ?? r.source?.nodeName ?? null;

/** Deletes a relation; the undo creates it again pointing where it pointed, with its isHoAllowed / isRemoveAllowed. */
export function deleteRelation(r: ResolvedRelation, label: FindingLabel, finding: string, why: string): Outcome {
  const node = relationNode(r);
  if (node === null) return { label, byHand: `${finding}: the dump does not say which node holds ${r.relation.dn}`, node: null };
  const ldn = ldnOf(r.relation.dn);
  const cls = classOf(ldn);
  const target = RELATION_TARGET[cls];
  if (!target) return { label, byHand: `${finding}: ${cls} relations are not scripted`, node };
  if (r.relation.targetRef === null) {
    return { label, byHand: `${finding}: the dump does not say where ${idOf(ldn)} points, so no undo could create it again`, node };
  }
  const attributes: MosAttribute[] = [[target.attribute, ref(ldnOf(r.relation.targetRef))]];
  if (target.ho) attributes.push(['isHoAllowed', bool(r.relation.isHoAllowed)]);
  if (target.remove) attributes.push(['isRemoveAllowed', bool(r.relation.isRemoveAllowed)]);
  return {
    change: {
      node,
      label,
      finding,
      commands: [{ verb: 'del', ldn, why }],
      undo: [
        {
          verb: 'crn',
          ldn,
          attributes,
          why: `create ${idOf(ldn)} again as the dump had it${r.relation.createdBy ? ` (createdBy ${r.relation.createdBy})` : ''}`,
        },
      ],
    },
  };
}

/** MOs a plan creates, per node, so two findings needing one proxy create it once. */
export class CreatedMos {
  private readonly byNode = new Map<string, Set<string>>();
  has(node: string, ldn: string): boolean {
    return this.byNode.get(node)?.has(ldn) ?? false;
  }
  add(node: string, ldn: string): void {
    const set = this.byNode.get(node) ?? new Set<string>();
    set.add(ldn);
    this.byNode.set(node, set);
  }
}

interface Step {
  command: MosCommand;
  undo: MosCommand;
}

const create = (ldn: string, attributes: MosAttribute[], why: string): Step => ({
  command: { verb: 'crn', ldn, attributes, why },
  undo: { verb: 'del', ldn, why: `delete ${classOf(ldn)}=${idOf(ldn)}, created by the script` },
});

/** The network MO (EUtraNetwork / GUtraNetwork) of a node, from a proxy it already has, else `<function>,<Class>=1`. */
function networkLdn(index: NetworkIndex, node: string, fn: string, cls: 'EUtraNetwork' | 'GUtraNetwork'): string {
  for (const e of index.dump.externalCells) {
    if (e.nodeName !== node) continue;
    const ldn = ldnOf(e.dn);
    const at = ldn.split(',').findIndex((rdn) => rdn.startsWith(`${cls}=`));
    if (at >= 0)
      return ldn
        .split(',')
        .slice(0, at + 1)
        .join(',');
  }
  return `${fn},${cls}=1`;
}

const sameNode = (a: Cell, b: Cell): boolean => a.nodeName === b.nodeName;

interface Frequency {
  /** The frequency relation under the source cell (existing or to create). */
  relationLdn: string;
  /** The node's frequency MO the relation and a new proxy refer to. */
  frequencyLdn: string;
  steps: Step[];
}

/**
 * The source cell's frequency relation for the target's carrier: the one the dump shows holding a
 * relation to a cell on that carrier, else one to create, named after the carrier and referring to the
 * node's frequency MO of that name (Ericsson's convention; the comment says so, for the engineer to check).
 */
function frequencyFor(
  index: NetworkIndex,
  source: Cell,
  channel: number,
  kind: {
    relationClass: string;
    freqRelationClass: string;
    frequencyClass: string;
    network: 'EUtraNetwork' | 'GUtraNetwork';
    refAttribute: string;
    id: string;
  },
  created: CreatedMos,
): Frequency {
  const sourceLdn = ldnOf(source.dn);
  const fn = parentOf(sourceLdn);
  const network = networkLdn(index, source.nodeName, fn, kind.network);
  const channelOf = (r: ResolvedRelation): number | null =>
    kind.network === 'GUtraNetwork' ? (r.external?.channel ?? r.target?.ssb ?? null) : (r.target?.channel ?? r.external?.channel ?? null);
  for (const r of index.relationsFrom(source.name)) {
    const ldn = ldnOf(r.relation.dn);
    if (classOf(ldn) !== kind.relationClass || channelOf(r) !== channel) continue;
    const relationLdn = parentOf(ldn);
    return { relationLdn, frequencyLdn: `${network},${kind.frequencyClass}=${idOf(relationLdn)}`, steps: [] };
  }
  const relationLdn = `${sourceLdn},${kind.freqRelationClass}=${kind.id}`;
  const frequencyLdn = `${network},${kind.frequencyClass}=${kind.id}`;
  if (created.has(source.nodeName, relationLdn)) return { relationLdn, frequencyLdn, steps: [] };
  created.add(source.nodeName, relationLdn);
  return {
    relationLdn,
    frequencyLdn,
    steps: [
      create(
        relationLdn,
        [[kind.refAttribute, ref(frequencyLdn)]],
        `frequency relation for ${channel} (the dump shows none on ${source.name}; ${frequencyLdn} is assumed to be the node's ${kind.frequencyClass} of ${channel})`,
      ),
    ],
  };
}

/** The proxy of `target` on the source's node: the one the dump has (same global id), else one created under its function (created too when missing). */
function proxyFor(
  index: NetworkIndex,
  source: Cell,
  target: Cell,
  kind: '4G' | '5G',
  network: string,
  frequencyLdn: string,
  created: CreatedMos,
): { ldn: string; steps: Step[] } | { missing: string } {
  const existing = index.dump.externalCells.find(
    (e: ExternalCell) => e.nodeName === source.nodeName && e.kind === kind && e.globalId !== null && e.globalId === target.globalId,
  );
  if (existing) return { ldn: ldnOf(existing.dn), steps: [] };
  const plmn = target.plmns[0] ?? null;
  const plmnFields = plmnStruct(plmn);
  const absent = [
    target.ownerId === null ? (kind === '4G' ? 'eNBId' : 'gNBId') : null,
    target.cellId === null ? 'cell id' : null,
    target.pci === null ? 'PCI' : null,
    kind === '4G' && target.tac === null ? 'TAC' : null,
    plmnFields === null ? 'PLMN' : null,
  ].filter((x): x is string => x !== null);
  if (absent.length > 0 || plmn === null || plmnFields === null) return { missing: `the dump lacks the ${absent.join(', ')} of ${target.name}` };
  const owner = target.ownerId!;
  const pci = target.pci!;
  const steps: Step[] = [];
  const fnClass = kind === '4G' ? 'ExternalENodeBFunction' : 'ExternalGNodeBFunction';
  const cellClass = kind === '4G' ? 'ExternalEUtranCellFDD' : 'ExternalGUtranCell';
  const sibling = index.dump.externalCells.find((e) => e.nodeName === source.nodeName && e.kind === kind && e.ownerId === owner && e.plmn === plmn);
  let fnLdn = sibling ? parentOf(ldnOf(sibling.dn)) : `${network},${fnClass}=${plmnCode(plmn)}-${owner}`;
  if (sibling && classOf(fnLdn) !== fnClass) fnLdn = `${network},${fnClass}=${plmnCode(plmn)}-${owner}`;
  if (!sibling && !created.has(source.nodeName, fnLdn)) {
    created.add(source.nodeName, fnLdn);
    const label: MosAttribute[] = /^[A-Za-z0-9_.-]+$/.test(target.nodeName) ? [['userLabel', text(target.nodeName)]] : [];
    steps.push(
      create(
        fnLdn,
        kind === '4G'
          ? [['eNBId', int(owner)], ['eNodeBPlmnId', struct(plmnFields)], ...label]
          : [['gNodeBId', int(owner)], ['gNodeBIdLength', int(DEFAULT_GNB_ID_LENGTH)], ['gNodeBPlmnId', struct(plmnFields)], ...label],
        `proxy of ${target.nodeName}, ${kind === '4G' ? 'eNB' : 'gNB'} ${owner}`,
      ),
    );
  }
  const cellLdn = `${fnLdn},${cellClass}=${plmnCode(plmn)}-${owner}-${target.cellId}`;
  if (!created.has(source.nodeName, cellLdn)) {
    created.add(source.nodeName, cellLdn);
    const identity: MosAttribute[] = [
      ['localCellId', int(target.cellId!)],
      ['physicalLayerCellIdGroup', int(Math.floor(pci / 3))],
      ['physicalLayerSubCellId', int(pci % 3)],
    ];
    const attributes: MosAttribute[] =
      kind === '4G'
        ? [...identity, ['tac', int(target.tac!)], ['eutranFrequencyRef', ref(frequencyLdn)]]
        : [...identity, ['gUtranSyncSignalFrequencyRef', ref(frequencyLdn)]];
    if (/^[A-Za-z0-9_.-]+$/.test(target.name)) attributes.push(['userLabel', text(target.name)]);
    steps.push(create(cellLdn, attributes, `proxy of ${target.name} (PCI ${pci}${kind === '4G' ? `, TAC ${target.tac}` : ''})`));
  }
  return { ldn: cellLdn, steps };
}

/**
 * Creates the relation source → target: LTE → LTE (EUtranCellRelation) or LTE → NR (GUtranCellRelation,
 * EN-DC), with the frequency relation it needs and, when the target is on another node (always for NR:
 * an eNB reaches even its co-sited gNB through ExternalGNodeBFunction), the proxies of its node and cell
 * first. `createFrequency` also creates the node's SSB frequency when no proxy shows it there. Other
 * kinds are left to the engineer.
 */
export function createRelation(
  index: NetworkIndex,
  source: Cell,
  target: Cell,
  label: FindingLabel,
  finding: string,
  created: CreatedMos,
  options: { createFrequency?: boolean } = {},
): Outcome {
  const node = source.nodeName;
  const sourceClass = classOf(ldnOf(source.dn));
  if (sourceClass !== 'EUtranCellFDD' && sourceClass !== 'EUtranCellTDD') {
    return { label, byHand: `${finding}: relations from ${sourceClass} cells are not scripted`, node };
  }
  const lte = target.tech === '4G';
  if (!lte && target.tech !== '5G') return { label, byHand: `${finding}: LTE to ${target.tech} relations are not scripted`, node };
  const channel = lte ? target.channel : target.ssb;
  if (channel === null) return { label, byHand: `${finding}: the dump has no ${lte ? 'EARFCN' : 'SSB frequency'} for ${target.name}`, node };
  const frequency = frequencyFor(
    index,
    source,
    channel,
    lte
      ? {
          relationClass: 'EUtranCellRelation',
          freqRelationClass: 'EUtranFreqRelation',
          frequencyClass: 'EUtranFrequency',
          network: 'EUtraNetwork',
          refAttribute: 'eutranFrequencyRef',
          id: String(channel),
        }
      : {
          relationClass: 'GUtranCellRelation',
          freqRelationClass: 'GUtranFreqRelation',
          frequencyClass: 'GUtranSyncSignalFrequency',
          network: 'GUtraNetwork',
          refAttribute: 'gUtranSyncSignalFrequencyRef',
          id: `${channel}-30`,
        },
    created,
  );
  const steps = [...frequency.steps];
  // A new NR carrier (planning): the node has no proxy on that SSB yet, so neither has it the SSB frequency the relations refer to.
  if (!lte && options.createFrequency && frequency.steps.length > 0 && !created.has(node, frequency.frequencyLdn)) {
    const known = index.dump.externalCells.some((e) => e.nodeName === node && e.kind === '5G' && e.channel === channel);
    if (!known) {
      created.add(node, frequency.frequencyLdn);
      steps.unshift(
        create(
          frequency.frequencyLdn,
          [
            ['arfcn', int(channel)],
            ['smtcScs', int(30)],
          ],
          `SSB frequency ${channel} (30 kHz SMTC), not on the node in the dump`,
        ),
      );
    }
  }
  let targetLdn: string;
  if (lte && sameNode(source, target)) targetLdn = ldnOf(target.dn);
  else {
    const network = parentOf(frequency.frequencyLdn);
    const proxy = proxyFor(index, source, target, lte ? '4G' : '5G', network, frequency.frequencyLdn, created);
    if ('missing' in proxy) return { label, byHand: `${finding}: ${proxy.missing}`, node };
    steps.push(...proxy.steps);
    targetLdn = proxy.ldn;
  }
  const relationLdn = `${frequency.relationLdn},${lte ? 'EUtranCellRelation' : 'GUtranCellRelation'}=${idOf(targetLdn)}`;
  if (index.relationsFrom(source.name).some((r) => ldnOf(r.relation.dn) === relationLdn) || created.has(node, relationLdn)) {
    return { label, byHand: `${finding}: ${relationLdn} already exists and points elsewhere`, node };
  }
  created.add(node, relationLdn);
  steps.push(
    create(
      relationLdn,
      [['neighborCellRef', ref(targetLdn)]],
      `relation to ${target.name}${lte && sameNode(source, target) ? ' (same node)' : ` on ${target.nodeName} through its proxy`}`,
    ),
  );
  return {
    change: { node, label, finding, commands: steps.map((s) => s.command), undo: steps.map((s) => s.undo).reverse() },
  };
}
