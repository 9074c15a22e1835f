import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import {
  CompiledQuery,
  Kysely,
  PostgresDialect,
  SqliteDialect,
  SqliteDriver,
  sql,
  type DatabaseConnection,
  type Driver,
  type SqliteDatabase,
  type SqliteDialectConfig,
  type SqliteStatement,
} from 'kysely';
import { Pool } from 'pg';
import { OperatorScopePlugin } from './operator-scope';
import type { Database } from './schema';

export type Dialect = 'sqlite' | 'postgres';

export interface DatabaseHandle {
  db: Kysely<Database>;
  dialect: Dialect;
  /** How it was opened: a worker thread opens its own connection the same way. */
  options: DatabaseOptions;
  close: () => Promise<void>;
}

export interface DatabaseOptions {
  /** postgres://… to use PostgreSQL; otherwise an embedded SQLite file. */
  databaseUrl: string | null;
  /** SQLite file path (ignored for PostgreSQL). ':memory:' is allowed for tests. */
  sqliteFile: string;
  /** PostgreSQL schema to use instead of public (tests isolate themselves this way). */
  pgSchema?: string;
}

/**
 * SQLite transactions that take the write lock when they begin. A plain (deferred) BEGIN reads first
 * and upgrades at its first write; when another connection (the main thread's, a worker thread's) has
 * committed in between, the upgrade fails at once with "database is locked" — the busy timeout cannot
 * help a stale snapshot. BEGIN IMMEDIATE waits for the lock up to the busy timeout instead.
 */
class ImmediateSqliteDriver extends SqliteDriver {
  override async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('begin immediate'));
  }
}

class ImmediateSqliteDialect extends SqliteDialect {
  constructor(private readonly settings: SqliteDialectConfig) {
    super(settings);
  }

  override createDriver(): Driver {
    return new ImmediateSqliteDriver(this.settings);
  }
}

/** Prepared statements kept per connection: far more than the distinct statements of a busy hour. */
export const STATEMENT_CACHE_SIZE = 500;

/**
 * better-sqlite3 with its prepared statements kept, by SQL text. Kysely prepares every query it runs,
 * and preparing costs as much as running a small statement: an import's batched insert, the same text
 * thousands of times, spent half its SQLite time compiling it again. A statement still being iterated
 * (a streamed read) is busy and cannot run twice at once, so a busy one is never handed out: that
 * caller gets a fresh statement of its own. Least recently used statements are dropped beyond the
 * limit, so queries whose text varies (lists of `?` of any length) cannot grow it without bound.
 */
export class StatementCache implements SqliteDatabase {
  private readonly statements = new Map<string, SQLite.Statement>();

  constructor(
    private readonly database: SQLite.Database,
    private readonly limit = STATEMENT_CACHE_SIZE,
  ) {}

  prepare(sql: string): SqliteStatement {
    const kept = this.statements.get(sql);
    if (kept !== undefined && !kept.busy) {
      // Map order is insertion order: moved to the end, it is the most recently used.
      this.statements.delete(sql);
      this.statements.set(sql, kept);
      return kept;
    }
    const statement = this.database.prepare(sql);
    if (kept === undefined) {
      this.statements.set(sql, statement);
      if (this.statements.size > this.limit) this.statements.delete(this.statements.keys().next().value!);
    }
    return statement;
  }

  get size(): number {
    return this.statements.size;
  }

  close(): void {
    this.statements.clear();
    this.database.close();
  }
}

/** The PostgreSQL pool behind each database opened here, for the metrics endpoint (connections in use, idle, waited for). */
export const POOLS = new WeakMap<Kysely<Database>, Pool>();

export function openDatabase(options: DatabaseOptions): DatabaseHandle {
  if (options.databaseUrl) {
    const pool = new Pool({
      connectionString: options.databaseUrl,
      max: 10,
      ...(options.pgSchema ? { options: `-c search_path=${options.pgSchema}` } : {}),
    });
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }), plugins: [new OperatorScopePlugin()] });
    POOLS.set(db, pool);
    return { db, dialect: 'postgres', options, close: () => db.destroy() };
  }
  if (options.sqliteFile !== ':memory:') fs.mkdirSync(path.dirname(options.sqliteFile), { recursive: true });
  const sqlite = new SQLite(options.sqliteFile);
  // WAL: readers never block the writer and a crash mid-import leaves the previous data intact.
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  const db = new Kysely<Database>({ dialect: new ImmediateSqliteDialect({ database: new StatementCache(sqlite) }), plugins: [new OperatorScopePlugin()] });
  return { db, dialect: 'sqlite', options, close: () => db.destroy() };
}

export async function pingDatabase(db: Kysely<Database>): Promise<void> {
  await sql`select 1`.execute(db);
}
