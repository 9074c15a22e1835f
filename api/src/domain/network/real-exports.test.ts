import { readFileSync } from 'node:fs';
import { parseBulkCm } from './bulkcm';
import { parseCmedit } from './cmedit';
import { NetworkParseError } from './errors';
import { mapNetwork, type MapResult } from './mapper';
import { splitNci } from './nr';
import { type MoRecord } from './records';
import { iubNodeName } from './utran';
import { capture, type Captured, collect, find, fixture } from './__tests__/helpers';

/*
 * Issue 43, variants 6–9: the shapes of real OSS-RC / ENM exports the first fixtures did not have.
 * Each fixture is read as written (LF) and with CRLF line ends, in odd-sized chunks.
 */

const EOLS = [
  ['LF', (text: string) => text],
  ['CRLF', (text: string) => text.replace(/\r?\n/g, '\r\n')],
] as const;

function chunks(text: string, size = 61): Buffer[] {
  const bytes = Buffer.from(text, 'utf8');
  const out: Buffer[] = [];
  for (let i = 0; i < bytes.length; i += size) out.push(bytes.subarray(i, i + size));
  return out;
}

function read(name: string, eol: (text: string) => string): Buffer[] {
  return chunks(eol(readFileSync(fixture(name), 'utf8')));
}

async function mapBulkCm(input: Iterable<Buffer | string>): Promise<{ got: Captured; result: MapResult }> {
  const { sink, got } = capture();
  const result = await mapNetwork(parseBulkCm(input), sink, { coords: 'microdegrees' });
  return { got, result };
}

async function mapCmedit(input: Iterable<Buffer | string>): Promise<{ got: Captured; result: MapResult }> {
  const { sink, got } = capture();
  const result = await mapNetwork(parseCmedit(input), sink, { coords: 'microdegrees' });
  return { got, result };
}

const RNC = 'SubNetwork=ONRM_ROOT_MO_R,SubNetwork=RNC01,MeContext=RNC01,ManagedElement=1,RncFunction=1';

describe.each(EOLS)('OSS-RC UTRAN export (%s)', (_eol, eol) => {
  let recs: MoRecord[];
  let got: Captured;
  let result: MapResult;
  beforeAll(async () => {
    recs = await collect(parseBulkCm(read('oss-rc-utran.xml', eol)));
    ({ got, result } = await mapBulkCm(read('oss-rc-utran.xml', eol)));
  });

  it('variant 6: a vendor container whose id is not its parent relation’s is that relation’s data, not a child MO', () => {
    const relation = `${RNC},UtranCell=CC1405A,UtranRelation=CC1405B`;
    expect(recs.filter((r) => r.dn.startsWith(`${relation},`))).toEqual([]);
    const own = recs.filter((r) => r.dn === relation);
    expect(own).toHaveLength(1);
    expect(own[0]).toMatchObject({ className: 'UtranRelation', id: 'CC1405B' });
    expect(own[0]?.attributes).toMatchObject({ adjacentCell: `${RNC},UtranCell=CC1405B`, qOffset1sn: '7', selectionPriority: '1' });
    expect(recs.filter((r) => r.className === 'UtranRelation').map((r) => r.dn)).toEqual([relation, `${RNC},UtranCell=CC1405B,UtranRelation=CC1405A`]);
  });

  it('variant 6: the import has one relation per UtranRelation, none phantom', () => {
    expect(result.counts.relations['UTRAN-UTRAN']).toBe(2);
    expect(got.relations.map((r) => [r.name, r.sourceCellDn, r.targetRef])).toEqual([
      ['CC1405B', `${RNC},UtranCell=CC1405A`, `${RNC},UtranCell=CC1405B`],
      ['CC1405A', `${RNC},UtranCell=CC1405B`, `${RNC},UtranCell=CC1405A`],
    ]);
  });

  it('keeps a differently named child container (an IubLink under RncFunction) a child MO', () => {
    expect(recs.find((r) => r.dn === `${RNC},IubLink=Iub_41428KAINARFARM`)).toMatchObject({ className: 'IubLink', attributes: { rbsId: '1405' } });
  });

  it("variant 7: RNC cells named without their site land on their NodeB's site, from iubLinkRef", () => {
    expect(got.cells.map((c) => [c.name, c.nodeName, c.siteId])).toEqual([
      ['CC1405A', 'RNC01', '41428'],
      ['CC1405B', 'RNC01', '41428'],
      ['KS01', 'RNC01', 'KFAR_SABA'],
      // No Iub link named: the cell's own name, as before.
      ['LX0950_U2100F1_1', 'RNC01', 'LX0950'],
    ]);
    expect(got.nodes.map((n) => [n.name, n.siteId, n.technology, n.type])).toEqual([
      ['RNC01', null, '3G', 'RNC'],
      ['RBS_41428_KAINARFARM', '41428', '3G', 'RBS'],
    ]);
    // No site named after a cell.
    expect(got.sites.map((s) => s.id).sort()).toEqual(['41428', 'KFAR_SABA', 'LX0950']);
    expect(result.counts.sites).toBe(3);
  });
});

