import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parseBulkCm } from './bulkcm';
import { NetworkParseError } from './errors';
import { type MoRecord } from './records';
import { bodastage, byDn, collect, fixture, stream } from './__tests__/helpers';

const BODA_ROOT = 'SubNetwork=BS_NRM_ROOT,SubNetwork=101,MeContext=4698,ManagedElement=4698';
const ME = 'SubNetwork=ONRM_ROOT_MO,SubNetwork=LRAN,MeContext=LX0123,ManagedElement=LX0123';

async function parseFile(file: string, highWaterMark?: number): Promise<MoRecord[]> {
  return collect(parseBulkCm(stream(file, highWaterMark)));
}

async function parseError(input: Iterable<string | Uint8Array> | AsyncIterable<string | Uint8Array>): Promise<NetworkParseError> {
  try {
    await collect(parseBulkCm(input));
  } catch (e) {
    if (e instanceof NetworkParseError) return e;
    throw e;
  }
  throw new Error('expected a NetworkParseError');
}

describe('bodastage samples', () => {
  it('are kept in the repository (api/test/fixtures/bodastage)', () => {
    expect(existsSync(path.resolve(__dirname, '../../../test/fixtures/bodastage/bulkcm.xml'))).toBe(true);
  });

  it('bulkcm.xml: nested SubNetworks, meContext, vsDataContainers and a merged vendor extension', async () => {
    const recs = await parseFile(bodastage('bulkcm.xml'));
    expect(recs.map((r) => r.dn)).toEqual([
      'SubNetwork=BS_NRM_ROOT',
      'SubNetwork=BS_NRM_ROOT,SubNetwork=101',
      'SubNetwork=BS_NRM_ROOT,SubNetwork=101,MeContext=4698',
      BODA_ROOT,
      `${BODA_ROOT},EUtranFreqRelation=wwww`,
      `${BODA_ROOT},EutranFreqRelation=zzzz`,
      `${BODA_ROOT},EUtranCellFDD=Q0001`,
      `${BODA_ROOT},ExternalUtranCell=xxxxxx`,
    ]);
    const sub = byDn(recs, 'SubNetwork=BS_NRM_ROOT,SubNetwork=101');
    expect(sub.attributes).toEqual({ setOfMcc: '999', userLabel: 'usrLabel', userDefinedNetworkType: '', dnPrefix: 'www.bodastage.com' });
    expect(sub.parentDn).toBe('SubNetwork=BS_NRM_ROOT');

    const me = byDn(recs, BODA_ROOT);
    expect(me.className).toBe('ManagedElement');
    expect(me.attributes['managedElementType']).toBe('SDR');
    expect(me.attributes['locationName']).toBe('');

    const cell = byDn(recs, `${BODA_ROOT},EUtranCellFDD=Q0001`);
    expect(cell).toMatchObject({ className: 'EUtranCellFDD', id: 'Q0001', parentDn: BODA_ROOT, vendor: true });
    expect(cell.attributes).toEqual({
      userLabel: 'Q0001',
      cellId: '0001',
      tac: '9',
      userId: '',
      'pciConflictCell.enbId': ['12345', '12345'],
      'pciConflictCell.cellId': ['9', '8'],
      'pciConflictCell.mcc': ['0', '1'],
      'pciConflictCell.mnc': ['00', '01'],
    });

    // The vsDataExternalUtranCell container has the same class and id: it extends the standard MO.
    const ext = byDn(recs, `${BODA_ROOT},ExternalUtranCell=xxxxxx`);
    expect(ext.vendor).toBeUndefined();
    expect(ext.attributes).toMatchObject({
      lac: '17734',
      primaryScramblingCode: '283',
      uarfcnDl: '10738',
      rncId: '134',
      cId: '6551',
      mncLength: '2',
      'cellCapability.hsdschSupport': '0',
      'cellCapability.qam64MimoSupport': '0',
      hsAqmCongCtrlSpiSupport: ['1', '2', '3', '4', '7'],
      parentSystem: 'SubNetwork=ONRM_RootMo_R,vsDataExternalUtranPlmn=yyyyy',
    });
    expect(ext.line).toBe(74);
  });

  it('bulkcm2.xml: two cells under one ManagedElement', async () => {
    const recs = await parseFile(bodastage('bulkcm2.xml'));
    const cells = recs.filter((r) => r.className === 'EUtranCellFDD');
    expect(cells.map((c) => [c.dn, c.attributes['cellId']])).toEqual([
      [`${BODA_ROOT},EUtranCellFDD=Q0001`, '1001'],
      [`${BODA_ROOT},EUtranCellFDD=Q0002`, '1002'],
    ]);
    expect(cells[1]?.attributes['pciConflictCell.cellId']).toEqual(['2001', '8001']);
  });

  it('bulkcm_parent_child_same_name.xml: a struct field named like its struct stays distinct', async () => {
    const recs = await parseFile(bodastage('bulkcm_parent_child_same_name.xml'));
    const mo = byDn(recs, `${BODA_ROOT},SomeMO=Q0001`);
    expect(mo.attributes).toEqual({
      'SomeAttr.SomeAttrChild1': 'Val1',
      'SomeAttr.SomeAttr': 'SomeAttrChildVal',
      'SomeAttr.SomeAttr2': 'SomeAttrChildVal2',
      'AnotherAttr.AnotherChild1': '1234',
      'AnotherAttr.AnotherAttr': '777',
    });
  });

  it('gives the same records whatever the chunking (1 byte, odd sizes, one string)', async () => {
    const file = bodastage('bulkcm.xml');
    const whole = await parseFile(file, 1 << 20);
    const bytes = readFileSync(file);
    const oneByte = await collect(
      parseBulkCm(
        (function* () {
          for (let i = 0; i < bytes.length; i++) yield bytes.subarray(i, i + 1);
        })(),
      ),
    );
    expect(oneByte).toEqual(whole);
    expect(await parseFile(file, 13)).toEqual(whole);
    expect(await collect(parseBulkCm([bytes.toString('utf8')]))).toEqual(whole);
  });
});

