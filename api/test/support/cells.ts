import type { TestDatabase } from './databases';

/** Network fixtures of the CPICH tests (validation, run findings, job outcomes). */

/** A UTRAN cell of RNC01 as the network import stores it: every fact the CPICH rules do not read is empty. */
export function utranCell(site: string, name: string, uarfcn: number, cpich: number, max: number) {
  return {
    dn: `SubNetwork=1,MeContext=RNC01,ManagedElement=1,RncFunction=1,UtranCell=${name}`,
    name,
    node_name: 'RNC01',
    site_id: site,
    tech: '3G',
    band: null,
    channel: uarfcn,
    pci: null,
    psc: null,
    bsic: null,
    lac: null,
    tac: null,
    nr_tac: null,
    azimuth: null,
    cpich_power: cpich,
    max_tx_power: max,
    plmns: '268-01',
    rach_root_sequence: null,
    ssb: null,
    cell_id: null,
    local_cell_id: null,
    owner_id: null,
    global_id: null,
  };
}

/** The network import's record, which the validation pages read as the dump's date ('UTRAN cells date'). */
export async function recordDumpImport(db: TestDatabase['db']): Promise<void> {
  await db
    .insertInto('network_imports')
    .values({
      file_name: 'dump.xml',
      format: 'bulkcm',
      coords: 'microdegrees',
      imported_at: '2026-11-20T08:00:00.000Z',
      imported_by: null,
      counts_json: '{}',
      bytes: 1,
    })
    .execute();
}