describe('iubNodeName', () => {
  it.each([
    ['SubNetwork=A,MeContext=RNC01,ManagedElement=1,RncFunction=1,IubLink=Iub_41428KAINARFARM', '41428KAINARFARM'],
    ['ManagedElement=1,RncFunction=1,IubLink=Iub-LX0777', 'LX0777'],
    ['ManagedElement=1,RncFunction=1,IubLink=IUB41428', '41428'],
    ['ManagedElement=1,RncFunction=1,IubLink=Iub_KFAR_SABA', 'KFAR_SABA'],
    ['ManagedElement=1,RncFunction=1,IubLink=41428', '41428'],
    // Not a link, or a link without a name once the prefix is gone.
    ['ManagedElement=1,RncFunction=1,IurLink=Iub_41428', null],
    ['ManagedElement=1,RncFunction=1,IubLink=Iub_', null],
    ['not a DN', null],
  ])('%s → %s', (ref, name) => {
    expect(iubNodeName(ref)).toBe(name);
  });

  it('reads iubLinkRef from an ENM cmedit export of UtranCells alike', async () => {
    const text = [
      'FDN : SubNetwork=RNC01,MeContext=RNC01,ManagedElement=1,RncFunction=1,UtranCell=CC1405A',
      'iubLinkRef : SubNetwork=RNC01,MeContext=RNC01,ManagedElement=1,RncFunction=1,IubLink=Iub_41428KAINARFARM',
      '',
      'FDN : SubNetwork=RNC01,MeContext=RNC01,ManagedElement=1,RncFunction=1,UtranCell=KS01',
      'iubLinkRef : SubNetwork=RNC01,MeContext=RNC01,ManagedElement=1,RncFunction=1,IubLink=Iub_KFAR_SABA',
      '',
      'FDN : SubNetwork=RNC01,MeContext=RNC01,ManagedElement=1,RncFunction=1,UtranCell=LX0950_U2100F1_1',
      'iubLinkRef : null',
      '',
      '3 instance(s)',
      '',
    ].join('\r\n');
    const { got } = await mapCmedit(chunks(text, 17));
    expect(got.cells.map((c) => [c.name, c.siteId])).toEqual([
      ['CC1405A', '41428'],
      ['KS01', 'KFAR_SABA'],
      ['LX0950_U2100F1_1', 'LX0950'],
    ]);
  });

  it('a cell whose iubLinkRef is not a DN is refused with its line', async () => {
    const xml = `<bulkCmConfigDataFile><configData><xn:MeContext id="RNC01"><xn:ManagedElement id="1"><un:RncFunction id="1">
<un:UtranCell id="CC1"><un:attributes><un:iubLinkRef>Iub_41428</un:iubLinkRef></un:attributes></un:UtranCell>
</un:RncFunction></xn:ManagedElement></xn:MeContext></configData></bulkCmConfigDataFile>`;
    const err = await mapBulkCm([xml]).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(NetworkParseError);
    expect((err as Error).message).toBe('Line 2, column 1: UtranCell=CC1: attribute iubLinkRef = "Iub_41428" is not a DN');
  });
});

describe('splitNci', () => {
  const at = { className: 'NRCellDU', id: 'X', line: 7, column: 3 };

  it('splits the 36-bit NCI by gNBIdLength', () => {
    expect(splitNci(42792 * 2 ** 14 + 1, 22, at)).toEqual({ gnbId: 42792, cellLocalId: 1 });
    expect(splitNci(43750 * 2 ** 12 + 3, 24, at)).toEqual({ gnbId: 43750, cellLocalId: 3 });
    expect(splitNci(2 ** 36 - 1, 32, at)).toEqual({ gnbId: 2 ** 32 - 1, cellLocalId: 15 });
    expect(splitNci(0, 22, at)).toEqual({ gnbId: 0, cellLocalId: 0 });
  });

  it.each([
    [2 ** 36, 22, 'Line 7, column 3: NRCellDU=X: nCI = 68719476736 is not a 36-bit NR cell identity'],
    [-1, 22, 'Line 7, column 3: NRCellDU=X: nCI = -1 is not a 36-bit NR cell identity'],
    [5, 21, 'Line 7, column 3: NRCellDU=X: gNBIdLength = 21 is outside 22..32'],
    [5, 33, 'Line 7, column 3: NRCellDU=X: gNBIdLength = 33 is outside 22..32'],
  ])('refuses nCI %d with gNBIdLength %d', (nci, length, message) => {
    expect(() => splitNci(nci, length, at)).toThrow(message);
  });
});

