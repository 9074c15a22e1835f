import { parseBulkCm } from './bulkcm';
import { parseCmedit } from './cmedit';
import { importNetworkDump } from './dump';
import { NetworkOptionError, NetworkParseError } from './errors';
import { mapNetwork, type MapResult, type NetworkSink } from './mapper';
import { type CoordinateEncoding, emptyCounts, type NetworkCounts } from './model';
import type { MoRecord } from './records';
import { compileSiteRule } from './site-rule';
import { bodastage, capture, type Captured, find, fixture, stream } from './__tests__/helpers';

const LRAN = 'SubNetwork=ONRM_ROOT_MO,SubNetwork=LRAN';
const ME = `${LRAN},MeContext=LX0123,ManagedElement=LX0123`;
const ENB = `${ME},ENodeBFunction=1`;

async function mapFile(file: string, coords: CoordinateEncoding = 'microdegrees'): Promise<{ got: Captured; result: MapResult }> {
  const { sink, got } = capture();
  const result = await mapNetwork(parseBulkCm(stream(file)), sink, { coords });
  return { got, result };
}

function counts(patch: {
  sites: number;
  nodes: number;
  cells?: Partial<NetworkCounts['cells']>;
  externalCells?: Partial<NetworkCounts['externalCells']>;
  relations?: Partial<NetworkCounts['relations']>;
}): NetworkCounts {
  const c = emptyCounts();
  return {
    sites: patch.sites,
    nodes: patch.nodes,
    cells: { ...c.cells, ...patch.cells },
    externalCells: { ...c.externalCells, ...patch.externalCells },
    relations: { ...c.relations, ...patch.relations },
  };
}

