// Frozen: a migration never imports application code, so later refactors cannot change history.
import type { Kysely } from 'kysely';

/**
 * The network import resolves each external cell to the real cell of the same technology and global id:
 * `min(dn) where operator_id = ? and global_id = ? and tech = ?`. Since 0016 both the primary key
 * (operator_id, dn) and the global-id index (operator_id, global_id) lead with the operator, and SQLite,
 * with no statistics, took the primary key for the min(dn): it walks the operator's cells in DN order for
 * every external cell until one matches, so the resolution grew with cells × external cells (0.15 s on a
 * 10 MB dump, 0.68 s on 20 MB, ~15 s of a 94 MB import's 18.6 s). On (operator_id, global_id, tech, dn)
 * the minimum is one seek in an index that has every column the look-up reads. It replaces the
 * (operator_id, global_id) index, of which it is an extension: the cell reads by global id use it alike.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.createIndex('network_cells_global_id_tech').on('network_cells').columns(['operator_id', 'global_id', 'tech', 'dn']).execute();
  await db.schema.dropIndex('network_cells_global_id').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.createIndex('network_cells_global_id').on('network_cells').columns(['operator_id', 'global_id']).execute();
  await db.schema.dropIndex('network_cells_global_id_tech').execute();
}