describe('Ericsson-style file', () => {
  let recs: MoRecord[];
  beforeAll(async () => {
    recs = await parseFile(fixture('ericsson-radionode.xml'));
  });

  it('merges the vsDataMeContext container into its MeContext', () => {
    const mc = byDn(recs, 'SubNetwork=ONRM_ROOT_MO,SubNetwork=LRAN,MeContext=LX0123');
    expect(mc.attributes).toEqual({ neType: 'RadioNode', ipAddress: '10.20.1.23' });
    expect(recs.filter((r) => r.dn === mc.dn)).toHaveLength(1);
  });

  it('turns nested VsDataContainers into child MOs named by vsDataType', () => {
    const dn = `${ME},ENodeBFunction=1,EUtranCellFDD=LX0123_L800_1,EUtranFreqRelation=6300,EUtranCellRelation=26801-456-11`;
    const rel = byDn(recs, dn);
    expect(rel).toMatchObject({
      className: 'EUtranCellRelation',
      id: '26801-456-11',
      parentDn: `${ME},ENodeBFunction=1,EUtranCellFDD=LX0123_L800_1,EUtranFreqRelation=6300`,
      vendor: true,
    });
    expect(rel.attributes['createdBy']).toBe('anr');
    expect(byDn(recs, `${ME},ENodeBFunction=1,EUtranCellFDD=LX0123_L800_1`).attributes['activePlmnList.mnc']).toEqual(['1', '3']);
    expect(byDn(recs, `${ME},GNBCUCPFunction=1,NRCellCU=LX0123_N78_1`).attributes['plmnInfoList.plmnId.mnc']).toEqual(['01', '03']);
  });

  it('emits every parent before its children', () => {
    const seen = new Set<string>();
    for (const r of recs) {
      if (r.parentDn !== null) expect(seen.has(r.parentDn)).toBe(true);
      seen.add(r.dn);
    }
    expect(recs.length).toBeGreaterThan(30);
  });

  it('normalises the lower-case meContext spelling', () => {
    const mc = byDn(recs, 'SubNetwork=ONRM_ROOT_MO,SubNetwork=LRAN,MeContext=LX0456_L');
    expect(mc.className).toBe('MeContext');
    const cell = byDn(recs, 'SubNetwork=ONRM_ROOT_MO,SubNetwork=LRAN,MeContext=LX0456_L,ManagedElement=1,ENodeBFunction=1,EUtranCellFDD=LX0456_L1800_1');
    expect([cell.line, cell.column]).toEqual([340, 15]);
  });
});

