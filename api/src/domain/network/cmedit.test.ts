import { readFileSync } from 'node:fs';
import { parseCmedit } from './cmedit';
import { parseNetworkDump } from './dump';
import { NetworkParseError } from './errors';
import { type MoRecord } from './records';
import { bodastage, byDn, collect, fixture, stream } from './__tests__/helpers';

const ENB = 'SubNetwork=ONRM_ROOT_MO,SubNetwork=LRAN,MeContext=LX0901,ManagedElement=LX0901,ENodeBFunction=1';

async function rejection(text: string | Array<string | Uint8Array>): Promise<NetworkParseError> {
  try {
    await collect(parseCmedit(typeof text === 'string' ? [text] : text));
  } catch (e) {
    if (e instanceof NetworkParseError) return e;
    throw e;
  }
  throw new Error('expected a NetworkParseError');
}

describe('cmedit export', () => {
  let recs: MoRecord[];
  beforeAll(async () => {
    recs = await collect(parseCmedit(stream(fixture('cmedit-export.txt'), 61)));
  });

  it('reads one record per FDN with class, id and parent from the FDN', () => {
    expect(recs).toHaveLength(7);
    const cell = byDn(recs, `${ENB},EUtranCellFDD=LX0901_L1800_1`);
    expect(cell).toMatchObject({ className: 'EUtranCellFDD', id: 'LX0901_L1800_1', parentDn: ENB, line: 21 });
    expect(cell.attributes['earfcndl']).toBe('1850');
    expect(cell.attributes['userLabel']).toBe('');
  });

  it('parses lists of scalars into arrays, DN lists included, and flattens structs', () => {
    const cell = byDn(recs, `${ENB},EUtranCellFDD=LX0901_L1800_1`);
    expect(cell.attributes['activePlmnList.mcc']).toEqual(['268', '268']);
    expect(cell.attributes['activePlmnList.mnc']).toEqual(['1', '3']);
    expect(cell.attributes['reservedBy']).toEqual([`${ENB},SectorCarrier=1`, `${ENB},SectorCarrier=2`]);
    expect(cell.attributes['qciTableRef']).toBe(`${ENB},QciTable=default`);
    expect(cell.attributes['acBarringForMoData.acBarringFactor']).toBe('95');
    expect(cell.attributes['acBarringForMoData.acBarringForSpecialAC']).toEqual(['false', 'false', 'false', 'false', 'false']);
    expect(cell.attributes['ulChannelBandwidth']).toEqual(['15000']);
    expect(cell.attributes['hoOptAdjThresholdAbs']).toEqual([]);
    expect(byDn(recs, ENB).attributes).toEqual({
      eNBId: '901',
      'eNodeBPlmnId.mcc': '268',
      'eNodeBPlmnId.mnc': '1',
      'eNodeBPlmnId.mncLength': '2',
      latitude: '38750000',
      longitude: '-9150000',
    });
  });

  it('accepts CRLF line endings, no trailer, and lines split across chunks', async () => {
    const text = 'FDN : MeContext=A,ManagedElement=1\r\nuserLabel : x : y\r\n\r\nFDN : MeContext=B\r\nlist : [1,2,3]\r\n';
    const chunks = text.match(/.{1,5}/gs) as string[];
    const got = await collect(parseCmedit(chunks));
    expect(got.map((r) => [r.dn, r.attributes])).toEqual([
      ['MeContext=A,ManagedElement=1', { userLabel: 'x : y' }],
      ['MeContext=B', { list: ['1', '2', '3'] }],
    ]);
  });

  it('is recognised by the format sniffer, as XML is', async () => {
    const fromCmedit = await collect(parseNetworkDump(stream(fixture('cmedit-export.txt'))));
    expect(fromCmedit).toEqual(recs);
    const fromXml = await collect(parseNetworkDump(stream(bodastage('bulkcm2.xml'))));
    expect(fromXml.map((r) => r.className)).toContain('EUtranCellFDD');
    // Blank leading chunks are read ahead and replayed, not lost.
    const fromArray = await collect(parseNetworkDump(['\n\n', '  ', 'FDN : MeContext=A\nx : 1\n']));
    expect(fromArray.map((r) => [r.dn, r.attributes])).toEqual([['MeContext=A', { x: '1' }]]);
    const fromBytes = await collect(parseNetworkDump([Buffer.from('\r\n'), Buffer.from('FDN : MeContext=B\n')]));
    expect(fromBytes.map((r) => r.dn)).toEqual(['MeContext=B']);
    await expect(collect(parseNetworkDump(['  \n', '<measCollecFile/>']))).rejects.toThrow(/root element is <measCollecFile>/);
  });
});

describe('malformed cmedit', () => {
  it('rejects attributes before any FDN', async () => {
    const err = await rejection(readFileSync(fixture('cmedit-no-fdn.txt'), 'utf8'));
    expect([err.line, err.column]).toEqual([1, 1]);
    expect(err.message).toBe('Line 1, column 1: expected "FDN : <distinguished name>" to start a record, found "earfcndl : 6300"');
  });

  it('rejects a trailer that does not match the records (truncated export)', async () => {
    const err = await rejection(readFileSync(fixture('cmedit-trailer-mismatch.txt'), 'utf8'));
    expect(err.line).toBe(7);
    expect(err.reason).toMatch(/announces 3 instance\(s\) but the export holds 2 record\(s\)/);
  });

  it('rejects ENM errors, broken lists, bad FDNs, junk lines and text after the trailer', async () => {
    expect((await rejection('FDN : MeContext=A\nError 1003 : command failed\n')).line).toBe(2);
    const list = await rejection('FDN : MeContext=A\nx : [1, {a=2}\n');
    expect([list.line, list.reason]).toEqual([2, 'unterminated list in x']);
    expect((await rejection('FDN : MeContext=A\nx : [{a=1]}]\n')).reason).toMatch(/unbalanced/);
    expect((await rejection('FDN : MeContext\n')).reason).toMatch(/malformed FDN/);
    expect((await rejection('FDN : MeContext=A\nthis is not an attribute\n')).line).toBe(2);
    expect((await rejection('FDN : MeContext=A\n\n1 instance(s)\nFDN : MeContext=B\n')).line).toBe(4);
    expect((await rejection('')).reason).toMatch(/empty/);
  });

  it('rejects bytes that are not UTF-8', async () => {
    const err = await rejection([Buffer.from('FDN : MeContext=A\nuserLabel : Alc\xe2ntara\n', 'latin1')]);
    expect(err.reason).toMatch(/invalid UTF-8/);
  });
});
