import { type Kysely } from 'kysely';
import { type Database } from '../../db/schema';
import { type DemoCellTech, type DemoLogCell, type DemoLogNode } from './model';

/** The nodes the logs are written for: the stored network inventory, or a synthetic one (tests and benches). */

/** The MO of a cell relative to ManagedElement; NR cells are printed as their NRCellDU (where states and PCI live). */
export function cellMo(dn: string, name: string, tech: string): string {
  if (tech === '5G') return `GNBDUFunction=1,NRCellDU=${name}`;
  const me = dn.indexOf(',ManagedElement=');
  if (me < 0) return dn;
  const after = dn.indexOf(',', me + 1);
  return after < 0 ? dn : dn.slice(after + 1);
}

/** Nodes and cells of the stored network inventory, by node name. */
export async function readDemoLogNodes(db: Kysely<Database>): Promise<DemoLogNode[]> {
  const nodes = await db.selectFrom('network_nodes').select(['name', 'site_id', 'type']).orderBy('name').execute();
  const cells = await db
    .selectFrom('network_cells')
    .select(['dn', 'name', 'node_name', 'tech', 'pci', 'tac', 'nr_tac', 'channel', 'psc', 'cpich_power', 'max_tx_power'])
    .orderBy('node_name')
    .orderBy('name')
    .execute();
  const byNode = new Map<string, DemoLogCell[]>();
  for (const c of cells) {
    let list = byNode.get(c.node_name);
    if (!list) byNode.set(c.node_name, (list = []));
    list.push({
      name: c.name,
      tech: c.tech as DemoCellTech,
      mo: cellMo(c.dn, c.name, c.tech),
      pci: c.pci,
      tac: c.tac,
      nrTac: c.nr_tac,
      channel: c.channel,
      psc: c.psc,
      cpichPower: c.cpich_power,
      maxTxPower: c.max_tx_power,
    });
  }
  return nodes.map((n) => ({ name: n.name, siteId: n.site_id, type: n.type, cells: byNode.get(n.name) ?? [] }));
}

/**
 * RadioNodes shaped like the demo network's biggest sites (four LTE bands, NR and NB-IoT, three sectors),
 * without a database: the bench writes thousands of them.
 */
export function syntheticLogNodes(count: number): DemoLogNode[] {
  const nodes: DemoLogNode[] = [];
  for (let i = 0; i < count; i += 1) {
    const name = `BX${String(i + 1).padStart(5, '0')}`;
    const cells: DemoLogCell[] = [];
    const base = { pci: null, tac: 3000 + (i % 12), nrTac: null, channel: null, psc: null, cpichPower: null, maxTxPower: null };
    const group = (i * 37 + 11) % 168;
    for (const [band, earfcn] of [
      ['L800', 6300],
      ['L1800', 1850],
      ['L2100', 100],
      ['L700', 9360],
    ] as const) {
      for (let s = 0; s < 3; s += 1) {
        const cell = `${name}_${band}_${s + 1}`;
        cells.push({ ...base, name: cell, tech: '4G', mo: `ENodeBFunction=1,EUtranCellFDD=${cell}`, pci: group * 3 + s, channel: earfcn });
      }
    }
    for (let s = 0; s < 3; s += 1) {
      const nr = `${name}_N78_${s + 1}`;
      cells.push({
        ...base,
        name: nr,
        tech: '5G',
        mo: `GNBDUFunction=1,NRCellDU=${nr}`,
        pci: 3 * ((i * 53 + 7) % 336) + s,
        nrTac: 5000 + (i % 12),
        channel: 636666,
      });
      const nb = `${name}_NB800_${s + 1}`;
      cells.push({ ...base, name: nb, tech: 'NB-IoT', mo: `ENodeBFunction=1,NbIotCell=${nb}`, pci: group * 3 + s, channel: 6290 });
    }
    nodes.push({ name, siteId: name, type: 'RadioNode', cells });
  }
  return nodes;
}
