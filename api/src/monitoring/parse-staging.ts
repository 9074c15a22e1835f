import { sql, type Kysely, type RawBuilder } from 'kysely';
import { BatchInsert, type InsertRow } from '../db/batch-insert';
import { OPERATOR_COLUMN, requireOperatorId, scopedTo } from '../db/operator-scope';
import type { Database } from '../db/schema';

/**
 * The staging area of one log parse (docs/engines/amos.md#the-parse): each node's rows are written as
 * its log is read, to TEMPORARY tables of the parse's own connection — invisible to every other
 * connection, gone when the connection closes or the process dies, and written without taking a lock
 * on the monitoring tables. When every log is read, one transaction swaps them in (`copyInto`). So the
 * heap holds a batch of logs, not the whole archive, and a parse that fails or is killed midway
 * leaves the monitoring tables exactly as they were (the tracking import stages the same way,
 * api/src/tracking/importer.ts).
 *
 * Each staged row's `parse_id` holds the number of the log it came from (the parse's id does not exist
 * until the swap): a node read twice in one parse keeps its newer log, and the older one's rows are
 * dropped by that number. The copy writes the parse's id instead.
 */

type Db = Kysely<Database>;

export const NODE_COLUMNS = [
  'node_name',
  'site_id',
  'in_inventory',
  'tech',
  'parse_id',
  'logs_at',
  'archive',
  'file',
  'line',
  'unreachable',
  'unreachable_reason',
  'problems',
  'alarm_status',
  'alarm_count',
  'alarm_comments',
  'radio_status',
  'radio_comments',
  'core_status',
  'core_comments',
  'updated_at',
] as const;
const ROW_COLUMNS = ['node_name', 'parse_id', 'mo', 'mo_class', 'tech', 'cell', 'archive', 'file', 'line'] as const;
const ALARM_COLUMNS = [
  ...ROW_COLUMNS,
  'site_id',
  'alarm_at',
  'alarm_time',
  'time_basis',
  'severity',
  'specific_problem',
  'info',
  'node_acknowledged',
  'node_operator',
  'alarm_key',
  'stale',
] as const;
const STATE_COLUMNS = [...ROW_COLUMNS, 'adm_state', 'op_state', 'link', 'stale'] as const;
const ATTRIBUTE_COLUMNS = [...ROW_COLUMNS, 'attribute', 'value'] as const;
const RET_COLUMNS = [
  'node_name',
  'parse_id',
  'mo',
  'antenna_unit_group',
  'antenna_near_unit',
  'ret_sub_unit',
  'electrical_tilt',
  'max_tilt',
  'min_tilt',
  'operational_state',
  'user_label',
  'serial_number',
  'archive',
  'file',
  'line',
] as const;
const FINDING_COLUMNS = [...ROW_COLUMNS, 'area', 'check_name', 'expected', 'actual', 'status', 'comment'] as const;

/** The tables that hold a node's rows from its latest log. */
export const NODE_ROW_TABLES = ['monitoring_alarms', 'monitoring_states', 'monitoring_attributes', 'monitoring_ret', 'monitoring_findings'] as const;
export type NodeRowTable = (typeof NODE_ROW_TABLES)[number];
export type StagedTable = NodeRowTable | 'monitoring_nodes';

const COLUMNS: Record<StagedTable, readonly string[]> = {
  monitoring_nodes: NODE_COLUMNS,
  monitoring_alarms: ALARM_COLUMNS,
  monitoring_states: STATE_COLUMNS,
  monitoring_attributes: ATTRIBUTE_COLUMNS,
  monitoring_ret: RET_COLUMNS,
  monitoring_findings: FINDING_COLUMNS,
};
const TABLES = Object.keys(COLUMNS) as StagedTable[];

/** The staging table of a monitoring table (no tenant table's name: the operator scope leaves it alone). */
const stagingOf = (table: StagedTable) => `parse_${table}`;

