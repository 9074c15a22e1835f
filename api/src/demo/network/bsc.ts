import { type NetworkCounts, type RelationKind } from '../../domain/network/model';
import { bcc, bcch, bscName, gsmCi, gsmLac, gsmName, ncc, ROOT_DN, SALT, SECTORS } from './identities';
import { type DemoSite, type GsmBand } from './model';
import { relationAttrs, relationFields, type XmlOut } from './xml';
import { rngFor } from '../random';

/** One BSC of the GRAN subnetwork: its GeranCells and GeranCellRelations. */

export async function writeBsc(
  w: XmlOut,
  k: number,
  sites: DemoSite[],
  near: DemoSite[][],
  seed: number,
  counts: NetworkCounts,
  rel: (k: RelationKind, n?: number) => void,
): Promise<void> {
  const name = bscName(k);
  const cellM = `${ROOT_DN},SubNetwork=GRAN,MeContext=${name},ManagedElement=1,BscFunction=1,BscM=1,GeranCellM=1`;
  const mine = sites.filter((s) => s.bsc === k);
  const external = new Map<string, [DemoSite, GsmBand, number]>();
  const cellDn = (s: DemoSite, b: GsmBand, sec: number): string => {
    if (s.bsc === k) return `${cellM},GeranCell=${gsmName(s, b, sec)}`;
    external.set(gsmName(s, b, sec), [s, b, sec]);
    return `${cellM},ExternalGeranCellM=1,ExternalGeranCell=${gsmName(s, b, sec)}`;
  };
  const host = (sites[0] as DemoSite).plmn;
  const cgi = (s: DemoSite, b: GsmBand, sec: number): string => `${host.mcc}-${host.mnc}-${gsmLac(s)}-${gsmCi(s, b, sec)}`;

  w.push(`<xn:MeContext id="${name}">\n`);
  w.vs(name, 'MeContext', [['neType', 'BSC']]);
  w.push(`<xn:ManagedElement id="1">\n<xn:attributes>\n<xn:userLabel>${name}</xn:userLabel>\n</xn:attributes>\n`);
  w.openVs(1, 'BscFunction', []);
  w.openVs(1, 'BscM', []);
  w.openVs(1, 'GeranCellM', []);
  for (const site of mine) {
    const r = rngFor(seed, site.index, SALT.gsm);
    for (const b of site.gsmBands) {
      for (const sec of SECTORS) {
        w.openVs(gsmName(site, b, sec), 'GeranCell', [
          ['cgi', cgi(site, b, sec)],
          ['bcchNo', bcch(site, b, sec)],
          ['ncc', ncc(site)],
          ['bcc', bcc(site, sec)],
          ['cSysType', b === 'G900' ? 'GSM900' : 'GSM1800'],
          ['azimuth', site.azimuths[sec]],
        ]);
        counts.cells['2G']++;
        const targets: Array<[string, boolean]> = [];
        for (const ts of SECTORS) if (ts !== sec) targets.push([cellDn(site, b, ts), true]);
        for (const ob of site.gsmBands) if (ob !== b) targets.push([cellDn(site, ob, sec), true]);
        for (const t of near[site.index] as DemoSite[]) {
          if (!t.gsmBands.includes(b)) continue;
          for (const ts of SECTORS) targets.push([cellDn(t, b, ts), false]);
        }
        let n = 1;
        for (const [t, intra] of targets) {
          w.vs(n++, 'GeranCellRelation', relationFields(['neighborCellRef', t], relationAttrs(r, intra, true)));
          rel('GERAN-GERAN');
        }
        w.closeVs();
      }
    }
    await w.maybeFlush();
  }
  w.openVs(1, 'ExternalGeranCellM', []);
  for (const [cellName, [s, b, sec]] of external) {
    w.vs(cellName, 'ExternalGeranCell', [
      ['cgi', cgi(s, b, sec)],
      ['bcchNo', bcch(s, b, sec)],
      ['ncc', ncc(s)],
      ['bcc', bcc(s, sec)],
    ]);
    counts.externalCells['2G']++;
  }
  w.closeVs();
  w.closeVs();
  w.closeVs();
  w.closeVs();
  w.push('</xn:ManagedElement>\n</xn:MeContext>\n');
  await w.maybeFlush();
}
