import fs from 'node:fs';
import { SEEDED_TEMPLATE_ENV, startConsole } from './console';

/**
 * Seeds the demo data once for the whole run: a console starts on a fresh data directory (importing the
 * demo network, tracking data and MoBatch logs through their real jobs, as every first start does) and
 * stops; each spec file's console then starts on a copy of that directory (console.ts). The returned
 * function, Playwright's teardown, removes the template.
 */
export default async function globalSetup(): Promise<() => void> {
  const seeded = await startConsole();
  await seeded.stop();
  process.env[SEEDED_TEMPLATE_ENV] = seeded.dataDir;
  return () => fs.rmSync(seeded.dataDir, { recursive: true, force: true });
}
