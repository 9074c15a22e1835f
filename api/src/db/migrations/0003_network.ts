// Frozen: a migration never imports application code, so later refactors cannot change history.
import { PostgresAdapter, sql, type ColumnDefinitionBuilder, type Kysely } from 'kysely';

/**
 * The network inventory ("the dump", docs/engines/network.md): one data set, replaced whole by each import, plus
 * the history of imports. Conventions, identical on both dialects: points in time are ISO-8601 UTC
 * text; flags are integers 0/1; owner and cell identities are bigint (a gNBId has up to 32 bits), which
 * pg hands over as text. There are no foreign keys between the network tables: a dump names relation
 * targets and cells before the objects they point at exist, and the importer resolves them in SQL once
 * the whole file is in.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  const serial = (c: ColumnDefinitionBuilder) => (postgres ? c.primaryKey() : c.primaryKey().autoIncrement());
  // Site ids sort byte-wise on both dialects (SQLite compares text as BINARY; PostgreSQL would use the
  // database's locale), so site lists come back in the same order wherever they are stored.
  const siteIdType = postgres ? sql`text collate "C"` : sql`text`;

  await db.schema
    .createTable('network_sites')
    .addColumn('id', siteIdType, (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('lat', 'double precision')
    .addColumn('lon', 'double precision')
    .execute();
  // Site selects search names case-insensitively.
  await db.schema
    .createIndex('network_sites_lower_name')
    .on('network_sites')
    .expression(sql`lower(name)`)
    .execute();

  await db.schema
    .createTable('network_nodes')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('dn', 'text', (c) => c.notNull())
    .addColumn('site_id', 'text')
    .addColumn('technology', 'text')
    .addColumn('type', 'text')
    .execute();
  await db.schema.createIndex('network_nodes_site_id').on('network_nodes').column('site_id').execute();

  await db.schema
    .createTable('network_cells')
    .addColumn('dn', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('node_name', 'text', (c) => c.notNull())
    .addColumn('site_id', 'text', (c) => c.notNull())
    .addColumn('tech', 'text', (c) => c.notNull())
    .addColumn('band', 'text')
    .addColumn('channel', 'integer')
    .addColumn('pci', 'integer')
    .addColumn('psc', 'integer')
    .addColumn('bsic', 'integer')
    .addColumn('lac', 'integer')
    .addColumn('tac', 'integer')
    .addColumn('nr_tac', 'integer')
    .addColumn('azimuth', 'double precision')
    .addColumn('cpich_power', 'integer')
    .addColumn('max_tx_power', 'integer')
    .addColumn('plmns', 'text', (c) => c.notNull())
    .addColumn('rach_root_sequence', 'integer')
    .addColumn('ssb', 'integer')
    .addColumn('cell_id', 'bigint')
    .addColumn('local_cell_id', 'bigint')
    .addColumn('owner_id', 'bigint')
    .addColumn('global_id', 'text')
    .execute();
  await db.schema.createIndex('network_cells_site_id').on('network_cells').column('site_id').execute();
  // Per-technology counts and "sites with 3G cells" read this index alone.
  await db.schema.createIndex('network_cells_tech_site_id').on('network_cells').columns(['tech', 'site_id']).execute();
  // External cells find the real cell they stand for by global id.
  await db.schema.createIndex('network_cells_global_id').on('network_cells').column('global_id').execute();
  // Planned relations (workbooks) name cells, not DNs.
  await db.schema.createIndex('network_cells_name').on('network_cells').column('name').execute();

  await db.schema
    .createTable('network_cell_alt_dns')
    .addColumn('alt_dn', 'text', (c) => c.primaryKey())
    .addColumn('cell_dn', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('network_external_cells')
    .addColumn('dn', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('node_name', 'text')
    .addColumn('pci', 'integer')
    .addColumn('psc', 'integer')
    .addColumn('bsic', 'integer')
    .addColumn('channel', 'integer')
    .addColumn('band', 'text')
    .addColumn('tac', 'integer')
    .addColumn('lac', 'integer')
    .addColumn('plmn', 'text')
    .addColumn('owner_id', 'bigint')
    .addColumn('cell_id', 'bigint')
    .addColumn('global_id', 'text')
    .addColumn('real_cell_dn', 'text')
    .execute();

  await db.schema
    .createTable('network_relations')
    // Numbered by the importer in file order (1…n per import), so no sequence grows with every re-import.
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('dn', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('node_name', 'text')
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('source_cell_dn', 'text', (c) => c.notNull())
    .addColumn('target_ref', 'text')
    .addColumn('created_by', 'text')
    .addColumn('is_remove_allowed', 'integer', (c) => c.notNull())
    .addColumn('is_ho_allowed', 'integer', (c) => c.notNull())
    .addColumn('target_cell_dn', 'text')
    .addColumn('target_external_dn', 'text')
    .execute();
  await db.schema.createIndex('network_relations_source_cell_dn').on('network_relations').column('source_cell_dn').execute();
  await db.schema.createIndex('network_relations_target_ref').on('network_relations').column('target_ref').execute();

  await db.schema
    .createTable('network_imports')
    .addColumn('id', postgres ? 'serial' : 'integer', serial)
    .addColumn('file_name', 'text', (c) => c.notNull())
    .addColumn('format', 'text', (c) => c.notNull())
    .addColumn('coords', 'text', (c) => c.notNull())
    .addColumn('imported_at', 'varchar(30)', (c) => c.notNull())
    .addColumn('imported_by', 'integer')
    .addColumn('counts_json', 'text', (c) => c.notNull())
    .addColumn('bytes', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('network_imports_imported_at').on('network_imports').column('imported_at').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of [
    'network_imports',
    'network_relations',
    'network_external_cells',
    'network_cell_alt_dns',
    'network_cells',
    'network_nodes',
    'network_sites',
  ]) {
    await db.schema.dropTable(table).execute();
  }
}