describe('3GPP standard elements with vendor extensions', () => {
  it('emits a late vendor extension as a second record for the same DN', async () => {
    const recs = await parseFile(fixture('standard-3gpp-coords.xml'));
    const dn = 'SubNetwork=PT,MeContext=RNC07,ManagedElement=1,RncFunction=1,UtranCell=LX0777_U2100F1_1';
    const both = recs.filter((r) => r.dn === dn);
    expect(both).toHaveLength(2);
    expect(both[0]?.attributes['uarfcnDl']).toBe('10612');
    expect(both[0]?.vendor).toBeUndefined();
    expect(both[1]).toMatchObject({ className: 'UtranCell', vendor: true, attributes: { azimuth: '10' } });
    // The RncFunction extension arrived before any child, so it was merged, not repeated.
    const rnc = recs.filter((r) => r.className === 'RncFunction');
    expect(rnc).toHaveLength(1);
    expect(rnc[0]?.attributes).toEqual({ mcc: '268', mnc: '1', rncId: '107', mncLength: '2' });
  });

  it('decodes an ISO-8859-1 file as declared', async () => {
    const recs = await parseFile(fixture('latin1.xml'), 7);
    expect(byDn(recs, 'MeContext=LX0321,ManagedElement=LX0321').attributes['userLabel']).toBe('Alcântara Doca');
  });

  it('reads UTF-16 files with a byte-order mark', async () => {
    const text = '<?xml version="1.0" encoding="UTF-16"?>\n<bulkCmConfigDataFile><configData><xn:MeContext id="Évora1"/></configData></bulkCmConfigDataFile>';
    const le = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);
    const recs = await collect(parseBulkCm([le.subarray(0, 5), le.subarray(5)]));
    expect(recs.map((r) => r.dn)).toEqual(['MeContext=Évora1']);
  });
});