describe('Ericsson RadioNode file', () => {
  let got: Captured;
  let result: MapResult;
  beforeAll(async () => {
    ({ got, result } = await mapFile(fixture('ericsson-radionode.xml')));
  });

  it('counts exactly what it emitted', () => {
    expect(result.counts).toEqual(
      counts({
        sites: 2,
        nodes: 2,
        cells: { '4G': 4, 'NB-IoT': 1, '5G': 2 },
        externalCells: { '4G': 1, '5G': 2 },
        relations: { 'LTE-LTE': 2, 'LTE-NR': 1, 'NR-NR': 1 },
      }),
    );
    expect(got.cells).toHaveLength(7);
    expect(got.relations).toHaveLength(4);
  });

  it('streams relations, then site → node → cells → external cells when a node ends', () => {
    expect(got.order).toEqual([
      'rel:LX0123_L800_2',
      'rel:26801-456-11',
      'rel:26801-2123-1',
      'rel:26801-2456-1',
      'site:LX0123',
      'node:LX0123',
      'cell:LX0123_L800_1',
      'cell:LX0123_L800_2',
      'cell:LX0123_L2600T_1',
      'cell:LX0123_NB800_1',
      'cell:LX0123_N78_1',
      'cell:LX0123_N78_2',
      'ext:26801-456-11',
      'ext:26801-2123-1',
      'ext:26801-2456-1',
      'site:LX0456',
      'node:LX0456_L',
      'cell:LX0456_L1800_1',
    ]);
  });

  it('maps the site and node, with the position from ENodeBFunction in microdegrees', () => {
    expect(got.sites[0]).toEqual({ id: 'LX0123', name: 'Lisboa Chiado', lat: 38.7105, lon: -9.1421 });
    expect(got.nodes[0]).toEqual({ name: 'LX0123', dn: `${LRAN},MeContext=LX0123`, siteId: 'LX0123', technology: 'multi', type: 'RadioNode' });
  });

  it('falls back to the first cell position, the site-id rule and managedElementType', () => {
    expect(got.sites[1]).toEqual({ id: 'LX0456', name: 'LX0456', lat: 38.722, lon: -9.139 });
    expect(got.nodes[1]).toMatchObject({ name: 'LX0456_L', siteId: 'LX0456', technology: '4G', type: 'ERBS' });
  });

  it('maps an FDD cell with PCI = 3·group + sub, band from EARFCN and MOCN PLMNs', () => {
    expect(find(got.cells, (c) => c.name === 'LX0123_L800_1', 'L800_1')).toEqual({
      name: 'LX0123_L800_1',
      dn: `${ENB},EUtranCellFDD=LX0123_L800_1`,
      altDns: [],
      nodeName: 'LX0123',
      siteId: 'LX0123',
      tech: '4G',
      band: 'L800',
      channel: 6300,
      pci: 30,
      psc: null,
      bsic: null,
      lac: null,
      tac: 3001,
      nrTac: null,
      azimuth: 30,
      cpichPower: null,
      maxTxPower: null,
      plmns: ['268-01', '268-03'],
      rachRootSequence: 120,
      ssb: null,
      cellId: 11,
      localCellId: null,
      ownerId: 123,
      globalId: '268-01-123-11',
    });
  });

  it('ignores the MCC-1 placeholder PLMNs and falls back to the eNB PLMN', () => {
    expect(find(got.cells, (c) => c.name === 'LX0123_L800_2', 'L800_2')).toMatchObject({ pci: 31, plmns: ['268-01'], globalId: '268-01-123-12' });
  });

  it('maps TDD (single EARFCN) and NB-IoT cells', () => {
    expect(find(got.cells, (c) => c.name === 'LX0123_L2600T_1', 'TDD')).toMatchObject({ tech: '4G', channel: 38000, band: 'L2600TDD', pci: 17 });
    expect(find(got.cells, (c) => c.name === 'LX0123_NB800_1', 'NB')).toMatchObject({ tech: 'NB-IoT', channel: 6290, band: 'L800', pci: 30, cellId: 51 });
  });

  it('merges NRCellDU and NRCellCU of the same name into one 5G cell', () => {
    const nr = find(got.cells, (c) => c.name === 'LX0123_N78_1', 'N78_1');
    expect(nr).toMatchObject({
      tech: '5G',
      dn: `${ME},GNBCUCPFunction=1,NRCellCU=LX0123_N78_1`,
      altDns: [`${ME},GNBDUFunction=1,NRCellDU=LX0123_N78_1`],
      pci: 302,
      channel: 643334, // from the NRSectorCarrier the DU references, written after the cell
      ssb: 643296,
      band: 'n78',
      tac: 5001,
      nrTac: 5001,
      azimuth: 35,
      cellId: 1,
      ownerId: 2123,
      plmns: ['268-01', '268-03'],
      globalId: '268-01-2123-1',
    });
    expect(find(got.cells, (c) => c.name === 'LX0123_N78_2', 'N78_2')).toMatchObject({
      dn: `${ME},GNBCUCPFunction=1,NRCellCU=LX0123_N78_2`,
      altDns: [],
      pci: null,
      cellId: 2,
      plmns: ['268-01'],
    });
  });

  it('maps external cells with the identity of the cell they stand for', () => {
    expect(find(got.externalCells, (e) => e.name === '26801-456-11', 'ext LTE')).toEqual({
      dn: `${ENB},EUtraNetwork=1,ExternalENodeBFunction=26801-456,ExternalEUtranCellFDD=26801-456-11`,
      name: '26801-456-11',
      kind: '4G',
      nodeName: 'LX0123',
      pci: 61,
      psc: null,
      bsic: null,
      channel: 6300, // its EUtranFrequency comes later in the file
      band: 'L800',
      tac: 3001,
      lac: null,
      plmn: '268-01',
      ownerId: 456,
      cellId: 11,
      globalId: '268-01-456-11',
    });
    const gutran = find(got.externalCells, (e) => e.name === '26801-2123-1', 'ext GUtran');
    expect(gutran).toMatchObject({ kind: '5G', pci: 302, channel: 643296, band: 'n78', ownerId: 2123, cellId: 1, plmn: '268-01' });
    // The eNB's proxy of the co-sited NR cell resolves to that cell by identity.
    expect(gutran.globalId).toBe(find(got.cells, (c) => c.name === 'LX0123_N78_1', 'N78_1').globalId);
    expect(find(got.externalCells, (e) => e.name === '26801-2456-1', 'ext NR')).toMatchObject({
      kind: '5G',
      pci: 55,
      channel: 636666,
      tac: 5002,
      ownerId: 2456,
      globalId: '268-01-2456-1',
    });
  });

  it('maps relations with kind, raw target DN, createdBy and the allowed flags', () => {
    const byName = (n: string) => find(got.relations, (r) => r.name === n, n);
    expect(byName('LX0123_L800_2')).toEqual({
      dn: `${ENB},EUtranCellFDD=LX0123_L800_1,EUtranFreqRelation=6300,EUtranCellRelation=LX0123_L800_2`,
      name: 'LX0123_L800_2',
      nodeName: 'LX0123',
      sourceCellDn: `${ENB},EUtranCellFDD=LX0123_L800_1`,
      kind: 'LTE-LTE',
      targetRef: `${ENB},EUtranCellFDD=LX0123_L800_2`,
      createdBy: 'OPERATOR',
      isRemoveAllowed: false,
      isHoAllowed: true,
    });
    expect(byName('26801-456-11')).toMatchObject({
      kind: 'LTE-LTE',
      targetRef: `${ENB},EUtraNetwork=1,ExternalENodeBFunction=26801-456,ExternalEUtranCellFDD=26801-456-11`,
      createdBy: 'ANR',
      isRemoveAllowed: true,
      isHoAllowed: false,
    });
    expect(byName('26801-2123-1')).toMatchObject({ kind: 'LTE-NR', createdBy: null, isRemoveAllowed: true });
    expect(byName('26801-2456-1')).toMatchObject({
      kind: 'NR-NR',
      sourceCellDn: `${ME},GNBCUCPFunction=1,NRCellCU=LX0123_N78_1`,
      targetRef: `${ME},GNBCUCPFunction=1,NRNetwork=1,ExternalGNBCUCPFunction=26801-2456,ExternalNRCellCU=26801-2456-1`,
    });
  });
});

