import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';
import type { Cell } from '../domain/network/model';
import type { NetworkDump } from '../domain/planning';
import { cellOf, loadRelationScope } from '../validation/dump';

/**
 * The part of the stored dump an optimisation run reads: the cells named as sources in the statistics,
 * every relation they hold and what those relations reach (validation's loader, shared), and the cells
 * named as targets. Read in chunks, so a statistics file naming thousands of cells stays within every
 * driver's parameter limit.
 */

const CHUNK = 500;

export async function loadDumpAround(db: Kysely<Database>, sources: readonly string[], targets: readonly string[]): Promise<NetworkDump> {
  const names = [...new Set(sources)];
  const sourceCells: Cell[] = [];
  for (let i = 0; i < names.length; i += CHUNK) {
    const part = names.slice(i, i + CHUNK);
    const rows = await db.selectFrom('network_cells').selectAll().where('name', 'in', part).execute();
    const alt = new Map<string, string[]>();
    if (rows.length > 0) {
      const dns = rows.map((r) => r.dn);
      for (const row of await db.selectFrom('network_cell_alt_dns').selectAll().where('cell_dn', 'in', dns).execute()) {
        alt.set(row.cell_dn, [...(alt.get(row.cell_dn) ?? []), row.alt_dn]);
      }
    }
    sourceCells.push(...rows.map((r) => cellOf(r, alt.get(r.dn) ?? [])));
  }
  return loadRelationScope(db, sourceCells, [...new Set(targets)]);
}
