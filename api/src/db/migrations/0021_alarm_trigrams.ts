// Frozen: a migration never imports application code, so later refactors cannot change history.
import { PostgresAdapter, sql, type Kysely } from 'kysely';

/**
 * Contains-filters on the alarm list at a million rows, on SQLite (issue 48, bench/tables.mjs).
 *
 * No B-tree helps `like '%x%'`, so the list counted a filtered page by reading every alarm of the
 * operator (~0.5 s at a million). PostgreSQL has pg_trgm's GIN index for it (0013); SQLite's FTS5 has a
 * trigram tokenizer, which answers "contains this text, any case" from an index for three characters
 * or more. `monitoring_alarms_trigrams` indexes the alarm columns people look alarms up by; it is an
 * external-content table (it stores the index only, the text stays in `monitoring_alarms`, rowid = the
 * alarm's id) kept in step by the triggers below, whatever writes the alarms (the parse's copy, a purge,
 * the bench). `operator_id` is an unindexed column read from the alarm row, so the table is tenant data
 * like the alarms (docs/tenancy.md) and a read of it is scoped like any other.
 *
 * The list uses it to narrow the rows and still applies its LIKE to them (api/src/db/trigrams.ts), so the
 * rows are exactly those of before: the tokenizer folds case beyond ASCII, LIKE does not.
 * A later migration that rebuilds `monitoring_alarms` (drop and rename, as 0016 did) drops these
 * triggers with it and must create them, and rebuild this table, again.
 */
const TABLE = 'monitoring_alarms_trigrams';
const COLUMNS = ['site_id', 'node_name', 'specific_problem'] as const;

export async function up(db: Kysely<unknown>): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) return;
  const columns = COLUMNS.join(', ');
  const values = (row: 'new' | 'old') => COLUMNS.map((c) => `${row}.${c}`).join(', ');
  await sql
    .raw(
      `create virtual table ${TABLE} using fts5(${columns}, operator_id unindexed, content = 'monitoring_alarms', content_rowid = 'id', tokenize = 'trigram')`,
    )
    .execute(db);
  await sql.raw(`insert into ${TABLE} (${TABLE}) values ('rebuild')`).execute(db);
  // An external-content table is told what a row held when it is deleted: its old values, exactly.
  const forget = `insert into ${TABLE} (${TABLE}, rowid, ${columns}) values ('delete', old.id, ${values('old')});`;
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