describe('3GPP standard file with controllers and 3GPP-encoded positions', () => {
  let got: Captured;
  let result: MapResult;
  beforeAll(async () => {
    ({ got, result } = await mapFile(fixture('standard-3gpp-coords.xml'), '3gpp'));
  });

  it('counts sites once even when a site is emitted again with its position', () => {
    expect(result.counts).toEqual(
      counts({
        sites: 2,
        nodes: 4,
        cells: { '3G': 2, '2G': 2 },
        externalCells: { '2G': 1 },
        relations: { 'UTRAN-UTRAN': 1, 'UTRAN-GERAN': 1, 'GERAN-GERAN': 1 },
      }),
    );
    expect(got.sites.map((s) => s.id)).toEqual(['LX0777', 'LX0777', 'LU0001']);
    expect(got.sites[0]).toEqual({ id: 'LX0777', name: 'LX0777', lat: null, lon: null });
    expect(got.sites[1]?.name).toBe('Almada Pragal');
    expect(got.sites[1]?.lat).toBeCloseTo(38.679, 4);
    expect(got.sites[1]?.lon).toBeCloseTo(-9.159, 4);
    expect(got.sites[2]?.lat).toBeCloseTo(-8.8383, 4);
    expect(got.sites[2]?.lon).toBeCloseTo(13.2344, 4);
  });

  it('gives controller cells the site of their name and the controller no site', () => {
    expect(got.nodes.map((n) => [n.name, n.siteId, n.technology, n.type])).toEqual([
      ['RNC07', null, '3G', 'RNC'],
      ['BSC03', null, '2G', 'BSC'],
      ['LX0777', 'LX0777', '4G', 'ERBS'],
      ['LU0001', 'LU0001', null, null],
    ]);
    expect(got.cells.map((c) => [c.name, c.nodeName, c.siteId])).toEqual([
      ['LX0777_U2100F1_1', 'RNC07', 'LX0777'],
      ['LX0777_U900_1', 'RNC07', 'LX0777'],
      ['LX0777_G900_1', 'BSC03', 'LX0777'],
      ['LX0777_G1800_1', 'BSC03', 'LX0777'],
    ]);
  });

  it('maps UMTS cells with CPICH and max power in 0.1 dBm and the RNC identity', () => {
    expect(find(got.cells, (c) => c.name === 'LX0777_U2100F1_1', 'U2100')).toMatchObject({
      tech: '3G',
      band: 'U2100',
      channel: 10612,
      psc: 77,
      cpichPower: 300,
      maxTxPower: 430,
      lac: 1070,
      cellId: 7771,
      localCellId: 7771,
      ownerId: 107,
      plmns: ['268-01'],
      globalId: '268-01-107-7771',
      azimuth: 10, // from the vendor extension that followed the relations
    });
    expect(find(got.cells, (c) => c.name === 'LX0777_U900_1', 'U900')).toMatchObject({ band: 'U900', cpichPower: 440, maxTxPower: 430 });
  });

  it('maps GSM cells and their proxies to the same CGI', () => {
    const g = find(got.cells, (c) => c.name === 'LX0777_G900_1', 'G900');
    expect(g).toMatchObject({ tech: '2G', band: 'G900', channel: 45, bsic: 29, lac: 2070, cellId: 7001, plmns: ['268-01'] });
    expect(find(got.cells, (c) => c.name === 'LX0777_G1800_1', 'G1800').band).toBe('G1800');
    const ext = find(got.externalCells, (e) => e.kind === '2G', 'ext GSM');
    expect(ext).toMatchObject({ nodeName: 'RNC07', bsic: 29, channel: 45, band: 'G900', lac: 2070, cellId: 7001, plmn: '268-01' });
    expect(ext.globalId).toBe('268-01-2070-7001');
    expect(g.globalId).toBe(ext.globalId);
  });

  it('classifies relations by source cell and target class', () => {
    expect(got.relations.map((r) => [r.sourceCellDn.slice(r.sourceCellDn.lastIndexOf(',') + 1), r.kind])).toEqual([
      ['UtranCell=LX0777_U2100F1_1', 'UTRAN-UTRAN'],
      ['UtranCell=LX0777_U2100F1_1', 'UTRAN-GERAN'],
      ['GsmCell=LX0777_G900_1', 'GERAN-GERAN'],
    ]);
  });
});

