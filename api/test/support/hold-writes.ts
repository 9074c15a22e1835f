import { Client } from 'pg';
import type { TestDatabase } from './databases';

/**
 * Holds every insert into `notifications` (reads go on) until `release`, from another connection, so a
 * test can look at the moment between a notification's delivery and its write. PostgreSQL only: an
 * SQLite write lock would stall the test's own event loop (better-sqlite3 waits synchronously), and
 * there the write runs in the same turn as the delivery anyway, before any request can be read.
 */
export async function holdNotificationWrites(database: TestDatabase): Promise<{ release: () => Promise<void> } | null> {
  if (database.dialect !== 'postgres' || !database.options.databaseUrl) return null;
  const client = new Client({
    connectionString: database.options.databaseUrl,
    ...(database.options.pgSchema ? { options: `-c search_path=${database.options.pgSchema}` } : {}),
  });
  await client.connect();
  await client.query('begin');
  await client.query('lock table notifications in share row exclusive mode');
  let released: Promise<void> | undefined;
  return {
    // Once only: a test releases it where it looks, and again in its `finally`.
    release: () => (released ??= client.query('commit').then(() => client.end())),
  };
}

/** 'waiting' while the promise is still pending after a moment, else 'settled'. */
export function stateOf(promise: Promise<unknown>, ms = 200): Promise<'settled' | 'waiting'> {
  return Promise.race([promise.then(() => 'settled' as const), new Promise<'waiting'>((resolve) => setTimeout(() => resolve('waiting'), ms))]);
}