describe.each(EOLS)('ENM cmedit export of NR cells and child MOs only (%s)', (_eol, eol) => {
  let got: Captured;
  beforeAll(async () => {
    ({ got } = await mapCmedit(read('cmedit-nr-children.txt', eol)));
  });

  it('variant 8: NR cells keep rachRootSequence; nCI with the default gNBIdLength 22 gives the gNB id and NCGI', () => {
    expect(find(got.cells, (c) => c.name === '41428_N78_1', 'N78_1')).toMatchObject({
      tech: '5G',
      rachRootSequence: 418,
      pci: 302,
      cellId: 1,
      ownerId: 42792,
      plmns: ['425-01'],
      globalId: '425-01-42792-1',
    });
    // No cellLocalId: that too comes from the nCI.
    expect(find(got.cells, (c) => c.name === '41428_N78_2', 'N78_2')).toMatchObject({
      rachRootSequence: 428,
      cellId: 2,
      ownerId: 42792,
      globalId: '425-01-42792-2',
    });
  });

  it("variant 8: a function's own gNBIdLength splits its cells' nCI", () => {
    expect(find(got.cells, (c) => c.name === '41500_N78_1', 'HAIFA')).toMatchObject({ cellId: 3, ownerId: 43750, globalId: '425-01-43750-3' });
  });

  it('variant 9: the technology of nodes listed only by child MOs comes from the function RDNs of their DNs', () => {
    expect(got.nodes.map((n) => [n.name, n.siteId, n.technology, n.type])).toEqual([
      ['NR_41428_KAINARFARM', '41428', '5G', 'RadioNode'],
      ['NR_41500_HAIFA', '41500', '5G', 'RadioNode'],
      ['KFAR_SABA', 'KFAR_SABA', '5G', 'RadioNode'],
      ['BTS_tel_aviv', 'tel_aviv', '2G', 'BTS'],
      ['RAMAT_GAN_G', 'RAMAT_GAN', '2G', null],
      ['ERBS_41600_HOLON', '41600', '4G', 'ERBS'],
      ['RBS_41700_BAT_YAM', '41700', '3G', 'RBS'],
      ['MIXED_41800', '41800', 'multi', 'RadioNode'],
    ]);
    expect(got.cells.map((c) => c.name)).toEqual(['41428_N78_1', '41428_N78_2', '41500_N78_1']);
  });
});

describe.each(EOLS)('ENM Bulk CM export of gNodeBs (%s)', (_eol, eol) => {
  let got: Captured;
  beforeAll(async () => {
    ({ got } = await mapBulkCm(read('ericsson-nr-nci.xml', eol)));
  });

  it('variant 8: the same identity from nCI, by the default or the stated gNBIdLength', () => {
    expect(got.cells.map((c) => [c.name, c.rachRootSequence, c.ownerId, c.cellId, c.globalId])).toEqual([
      ['41428_N78_1', 418, 42792, 1, '425-01-42792-1'],
      ['41500_N78_1', 0, 43750, 3, '425-01-43750-3'],
    ]);
  });

  it('variant 9: a node whose export holds only NRSectorCarriers is a 5G node', () => {
    expect(got.nodes.map((n) => [n.name, n.siteId, n.technology, n.type])).toEqual([
      ['GNB_41428_KAINARFARM', '41428', '5G', 'RadioNode'],
      ['GNB_41500_HAIFA', '41500', '5G', 'RadioNode'],
      ['KFAR_SABA', 'KFAR_SABA', '5G', 'RadioNode'],
    ]);
  });
});

describe('NR identity: bad values', () => {
  const export_ = (nci: string, length: string | null): string =>
    [
      ...(length === null ? [] : ['FDN : MeContext=GNB_1,ManagedElement=1,GNBDUFunction=1', `gNBIdLength : ${length}`, '']),
      'FDN : MeContext=GNB_1,ManagedElement=1,GNBDUFunction=1,NRCellDU=C1',
      `nCI : ${nci}`,
      '',
    ].join('\n');

  it.each([
    ['68719476736', null, /Line 1, column 1: NRCellDU=C1: nCI = 68719476736 is not a 36-bit NR cell identity/],
    ['12x', null, /NRCellDU=C1: attribute nCI = "12x" is not an integer/],
    ['5', '40', /Line 1, column 1: GNBDUFunction=1: gNBIdLength = 40 is outside 22..32/],
    ['5', 'long', /GNBDUFunction=1: attribute gNBIdLength = "long" is not an integer/],
  ])('nCI %s, gNBIdLength %s', async (nci, length, message) => {
    await expect(mapCmedit([export_(nci, length)])).rejects.toThrow(message);
  });

  it('a gNBId in the export wins over the one in nCI', async () => {
    const text =
      'FDN : MeContext=GNB_1,ManagedElement=1,GNBDUFunction=1\ngNBId : 7\n\nFDN : MeContext=GNB_1,ManagedElement=1,GNBDUFunction=1,NRCellDU=C1\ncellLocalId : 9\nnCI : 16384\n';
    const { got } = await mapCmedit([text]);
    expect(got.cells[0]).toMatchObject({ ownerId: 7, cellId: 9 });
  });
});
