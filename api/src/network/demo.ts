import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';
import { generateDemoBulkCm, type DemoLayerSite, type DemoRegion, type DemoSummary } from '../demo/network';
import type { NetworkCounts } from '../domain/network';
import { importDump, type ImportDumpResult } from './importer';

/** ~120 sites is ~19 MB of Bulk CM: a living network on first start without making the first start slow. */
export const DEMO_NETWORK_SITES = 120;
export const DEMO_NETWORK_FILE = 'demo-network.xml';

export interface DemoNetworkOptions {
  /** DATA_DIR: the file is written to `<dataDir>/demo/demo-network.xml`. */
  dataDir: string;
  /** Number of sites (default {@link DEMO_NETWORK_SITES}). */
  sites?: number;
  /** Generator seed (default 1): the same seed writes the same file. */
  seed?: number;
  /** Where the sites are and the operator's PLMN (default: Lisbon, Vodafone PT's). */
  region?: DemoRegion;
  /** The operator's own layer on sites another operator owns (MORAN). */
  layerSites?: readonly DemoLayerSite[];
  /** The file's name under `<dataDir>/demo/`, and the import's (default {@link DEMO_NETWORK_FILE}). */
  fileName?: string;
  /**
   * Imports the written file (default: the importer, here). The server passes a job, so the demo import
   * is on the job dashboard like any other.
   */
  importer?: (file: string, coords: DemoSummary['coords'], fileName: string) => Promise<Pick<ImportDumpResult, 'counts' | 'importedAt'>>;
}

export interface DemoNetworkImport {
  /** Where the generated dump was written. */
  file: string;
  /** What the generator wrote. */
  summary: DemoSummary;
  /** What the import stored. */
  counts: NetworkCounts;
  importedAt: string;
}

/**
 * When the current operator never had a network import, writes the demo Bulk CM file with the domain
 * generator and imports it through the real importer. Answers null (and writes nothing) when an import
 * exists.
 */
export async function importDemoNetworkIfEmpty(db: Kysely<Database>, options: DemoNetworkOptions): Promise<DemoNetworkImport | null> {
  const existing = await db.selectFrom('network_imports').select('id').limit(1).executeTakeFirst();
  if (existing) return null;

  const dir = path.join(options.dataDir, 'demo');
  fs.mkdirSync(dir, { recursive: true });
  const fileName = options.fileName ?? DEMO_NETWORK_FILE;
  const file = path.join(dir, fileName);
  // Written under a private name and renamed when complete, so no reader ever sees half a file.
  const partial = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.partial`;
  let summary: DemoSummary;
  try {
    summary = await generateDemoBulkCm(fs.createWriteStream(partial), {
      sites: options.sites ?? DEMO_NETWORK_SITES,
      seed: options.seed ?? 1,
      region: options.region,
      layerSites: options.layerSites,
    });
    fs.renameSync(partial, file);
  } finally {
    fs.rmSync(partial, { force: true });
  }

  const result = options.importer
    ? await options.importer(file, summary.coords, fileName)
    : await importDump(db, fs.createReadStream(file), { fileName, format: 'bulkcm', coords: summary.coords, importedBy: null });
  return { file, summary, counts: result.counts, importedAt: result.importedAt };
}
