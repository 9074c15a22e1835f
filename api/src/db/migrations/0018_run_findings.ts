// Frozen: a migration never imports application code, so later refactors cannot change history.
import { sql, type Kysely } from 'kysely';

/**
 * Every row of a run's result sheets, so the page lists, filters and sorts all of them (issue 46):
 * until now a run kept its first 20 rows (`runs.preview`) and the rest only in its workbook.
 *
 * `run_findings`: one row per result row, the operator's (docs/tenancy.md), with its sheet (the run's
 * sheet number), its place in the sheet, its verdict and its rank in the worst-first order (0 ERROR …
 * 6 OK, 7 none), and its cells as JSON text. The index serves a sheet's pages in the default order.
 * `runs.sheets`: the sheets' descriptions (JSON [{ name, columns: [{ key, label, kind }], total,
 * verdictKey, worst }]). Runs recorded before keep what they had: their preview becomes their one sheet.
 */

const VERDICT_KEYS = ['verdict', 'status', 'level', 'severity'];

function rank(verdict: string | null): number {
  if (verdict === null) return 7;
  const v = verdict.trim().toUpperCase();
  if (v === '' || v === 'N/A') return 7;
  if (v === 'ERROR' || v === 'NOK' || v === 'CRITICAL' || v === 'MAJOR') return 0;
  if (v === 'WARNING' || v === 'MINOR') return 1;
  if (v === 'MISSING' || v.startsWith('MISSING_')) return 2;
  if (v === 'WRONG') return 3;
  if (v === 'EXTRA') return 4;
  if (v === 'OK') return 6;
  return 5;
}

interface Preview {
  title?: unknown;
  columns?: unknown;
  rows?: unknown;
}

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('run_findings')
    .addColumn('operator_id', 'integer', (c) => c.notNull())
    .addColumn('run_id', 'integer', (c) => c.notNull().references('runs.id').onDelete('cascade'))
    .addColumn('sheet', 'integer', (c) => c.notNull())
    .addColumn('row_no', 'integer', (c) => c.notNull())
    .addColumn('rank', 'integer', (c) => c.notNull())
    .addColumn('verdict', 'varchar(60)')
    .addColumn('data', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('run_findings_pk', ['operator_id', 'run_id', 'sheet', 'row_no'])
    .execute();
  await db.schema.createIndex('run_findings_order').on('run_findings').columns(['operator_id', 'run_id', 'sheet', 'rank', 'row_no']).execute();
  await db.schema.alterTable('runs').addColumn('sheets', 'text').execute();

  const { rows: runs } = await sql<{ id: number; operator_id: number; preview: string }>`select id, operator_id, preview from runs`.execute(db);
  for (const run of runs) {
    let preview: Preview;
    try {
      preview = JSON.parse(run.preview) as Preview;
    } catch {
      preview = {};
    }
    const columns = Array.isArray(preview.columns)
      ? preview.columns.filter((c): c is { key: string; label: string } => typeof c?.key === 'string' && typeof c?.label === 'string')
      : [];
    const rows = Array.isArray(preview.rows) ? preview.rows.filter((r): r is Record<string, unknown> => r !== null && typeof r === 'object') : [];
    const verdictKey = VERDICT_KEYS.find((key) => columns.some((c) => c.key === key)) ?? null;
    let worst: string | null = null;
    for (const [i, row] of rows.entries()) {
      const value = verdictKey === null ? null : row[verdictKey];
      const verdict = value === null || value === undefined || value === '' ? null : String(value);
      if (verdict !== null && (worst === null || rank(verdict) < rank(worst))) worst = verdict;
      const data = JSON.stringify(Object.fromEntries(columns.map((c) => [c.key, row[c.key] ?? null])));
      await sql`insert into run_findings (operator_id, run_id, sheet, row_no, rank, verdict, data)
        values (${run.operator_id}, ${run.id}, 0, ${i + 1}, ${rank(verdict)}, ${verdict}, ${data})`.execute(db);
    }
    const sheets =
      columns.length === 0
        ? []
        : [
            {
              name: typeof preview.title === 'string' ? preview.title : 'Result',
              columns: columns.map((c) => ({ key: c.key, label: c.label, kind: 'text' })),
              total: rows.length,
              verdictKey,
              worst,
            },
          ];
    await sql`update runs set sheets = ${JSON.stringify(sheets)} where id = ${run.id}`.execute(db);
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('run_findings').execute();
  await db.schema.alterTable('runs').dropColumn('sheets').execute();
}