describe('other inputs', () => {
  it('maps the bodastage sample', async () => {
    const { got, result } = await mapFile(bodastage('bulkcm.xml'));
    expect(got.sites).toEqual([{ id: '4698', name: 'Some Element Name', lat: null, lon: null }]);
    expect(got.nodes[0]).toMatchObject({ name: '4698', siteId: '4698', technology: '4G', type: 'SDR' });
    expect(got.cells.map((c) => [c.name, c.tac, c.cellId])).toEqual([['Q0001', 9, 1]]);
    expect(got.externalCells[0]).toMatchObject({
      kind: '3G',
      psc: 283,
      channel: 10738,
      band: 'U2100',
      lac: 17734,
      plmn: '214-01',
      ownerId: 134,
      cellId: 6551,
      globalId: '214-01-134-6551',
    });
    expect(result.records).toBe(8);
  });

  it('maps a cmedit export, resolving a frequency listed after its user', async () => {
    const { sink, got } = capture();
    const result = await mapNetwork(parseCmedit(stream(fixture('cmedit-export.txt'))), sink, { coords: 'microdegrees' });
    expect(result.counts.cells).toMatchObject({ '4G': 1, '3G': 1 });
    expect(got.sites.map((s) => [s.id, s.lat, s.lon])).toEqual([['LX0901', 38.75, -9.15]]);
    expect(find(got.cells, (c) => c.tech === '4G', 'lte')).toMatchObject({ pci: 132, plmns: ['268-01', '268-03'], ownerId: 901, globalId: '268-01-901-21' });
    expect(find(got.cells, (c) => c.tech === '3G', 'umts')).toMatchObject({ lac: 1010, siteId: 'LX0901', nodeName: 'RNC09', ownerId: null });
    expect(got.externalCells[0]).toMatchObject({ channel: 1850, band: 'L1800', pci: 137, globalId: '268-01-902-21' });
    expect(got.relations[0]).toMatchObject({ kind: 'LTE-LTE', createdBy: 'ANR', isRemoveAllowed: false });
  });

  it('finds attributes whatever their case, also those a second record of the MO brings after the first was read', async () => {
    const { sink, got } = capture();
    const records: MoRecord[] = [
      // Read once on arrival (its location), before its vendor record adds the rest in Ericsson's spelling.
      { dn: `${LRAN},MeContext=LX0123`, className: 'MeContext', id: 'LX0123', parentDn: LRAN, attributes: { latitude: '38700083', longitude: '-9223184' } },
      { dn: `${LRAN},MeContext=LX0123`, className: 'MeContext', id: 'LX0123', parentDn: LRAN, attributes: { NETYPE: 'RadioNode', USERLABEL: 'Alvalade' } },
      { dn: ME, className: 'ManagedElement', id: 'LX0123', parentDn: `${LRAN},MeContext=LX0123`, attributes: {} },
      { dn: ENB, className: 'ENodeBFunction', id: '1', parentDn: ME, attributes: { ENBID: '123', 'eNodeBPlmnId.MCC': '268', 'eNodeBPlmnId.mnc': '01' } },
      {
        dn: `${ENB},EUtranCellFDD=LX0123_L800_1`,
        className: 'EUtranCellFDD',
        id: 'LX0123_L800_1',
        parentDn: ENB,
        attributes: { EARFCNDL: '6300', CellId: '11' },
      },
    ];
    await mapNetwork(records, sink, { coords: 'microdegrees' });
    expect(got.nodes[0]).toMatchObject({ name: 'LX0123', type: 'RadioNode' });
    expect(got.sites[0]).toMatchObject({ id: 'LX0123', name: 'Alvalade' });
    expect(got.cells[0]).toMatchObject({ channel: 6300, cellId: 11, ownerId: 123, plmns: ['268-01'], globalId: '268-01-123-11' });
  });

  it('of several keys equal but for case, reads the last one, in records of the reader as in records built by hand', async () => {
    const cell = '<xn:VsDataContainer id="C1"><xn:attributes><xn:vsDataType>vsDataEUtranCellFDD</xn:vsDataType><es:vsDataEUtranCellFDD>';
    const xml =
      '<bulkCmConfigDataFile><configData><xn:MeContext id="LX0001"><xn:ManagedElement id="1"><xn:VsDataContainer id="1"><xn:attributes>' +
      '<xn:vsDataType>vsDataENodeBFunction</xn:vsDataType></xn:attributes>' +
      `${cell}<es:EARFCNDL>100</es:EARFCNDL><es:EarfcnDl>6300</es:EarfcnDl></es:vsDataEUtranCellFDD></xn:attributes></xn:VsDataContainer>` +
      `${cell.replace('C1', 'C2')}<es:EarfcnDl>6300</es:EarfcnDl><es:EARFCNDL>100</es:EARFCNDL></es:vsDataEUtranCellFDD></xn:attributes></xn:VsDataContainer>` +
      '</xn:VsDataContainer></xn:ManagedElement></xn:MeContext></configData></bulkCmConfigDataFile>';
    const fromXml = capture();
    await mapNetwork(parseBulkCm([xml]), fromXml.sink, { coords: 'microdegrees' });
    expect(fromXml.got.cells.map((c) => [c.name, c.channel])).toEqual([
      ['C1', 6300],
      ['C2', 100],
    ]);
    const byHand = capture();
    const me = 'MeContext=LX0002,ManagedElement=1';
    await mapNetwork(
      [
        { dn: 'MeContext=LX0002', className: 'MeContext', id: 'LX0002', parentDn: null, attributes: {} },
        { dn: me, className: 'ManagedElement', id: '1', parentDn: 'MeContext=LX0002', attributes: {} },
        { dn: `${me},ENodeBFunction=1`, className: 'ENodeBFunction', id: '1', parentDn: me, attributes: {} },
        {
          dn: `${me},ENodeBFunction=1,EUtranCellFDD=C3`,
          className: 'EUtranCellFDD',
          id: 'C3',
          parentDn: `${me},ENodeBFunction=1`,
          attributes: { EarfcnDL: '100', EARFCNdl: '6300' },
        },
      ],
      byHand.sink,
      { coords: 'microdegrees' },
    );
    expect(byHand.got.cells.map((c) => [c.name, c.channel])).toEqual([['C3', 6300]]);
  });

  it('lets the importer choose another site rule, and counts the names it does not match', async () => {
    const { sink, got } = capture();
    const result = await mapNetwork(parseBulkCm(stream(fixture('ericsson-radionode.xml'))), sink, {
      coords: 'microdegrees',
      siteRule: compileSiteRule('^LX0(?<site>1\\d+)'),
    });
    expect(got.sites.map((s) => s.id)).toEqual(['123', 'LX0456_L']);
    expect(result.unmatchedNames).toEqual({ count: 1, examples: ['LX0456_L'] });
  });

  it('applies the rule to the cell names of controllers too', async () => {
    const { sink, got } = capture();
    const result = await mapNetwork(parseCmedit(stream(fixture('type-prefixed-nodes.txt'))), sink, {
      coords: 'microdegrees',
      siteRule: compileSiteRule('^[A-Z0-9]+_(?<site>\\d+)_'),
    });
    expect(got.cells.filter((c) => c.tech === '3G').map((c) => c.siteId)).toEqual(['12345W1', '12346W1']);
    expect(result.unmatchedNames).toEqual({ count: 3, examples: ['MSRBS_V2_12345_SOMEWHERE_G', '12345W1', '12346W1'] });
  });
});