/** Numbers per `in (…)` list: far below every dialect's parameter limit. */
const ID_CHUNK = 500;

export type Row = Record<string, string | number | null>;

/** One node's rows, each with `parse_id` = the number of the log they came from. */
export interface StagedRows {
  alarms: Row[];
  states: Row[];
  attributes: Row[];
  ret: Row[];
  findings: Row[];
}

export class ParseStaging {
  private readonly writers: Record<StagedTable, BatchInsert>;
  /** Rows written so far, all tables. */
  rows = 0;

  private constructor(private readonly conn: Db) {
    // Not tenant tables, so the operator is named here, as a fixed column: the copy checks it again.
    const fixed = { [OPERATOR_COLUMN]: requireOperatorId() };
    const writer = (table: StagedTable) => new BatchInsert(conn, stagingOf(table), [...COLUMNS[table], OPERATOR_COLUMN], { fixed });
    this.writers = {
      monitoring_nodes: writer('monitoring_nodes'),
      monitoring_alarms: writer('monitoring_alarms'),
      monitoring_states: writer('monitoring_states'),
      monitoring_attributes: writer('monitoring_attributes'),
      monitoring_ret: writer('monitoring_ret'),
      monitoring_findings: writer('monitoring_findings'),
    };
  }

  /** Creates the staging tables on `conn`, a connection held for the whole parse (db.connection()). */
  static async open(conn: Db): Promise<ParseStaging> {
    await dropStaging(conn);
    for (const table of TABLES) {
      const columns = sql.join([...COLUMNS[table], OPERATOR_COLUMN].map((c) => sql.ref(c)));
      // The live table's column types, no rows, no indexes: every staged row is read once, by the copy.
      await sql`create temporary table ${sql.table(stagingOf(table))} as
        select ${columns} from ${sql.table(table)} where ${scopedTo(table)} and 1 = 0`.execute(conn);
    }
    return new ParseStaging(conn);
  }

  /** Stages one node's row and its tables' rows (written in full batches as they fill). */
  async add(node: Row, rows: StagedRows): Promise<void> {
    const w = this.writers;
    await w.monitoring_nodes.add(node);
    for (const row of rows.alarms) await w.monitoring_alarms.add(row as InsertRow);
    for (const row of rows.states) await w.monitoring_states.add(row as InsertRow);
    for (const row of rows.attributes) await w.monitoring_attributes.add(row as InsertRow);
    for (const row of rows.ret) await w.monitoring_ret.add(row as InsertRow);
    for (const row of rows.findings) await w.monitoring_findings.add(row as InsertRow);
    this.rows += 1 + rows.alarms.length + rows.states.length + rows.attributes.length + rows.ret.length + rows.findings.length;
  }

  /**
   * Runs `work` (staging writes) as one transaction of the staging connection: a statement of its own
   * committed each batch of 500 rows, and that cost SQLite more than the rows. It writes only the
   * temporary tables, so on SQLite it locks nothing of the main database (a plain BEGIN, not the
   * IMMEDIATE one of Kysely's transactions here, which would take the write lock); on PostgreSQL the
   * staging tables are the session's own. Nothing of the monitoring tables is written inside it.
   */
  async inOneGo<T>(work: () => Promise<T>): Promise<T> {
    await sql`begin`.execute(this.conn);
    try {
      const result = await work();
      await this.flush();
      await sql`commit`.execute(this.conn);
      return result;
    } catch (error) {
      await sql`rollback`.execute(this.conn);
      throw error;
    }
  }

  /** Writes what the writers still hold: after it, every row staged so far is in the database, none in the heap. */
  async flush(): Promise<void> {
    for (const writer of Object.values(this.writers)) await writer.flush();
  }

