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
}

async function openSqlite(): Promise<TestDatabase> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cellwise-test-'));
  const handle = openDatabase({ databaseUrl: null, sqliteFile: path.join(dir, 'test.sqlite') });
  await migrateToLatest(handle.db);
  return {
    ...handle,
    dispose: async () => {
      await handle.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Each PostgreSQL test database is a fresh schema, so suites never see each other's rows. */
async function openPostgres(url: string): Promise<TestDatabase> {
  const schema = `t_${randomBytes(6).toString('hex')}`;
  const admin = new Client({ connectionString: url });
  await admin.connect();
  await admin.query(`create schema ${schema}`);
  await admin.end();
  const handle = openDatabase({ databaseUrl: url, sqliteFile: '', pgSchema: schema });
  await migrateToLatest(handle.db, schema);
  return {
    ...handle,
    dispose: async () => {
      await handle.close();
      const cleanup = new Client({ connectionString: url });
      await cleanup.connect();
      await cleanup.query(`drop schema ${schema} cascade`);
      // The job queue's own schema (pg-boss), when an app on this database started one.
      await cleanup.query(`drop schema if exists ${schema}_jobs cascade`);
      await cleanup.end();
    },
  };
}

/** SQLite always; PostgreSQL too when DATABASE_URL is set (CI sets it). */
export const TEST_DATABASES: Kind[] = [
  { name: 'sqlite', open: openSqlite },
  ...(process.env.DATABASE_URL ? [{ name: 'postgres' as const, open: () => openPostgres(process.env.DATABASE_URL!) }] : []),
];
