import fs from 'node:fs';
import path from 'node:path';
import { expect } from '@playwright/test';

/** The .eml files in the console's outbox right now, so a test can wait for the ones that come after. */
export function outboxFiles(dataDir: string): Set<string> {
  const outbox = path.join(dataDir, 'outbox');
  return fs.existsSync(outbox) ? new Set(fs.readdirSync(outbox)) : new Set<string>();
}

/**
 * Waits for a mail to `to` that was not in the outbox `before`, and answers the link to `page` the
 * newest such mail carries, rebased on `baseUrl` (the console's own address in this test).
 */
export async function mailedLink(
  dataDir: string,
  before: Set<string>,
  to: string,
  page: 'completeregistration' | 'recoverconfirmation',
  baseUrl: string,
): Promise<string> {
  const outbox = path.join(dataDir, 'outbox');
  let mail = '';
  await expect
    .poll(() => {
      const fresh = fs.existsSync(outbox) ? fs.readdirSync(outbox).filter((f) => !before.has(f) && f.endsWith('.eml')) : [];
      // The newest one: a resent link replaces the earlier ones.
      const newestFirst = fresh.map((f) => path.join(outbox, f)).sort((a, b) => fs.statSync(b).mtimeMs - fs.statSync(a).mtimeMs);
      mail = newestFirst.map((f) => fs.readFileSync(f, 'utf8')).find((m) => m.includes(to)) ?? '';
      return mail !== '';
    })
    .toBe(true);
  // Quoted-printable: soft line breaks and encoded '='.
  const unfolded = mail.replace(/=\r?\n/g, '').replace(/=3D/g, '=');
  const link = new RegExp(`https?://[^\\s"<>]+/auth/${page}\\?[^\\s"<>]+`).exec(unfolded)?.[0];
  expect(link).toBeTruthy();
  const url = new URL(link!);
  return baseUrl + url.pathname + url.search;
}