  /** Drops the rows of these logs (by their numbers) from the given staging tables; `db` is the connection or a transaction on it. */
  async discard(db: Db, logs: readonly number[], tables: readonly StagedTable[] = TABLES): Promise<void> {
    for (const table of tables) {
      for (let i = 0; i < logs.length; i += ID_CHUNK) {
        await sql`delete from ${sql.table(stagingOf(table))} where parse_id in (${sql.join(logs.slice(i, i + ID_CHUNK))})`.execute(db);
      }
    }
  }

  /** Sets columns of a staged node row (by its log's number), before the copy. */
  async updateNode(db: Db, log: number, values: Record<string, string | number | null>): Promise<void> {
    const sets = Object.entries(values).map(([column, value]) => sql`${sql.ref(column)} = ${value}`);
    await sql`update ${sql.table(stagingOf('monitoring_nodes'))} set ${sql.join(sets)} where parse_id = ${log}`.execute(db);
  }

  /** The staged alarms of these logs, by log number, as the alarm changes read them (alarm-console.ts). */
  async alarmsOf(db: Db, logs: readonly number[]): Promise<Map<number, Row[]>> {
    const out = new Map<number, Row[]>();
    // Staged without indexes (each row is read once by the copy), but read back here a chunk of logs at a
    // time: unindexed, every chunk read every staged alarm, chunks × alarms. Built once from the loaded rows.
    const staged = stagingOf('monitoring_alarms');
    await sql`create index if not exists ${sql.id(`${staged}_log`)} on ${sql.table(staged)} (parse_id)`.execute(db);
    for (let i = 0; i < logs.length; i += ID_CHUNK) {
      const { rows } = await sql<Row & { parse_id: number }>`select parse_id, alarm_key, severity, specific_problem, mo, alarm_at
        from ${sql.table(stagingOf('monitoring_alarms'))} where parse_id in (${sql.join(logs.slice(i, i + ID_CHUNK))})`.execute(db);
      for (const row of rows) {
        const log = Number(row.parse_id);
        const list = out.get(log);
        if (list) list.push(row);
        else out.set(log, [row]);
      }
    }
    return out;
  }

  /**
   * Drops the console's acknowledgements of these nodes whose alarm no staged log shows any more
   * (an alarm's key starts with its node's name, so each node's keys only meet its own).
   */
  async forgetCeasedAcks(trx: Db, nodes: readonly string[]): Promise<void> {
    for (let i = 0; i < nodes.length; i += ID_CHUNK) {
      await sql`delete from monitoring_alarm_acks where ${scopedTo('monitoring_alarm_acks')}
        and node_name in (${sql.join(nodes.slice(i, i + ID_CHUNK))})
        and alarm_key not in (select alarm_key from ${sql.table(stagingOf('monitoring_alarms'))})`.execute(trx);
    }
  }

  /**
   * Copies every staged row into its monitoring table, as rows of parse `parseId`, inside `trx` (a
   * transaction on the staging connection, so {@link flush} first: the writers cannot run inside it).
   */
  async copyInto(trx: Db, parseId: number): Promise<void> {
    for (const table of TABLES) {
      const columns = [...COLUMNS[table], OPERATOR_COLUMN];
      // A literal: a parameter in a select list has no type on PostgreSQL, and the id is our own integer.
      const values = columns.map((c): RawBuilder<unknown> => (c === 'parse_id' ? sql.lit(parseId) : sql.ref(c)));
      const staging = stagingOf(table);
      await sql`insert into ${sql.table(table)} (${sql.join(columns.map((c) => sql.ref(c)))})
        select ${sql.join(values)} from ${sql.table(staging)} where ${scopedTo(staging)}`.execute(trx);
    }
  }

  /** Drops the staging tables (also done by the connection's end, whatever ended it). */
  async close(): Promise<void> {
    await dropStaging(this.conn);
  }
}

async function dropStaging(conn: Db): Promise<void> {
  for (const table of TABLES) await sql`drop table if exists ${sql.table(stagingOf(table))}`.execute(conn);
}
