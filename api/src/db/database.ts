import { AsyncLocalStorage } from 'node:async_hooks';
import fs from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { isMainThread } from 'node:worker_threads';
import SQLite from 'better-sqlite3';
import {
  CompiledQuery,
  Kysely,
  PostgresDialect,
  SqliteDialect,
  SqliteDriver,
  sql,
  type DatabaseConnection,
  type QueryResult,
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
  private readonly waiting: WeakMap<DatabaseConnection, DatabaseConnection> = new WeakMap();

  constructor(
    settings: SqliteDialectConfig,
    private readonly lockWait: SQLite.Database | null,
  ) {
    super(settings);
  }

  override async acquireConnection(): Promise<DatabaseConnection> {
    const connection = await super.acquireConnection();
    if (!this.lockWait) return connection;
    let waiting = this.waiting.get(connection);
    if (!waiting) this.waiting.set(connection, (waiting = new LockWaitingConnection(connection, this.lockWait)));
    return waiting;
  }

  override async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('begin immediate'));
  }
}

/** Pauses between tries of a statement that met another connection's write lock: short first, then capped. */
const LOCK_RETRY_MS = [2, 5, 10, 20, 40, 80, 160, 250];
/** How long a statement waits for the write lock, in all, before it fails as SQLite would. */
export const LOCK_PATIENCE_MS = 60_000;
const FAIL_FAST = new AsyncLocalStorage<true>();

/** Runs `work` with statements that meet the write lock failing at once (SQLITE_BUSY) instead of waiting. */
export function failingFastOnLock<T>(work: () => Promise<T>): Promise<T> {
  return FAIL_FAST.run(true, work);
}

function isBusy(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && code.startsWith('SQLITE_BUSY');
}

/**
 * The main thread's SQLite connection, waiting for the write lock without stopping the event loop.
 * better-sqlite3 is synchronous: with a busy timeout, a main-thread statement that meets a worker
 * thread's transaction (a log parse, an import's swap) spins in SQLite's busy handler, and every request
 * and timer of the process stops with it, for up to the timeout, after which the statement failed and
 * its request answered 500 (a file upload during a parse did, issue 44). The main connection runs with
 * busy_timeout 0 instead, and a statement refused for the lock is tried again after an asynchronous pause.
 * Only a statement outside a transaction (it changed nothing) or the `begin immediate` that opens one
 * (it took nothing) is tried again; within a transaction the lock is already held.
 */
class LockWaitingConnection implements DatabaseConnection {
  constructor(
    private readonly inner: DatabaseConnection,
    private readonly sqlite: SQLite.Database,
  ) {}

  async executeQuery<R>(compiledQuery: CompiledQuery): Promise<QueryResult<R>> {
    const giveUpAt = Date.now() + LOCK_PATIENCE_MS;
    for (let attempt = 0; ; attempt += 1) {
      try {
        return await this.inner.executeQuery<R>(compiledQuery);
      } catch (error) {
        if (!isBusy(error) || this.sqlite.inTransaction || FAIL_FAST.getStore() || Date.now() >= giveUpAt) throw error;
        await sleep(LOCK_RETRY_MS[Math.min(attempt, LOCK_RETRY_MS.length - 1)]!);
      }
    }
  }

  streamQuery<R>(compiledQuery: CompiledQuery, chunkSize?: number): AsyncIterableIterator<QueryResult<R>> {
    return this.inner.streamQuery<R>(compiledQuery, chunkSize);
  }
}

class ImmediateSqliteDialect extends SqliteDialect {
  constructor(
    private readonly settings: SqliteDialectConfig,
    private readonly lockWait: SQLite.Database | null,
  ) {
    super(settings);
  }

  override createDriver(): Driver {
    return new ImmediateSqliteDriver(this.settings, this.lockWait);
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
  // A worker thread may wait in SQLite's busy handler; the main thread waits without blocking (LockWaitingConnection).
  sqlite.pragma(isMainThread ? 'busy_timeout = 0' : 'busy_timeout = 5000');
  const db = new Kysely<Database>({
    dialect: new ImmediateSqliteDialect({ database: new StatementCache(sqlite) }, isMainThread ? sqlite : null),
    plugins: [new OperatorScopePlugin()],
  });
  return { db, dialect: 'sqlite', options, close: () => db.destroy() };
}

export async function pingDatabase(db: Kysely<Database>): Promise<void> {
  await sql`select 1`.execute(db);
}
