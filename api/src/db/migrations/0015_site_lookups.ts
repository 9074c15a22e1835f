// Frozen: a migration never imports application code, so later refactors cannot change history.
import type { Kysely } from 'kysely';

/**
 * The monitoring lists look a site's commissioning date up in the plan, per site shown (issue 44):
 * `min(comm_date) where local_id = ?` and, per node, the earliest date of its technology first. With
 * 120,000 plan rows (120 per site) the `local_id` index alone reads every row of the site, ~0.5 ms each,
 * and an overall site summary sorted by date pays that for every site. On (local_id, comm_date,
 * technology) the minimum is one seek and the technology choice reads the index alone.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createIndex('tracking_commissioning_plan_site_date')
    .on('tracking_commissioning_plan')
    .columns(['local_id', 'comm_date', 'technology'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('tracking_commissioning_plan_site_date').execute();
}