describe('node names of the form <type>_<site number>_<name>', () => {
  const sitesOf = (got: Captured) => got.sites.map((s) => [s.id, s.lat, s.lon]);
  const nodeSites = (got: Captured) => Object.fromEntries(got.nodes.map((n) => [n.name, n.siteId]));

  it('cmedit: each site number is its own site, with its own position; 2G/3G/4G/5G nodes of one site share it', async () => {
    const { sink, got } = capture();
    const result = await mapNetwork(parseCmedit(stream(fixture('type-prefixed-nodes.txt'))), sink, { coords: 'microdegrees' });
    expect(result.counts.sites).toBe(2);
    // 12345 is first seen on the 2G node without a position, then completed by the LTE node.
    expect(sitesOf(got)).toEqual([
      ['12345', null, null],
      ['12345', 38.71, -9.14],
      ['12346', 41.15, -8.61],
    ]);
    expect(nodeSites(got)).toEqual({
      MSRBS_V2_12345_SOMEWHERE_G: '12345',
      ERBS_12345_SOMEWHERE_K: '12345',
      ERBS_12346_ELSEWHERE_K: '12346',
      NR_12345_SOMEWHERE: '12345',
      RNC01: null,
      RBS_12345_SOMEWHERE_W: '12345',
      RBS_12346_ELSEWHERE_W: '12346',
    });
    expect(got.cells.map((c) => [c.name, c.tech, c.siteId])).toEqual([
      ['12345G1', '2G', '12345'],
      ['12345K1', '4G', '12345'],
      ['12346K1', '4G', '12346'],
      ['12345N1', '5G', '12345'],
      ['12345W1', '3G', '12345'],
      ['12346W1', '3G', '12346'],
    ]);
  });

  it('Bulk CM: the same', async () => {
    const { got, result } = await mapFile(fixture('type-prefixed-nodes.xml'));
    expect(result.counts.sites).toBe(2);
    expect(sitesOf(got)).toEqual([
      ['12345', 38.71, -9.14],
      ['12346', 41.15, -8.61],
    ]);
    expect(nodeSites(got)).toEqual({ ERBS_12345_SOMEWHERE_K: '12345', ERBS_12346_ELSEWHERE_K: '12346', RBS_12345_SOMEWHERE_W: '12345' });
  });
});

