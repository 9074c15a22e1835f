import { type Writable } from 'node:stream';
import { finished } from 'node:stream/promises';
import { assertCoordinateEncoding, type CoordinateEncoding, emptyCounts, type RelationKind } from '../../domain/network/model';
import { writeBsc } from './bsc';
import { LISBON } from './lisbon';
import { type DemoOptions, type DemoRegion, type DemoSite, type DemoSummary } from './model';
import { neighbourTable, planDemoNetwork } from './plan';
import { writeRadioNode } from './radio-node';
import { writeRnc } from './rnc';
import { XmlOut } from './xml';

/**
 * Writes a realistic Ericsson-flavour Bulk CM file (everything below ManagedElement as
 * `xn:VsDataContainer` + `es:vsData…`) for a demo network around Lisbon (or another region: each demo
 * operator has its own), streaming to a Writable with back-pressure. Deterministic: the same options
 * give the same bytes.
 *
 * Layout: SubNetwork=ONRM_ROOT_MO with
 * - LRAN: one RadioNode per site (MeContext = ManagedElement = site id, or the node's name on a layer
 *   site): ENodeBFunction with
 *   EUtranCellFDD per LTE band and sector (+ NbIotCell on some sites), GNBDUFunction/GNBCUCPFunction
 *   with NRCellDU/NRCellCU on n78 sites; external cells (proxies of neighbour-site cells, of co-site
 *   UMTS/GSM/NR cells, and of another OSS's eNBs) and relations of every LTE/NR kind;
 * - URAN: RNCs (one per ~150 sites) with UtranCells, UtranRelations, GsmRelations, IurLink proxies;
 * - GRAN: BSCs (one per ~200 sites) with GeranCells and GeranCellRelations.
 * Coordinates sit on ENodeBFunction (`latitude`/`longitude`, plus `latitudeSign` in the 3GPP encoding).
 * UMTS power plan: CPICH 310–330 with max power 430 (0.1 dBm), except ~3% of cells deliberately wrong
 * (CPICH 380, CPICH 440 ≥ max, or max power 470), listed in the summary.
 */

export async function generateDemoBulkCm(out: Writable, options: DemoOptions = {}): Promise<DemoSummary> {
  const seed = options.seed ?? 1;
  const coords = assertCoordinateEncoding(options.coords ?? 'microdegrees');
  let siteCount = options.sites ?? 300;
  if (options.sizeMb !== undefined) {
    // Calibrate on a small dry run: bytes per site hardly depend on the number of sites.
    const probeSites = 60;
    const probe = await writeNetwork(null, planDemoNetwork({ seed, sites: probeSites, region: options.region }), seed, coords, options.region ?? LISBON);
    siteCount = Math.max(1, Math.round((options.sizeMb * 1e6 * probeSites) / probe.bytes));
  }
  const region = options.region ?? LISBON;
  const summary = await writeNetwork(out, planDemoNetwork({ seed, sites: siteCount, region, layerSites: options.layerSites }), seed, coords, region);
  if (options.end ?? true) {
    out.end();
    // Resolve only once the data is flushed (a file can be read right away), and surface write errors.
    await finished(out, { readable: false });
  }
  return summary;
}

export async function writeNetwork(
  sink: Writable | null,
  sites: DemoSite[],
  seed: number,
  coords: CoordinateEncoding,
  region: DemoRegion,
): Promise<DemoSummary> {
  const w = new XmlOut(sink);
  const counts = emptyCounts();
  const cpichOutOfRange: string[] = [];
  const { near, nearNr } = neighbourTable(sites, region);
  const rel = (k: RelationKind, n = 1): void => {
    counts.relations[k] += n;
  };

  w.push(
    '<?xml version="1.0" encoding="UTF-8"?>\n' +
      '<bulkCmConfigDataFile xmlns="http://www.3gpp.org/ftp/specs/archive/32_series/32.615#configData" ' +
      'xmlns:xn="http://www.3gpp.org/ftp/specs/archive/32_series/32.625#genericNrm" ' +
      'xmlns:es="EricssonSpecificAttributes.17.28.xml">\n' +
      '<fileHeader fileFormatVersion="32.615 V4.5" vendorName="Ericsson"/>\n<configData dnPrefix="Undefined">\n' +
      '<xn:SubNetwork id="ONRM_ROOT_MO">\n<xn:SubNetwork id="LRAN">\n',
  );

  for (const site of sites) {
    writeRadioNode(w, site, near[site.index] as DemoSite[], nearNr[site.index] as DemoSite[], seed, coords, counts, rel);
    counts.sites++;
    counts.nodes++;
    await w.maybeFlush();
  }
  w.push('</xn:SubNetwork>\n<xn:SubNetwork id="URAN">\n');
  const nRnc = Math.max(...sites.map((s) => s.rnc)) + 1;
  for (let k = 0; k < nRnc; k++) {
    await writeRnc(w, k, sites, near, seed, counts, rel, cpichOutOfRange);
    counts.nodes++;
  }
  w.push('</xn:SubNetwork>\n<xn:SubNetwork id="GRAN">\n');
  const nBsc = Math.max(...sites.map((s) => s.bsc)) + 1;
  for (let k = 0; k < nBsc; k++) {
    await writeBsc(w, k, sites, near, seed, counts, rel);
    counts.nodes++;
  }
  w.push('</xn:SubNetwork>\n</xn:SubNetwork>\n</configData>\n<fileFooter dateTime="2024-05-06T02:00:00+01:00"/>\n</bulkCmConfigDataFile>\n');
  await w.flush();
  return { counts, bytes: w.bytes, sites: sites.length, seed, coords, cpichOutOfRange };
}
