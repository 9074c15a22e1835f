import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { openDatabase, type DatabaseHandle } from '../../src/db/database';
import { migrateToLatest } from '../../src/db/migrate';

export interface TestDatabase extends DatabaseHandle {
  /** Drops everything the test created. */
  dispose: () => Promise<void>;
}

interface Kind {
  name: 'sqlite' | 'postgres';
  open: () => Promise<TestDatabase>;
  /**
   * A database with no table at all (not even Kysely's bookkeeping): for suites that migrate it
   * themselves, step by step (the tenancy migration test). `schema` is the PostgreSQL schema in use.
   */
  openEmpty: () => Promise<EmptyTestDatabase>;
}

export interface EmptyTestDatabase extends TestDatabase {
  /** The PostgreSQL schema the database lives in (undefined on SQLite). */
  schema?: string;
  /** Runs schema changes (a migration) as other suites' migrations are run: see SCHEMA_CHANGES_LOCK. */
  migrating: <T>(work: () => Promise<T>) => Promise<T>;
}

async function openSqlite(migrate = true): Promise<EmptyTestDatabase> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cellwise-test-'));
  const handle = openDatabase({ databaseUrl: null, sqliteFile: path.join(dir, 'test.sqlite') });
  if (migrate) await migrateToLatest(handle.db);
  return {
    ...handle,
    migrating: (work) => work(),
    dispose: async () => {
      await handle.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * Taken shared while a suite migrates its schema and exclusively while one drops its schemas. Kysely's
 * migrator looks tables up across every schema of the database (pg_get_serial_sequence of each), and a
 * schema dropped by another suite in the middle of that scan failed the migration with `schema
 * "t_…" does not exist` (seen in CI with two jest workers).
 */
const SCHEMA_CHANGES_LOCK = 7_316_013;

/** Each PostgreSQL test database is a fresh schema, so suites never see each other's rows. */
async function openPostgres(url: string, migrate = true): Promise<EmptyTestDatabase> {
  const schema = `t_${randomBytes(6).toString('hex')}`;
  const admin = new Client({ connectionString: url });
  await admin.connect();
  let handle: DatabaseHandle;
  try {
    await admin.query(`create schema ${schema}`);
    await admin.query('select pg_advisory_lock_shared($1)', [SCHEMA_CHANGES_LOCK]);
    handle = openDatabase({ databaseUrl: url, sqliteFile: '', pgSchema: schema });
    if (migrate) await migrateToLatest(handle.db, schema);
  } finally {
    await admin.end(); // ends the session, and with it the lock
  }
  return {
    ...handle,
    schema,
    migrating: async (work) => {
      const lock = new Client({ connectionString: url });
      await lock.connect();
      try {
        await lock.query('select pg_advisory_lock_shared($1)', [SCHEMA_CHANGES_LOCK]);
        return await work();
      } finally {
        await lock.end();
      }
    },
    dispose: async () => {
      await handle.close();
      const cleanup = new Client({ connectionString: url });
      await cleanup.connect();
      try {
        await cleanup.query('select pg_advisory_lock($1)', [SCHEMA_CHANGES_LOCK]);
        await cleanup.query(`drop schema ${schema} cascade`);
        // The job queue's own schema (pg-boss), when an app on this database started one.
        await cleanup.query(`drop schema if exists ${schema}_jobs cascade`);
      } finally {
        await cleanup.end();
      }
    },
  };
}

/** SQLite always; PostgreSQL too when DATABASE_URL is set (CI sets it). */
export const TEST_DATABASES: Kind[] = [
  { name: 'sqlite', open: () => openSqlite(), openEmpty: () => openSqlite(false) },
  ...(process.env.DATABASE_URL
    ? [{ name: 'postgres' as const, open: () => openPostgres(process.env.DATABASE_URL!), openEmpty: () => openPostgres(process.env.DATABASE_URL!, false) }]
    : []),
];