describe('bad input and settings', () => {
  it('rejects an unknown coordinate encoding before reading anything', async () => {
    let pulled = 0;
    const records = (async function* () {
      pulled++;
      yield* parseBulkCm(stream(fixture('ericsson-radionode.xml')));
    })();
    const { sink } = capture();
    await expect(mapNetwork(records, sink, { coords: 'wgs84' as CoordinateEncoding })).rejects.toBeInstanceOf(NetworkOptionError);
    expect(pulled).toBe(0);
  });

  it('says when the chosen encoding puts sites outside the globe', async () => {
    const err = await mapFile(fixture('ericsson-radionode.xml'), 'degrees').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(NetworkParseError);
    expect((err as NetworkParseError).line).toBe(26);
    expect((err as NetworkParseError).reason).toMatch(/ENodeBFunction=1: latitude 38710500 .* read as degrees — is the coordinate encoding right\?/);
  });

  it('rejects a non-numeric value where a number is mapped, with the MO line', async () => {
    const xml = `<bulkCmConfigDataFile><configData><xn:MeContext id="A1">
  <xn:ManagedElement id="1">
    <en:EUtranCellFDD id="C1"><en:attributes><en:earfcnDl>63OO</en:earfcnDl></en:attributes></en:EUtranCellFDD>
  </xn:ManagedElement></xn:MeContext></configData></bulkCmConfigDataFile>`;
    const { sink } = capture();
    const err = await mapNetwork(parseBulkCm([xml]), sink, { coords: 'degrees' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(NetworkParseError);
    expect((err as NetworkParseError).message).toBe('Line 3, column 5: EUtranCellFDD=C1: attribute earfcnDl = "63OO" is not an integer');
  });

  it('rejects the import of a truncated file even after some entities reached the sink', async () => {
    // What an importer does: stage inside a transaction, commit only when the whole file mapped.
    const staged: string[] = [];
    const committed: string[] = [];
    const sink: NetworkSink = {
      site: (s) => void staged.push(`site:${s.id}`),
      node: (n) => void staged.push(`node:${n.name}`),
      cell: (c) => void staged.push(`cell:${c.name}`),
      externalCell: (e) => void staged.push(`ext:${e.name}`),
      relation: (r) => void staged.push(`rel:${r.name}`),
    };
    const run = importNetworkDump(stream(fixture('truncated.xml')), sink, { coords: 'microdegrees' }).then(() => committed.push(...staged));
    await expect(run).rejects.toThrow(/unexpected end of file inside <xn:attributes>/);
    expect(staged).toEqual(['site:LX0001', 'node:LX0001']);
    expect(committed).toEqual([]);
  });
});