describe('malformed input', () => {
  it('reports a mismatched close tag with its position', async () => {
    const err = await parseError(stream(fixture('bad-xml.xml')));
    expect(err.line).toBe(7);
    expect(err.message).toMatch(/^Line 7, column \d+: malformed XML: unexpected close tag \(expected <\/xn:ManagedElement>\)/);
  });

  it('reports a truncated file with the element it stopped in', async () => {
    const err = await parseError(stream(fixture('truncated.xml')));
    expect(err.line).toBe(15);
    expect(err.reason).toBe('unexpected end of file inside <xn:attributes>');
    expect(err.message).toMatch(/^Line 15, column \d+: unexpected end of file inside <xn:attributes>$/);
  });

  it('rejects another root element', async () => {
    const err = await parseError(stream(fixture('wrong-root.xml')));
    expect([err.line, err.column]).toEqual([2, 1]);
    expect(err.reason).toMatch(/root element is <measCollecFile>.*<bulkCmConfigDataFile>/);
  });

  it('rejects an encoding it cannot decode, pointing at the declaration', async () => {
    const err = await parseError(stream(fixture('unknown-encoding.xml')));
    expect([err.line, err.column]).toEqual([1, 31]);
    expect(err.reason).toMatch(/unsupported encoding "EBCDIC-CP-US"/);
    // The same check applies when the caller hands over text instead of bytes.
    const again = await parseError([readFileSync(fixture('unknown-encoding.xml'), 'latin1')]);
    expect(again.reason).toBe(err.reason);
  });

  it('rejects bytes that are not valid in the declared encoding', async () => {
    const bytes = Buffer.concat([
      Buffer.from('<?xml version="1.0" encoding="UTF-8"?>\n<bulkCmConfigDataFile><configData>\n<xn:MeContext id="A'),
      Buffer.from([0xe3]), // Latin-1 'ã' in a file that says UTF-8
      Buffer.from('"/></configData></bulkCmConfigDataFile>'),
    ]);
    const err = await parseError([bytes]);
    expect(err.reason).toMatch(/invalid UTF-8 byte sequence/);
  });

  it('rejects a UTF-16 declaration in an 8-bit file', async () => {
    const err = await parseError([Buffer.from('<?xml version="1.0" encoding="UTF-16"?><bulkCmConfigDataFile/>')]);
    expect(err.reason).toMatch(/says encoding="utf-16" but the file is not UTF-16/);
  });

  it('rejects an empty file, text after the root, MOs without id and untyped containers', async () => {
    expect((await parseError([])).reason).toMatch(/empty/);
    expect((await parseError(['<bulkCmConfigDataFile/>junk'])).reason).toMatch(/text data outside of root node/);
    const noId = await parseError(['<bulkCmConfigDataFile><configData>\n  <xn:SubNetwork>\n</xn:SubNetwork></configData></bulkCmConfigDataFile>']);
    expect([noId.line, noId.column, noId.reason]).toEqual([2, 3, '<xn:SubNetwork> has no id attribute; every managed object needs one']);
    const untyped = await parseError([
      '<bulkCmConfigDataFile><configData><xn:MeContext id="A"><xn:VsDataContainer id="1"><xn:attributes/></xn:VsDataContainer></xn:MeContext></configData></bulkCmConfigDataFile>',
    ]);
    expect(untyped.reason).toMatch(/has no vsDataType/);
  });

  it('stops at the error: records after it are never produced', async () => {
    const seen: string[] = [];
    await expect(
      (async () => {
        for await (const r of parseBulkCm(stream(fixture('bad-xml.xml')))) seen.push(r.dn);
      })(),
    ).rejects.toBeInstanceOf(NetworkParseError);
    expect(seen).not.toContain('SubNetwork=LRAN,MeContext=LX0001,ManagedElement=LX0001');
  });
});

describe('the DN path handed to the mapper', () => {
  it("gives each record its DN's components, each shared with the records below it and carrying the DN up to itself", async () => {
    const recs = await parseFile(fixture('ericsson-radionode.xml'));
    const byDnMap = new Map(recs.map((r) => [r.dn, r]));
    for (const r of recs) {
      const steps = r.path ?? [];
      expect(steps.map((s) => `${s.className}=${s.id}`).join(',')).toBe(r.dn);
      expect(steps.map((s) => s.dn)).toEqual(
        steps.map((_, i) =>
          steps
            .slice(0, i + 1)
            .map((s) => `${s.className}=${s.id}`)
            .join(','),
        ),
      );
      expect(steps[steps.length - 1]).toMatchObject({ className: r.className, id: r.id });
      // The parent's record holds the very step objects of this record's prefix.
      if (r.parentDn !== null) expect(byDnMap.get(r.parentDn)?.path?.every((s, i) => s === steps[i])).toBe(true);
    }
  });

  it('gives no path below a component a split of the DN would not read back (a comma in the id)', async () => {
    const recs = await collect(
      parseBulkCm([
        '<bulkCmConfigDataFile><configData><xn:MeContext id="A"><xn:ManagedElement id="1,x"><xn:ENodeBFunction id="1"/></xn:ManagedElement></xn:MeContext></configData></bulkCmConfigDataFile>',
      ]),
    );
    expect(recs.map((r) => [r.dn, r.path?.length ?? null])).toEqual([
      ['MeContext=A', 1],
      ['MeContext=A,ManagedElement=1,x', null],
      ['MeContext=A,ManagedElement=1,x,ENodeBFunction=1', null],
    ]);
  });
});
