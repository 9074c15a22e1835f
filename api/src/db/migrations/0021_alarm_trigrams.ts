// Frozen: a migration never imports application code, so later refactors cannot change history.
import { PostgresAdapter, sql, type Kysely } from 'kysely';

/**
 * Contains-filters on the alarm list at a million rows, on SQLite (issue 48, bench/tables.mjs).
 *
 * No B-tree helps `like '%x%'`, so the list counted a filtered page by reading every alarm of the
 * operator (~0.5 s at a million). PostgreSQL has pg_trgm's GIN index for it (0013); SQLite's FTS5 has a
 * trigram tokenizer, which finds the rows holding every three-character piece of a text, any case, from
 * an index. `monitoring_alarms_trigrams` indexes the alarm columns people look alarms up by, rowid = the
 * alarm's id. It is contentless (the text stays in `monitoring_alarms` only) and keeps only which
 * column holds each trigram, not where (detail=column): the list checks every row it finds with its
 * LIKE anyway, and without positions the index is smaller and a look-up reads less. `operator_id` is
 * stored beside it (contentless_unindexed), so the table is tenant data like the alarms
 * (docs/tenancy.md) and its reads are scoped without reading the alarm rows. Triggers keep it in step
 * with the alarms whatever writes them (the parse's copy, a purge, the bench).
 *
 * The list's use of it: api/src/db/trigrams.ts. A later migration that rebuilds `monitoring_alarms`
 * (drop and rename, as 0016 did) drops these triggers with it and must create them, and fill this
 * table, again.
 */
const TABLE = 'monitoring_alarms_trigrams';
const COLUMNS = ['site_id', 'node_name', 'specific_problem', 'operator_id'] as const;

export async function up(db: Kysely<unknown>): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) return;
  const columns = COLUMNS.join(', ');
  const values = (row: 'new' | 'old') => COLUMNS.map((c) => `${row}.${c}`).join(', ');
  await sql
    .raw(
      `create virtual table ${TABLE} using fts5(site_id, node_name, specific_problem, operator_id unindexed,
        content = '', contentless_delete = 1, contentless_unindexed = 1, detail = column, tokenize = 'trigram')`,
    )
    .execute(db);
  await sql.raw(`insert into ${TABLE} (rowid, ${columns}) select id, ${columns} from monitoring_alarms`).execute(db);
  const forget = `delete from ${TABLE} where rowid = old.id;`;
  const learn = `insert into ${TABLE} (rowid, ${columns}) values (new.id, ${values('new')});`;
  await sql.raw(`create trigger ${TABLE}_insert after insert on monitoring_alarms begin ${learn} end`).execute(db);
  await sql.raw(`create trigger ${TABLE}_delete after delete on monitoring_alarms begin ${forget} end`).execute(db);
  await sql.raw(`create trigger ${TABLE}_update after update of id, ${columns} on monitoring_alarms begin ${forget} ${learn} end`).execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) return;
  for (const trigger of ['insert', 'delete', 'update']) await sql.raw(`drop trigger if exists ${TABLE}_${trigger}`).execute(db);
  await sql.raw(`drop table if exists ${TABLE}`).execute(db);
}
