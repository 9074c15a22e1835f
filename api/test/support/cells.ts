/**
 * A UTRAN cell of RNC01 as the network import stores it, for the CPICH tests (validation, run findings,
 * job outcomes): every fact the CPICH rules do not read is empty.
 */
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
