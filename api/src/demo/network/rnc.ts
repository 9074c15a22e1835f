import { type NetworkCounts, type RelationKind } from '../../domain/network/model';
import { bcc, bcch, gsmCi, gsmLac, gsmName, lac, ncc, psc, rncId, rncName, ROOT_DN, SALT, SECTORS, UARFCN, umtsCid, umtsName } from './identities';
import { type DemoSite, type UmtsCarrier } from './model';
import { relationAttrs, type XmlOut } from './xml';
import { rngFor } from '../random';

/** One RNC of the URAN subnetwork: its UtranCells (with the CPICH power plan), relations and Iur proxies. */

export async function writeRnc(
  w: XmlOut,
  k: number,
  sites: DemoSite[],
  near: DemoSite[][],
  seed: number,
  counts: NetworkCounts,
  rel: (k: RelationKind, n?: number) => void,
  cpichOutOfRange: string[],
): Promise<void> {
  const name = rncName(k);
  const host = (sites[0] as DemoSite).plmn;
  const fn = `${ROOT_DN},SubNetwork=URAN,MeContext=${name},ManagedElement=1,RncFunction=1`;
  const mine = sites.filter((s) => s.rnc === k);
  w.push(`<xn:MeContext id="${name}">\n`);
  w.vs(name, 'MeContext', [['neType', 'RNC']]);
  w.push(`<xn:ManagedElement id="1">\n<xn:attributes>\n<xn:userLabel>${name}</xn:userLabel>\n</xn:attributes>\n`);
  w.openVs(1, 'RncFunction', [
    ['rncId', rncId(k)],
    ['mcc', host.mcc],
    ['mnc', host.mnc],
    ['mncLength', 2],
  ]);
  for (const l of [...new Set(mine.map(lac))].sort((a, b) => a - b)) w.vs(l, 'LocationArea', [['lac', l]]);

  const iur = new Map<number, Map<string, DemoSite>>(); // other RNC → proxied sites
  const iurCarrier = new Map<string, UmtsCarrier>();
  const gsmProxies = new Set<DemoSite>();
  const cellDn = (s: DemoSite, c: UmtsCarrier, sec: number): string => {
    if (s.rnc === k) return `${fn},UtranCell=${umtsName(s, c, sec)}`;
    const cellName = umtsName(s, c, sec);
    let m = iur.get(s.rnc);
    if (!m) iur.set(s.rnc, (m = new Map()));
    m.set(cellName, s);
    iurCarrier.set(cellName, c);
    return `${fn},IurLink=${rncName(s.rnc)},ExternalUtranCell=${cellName}`;
  };

  for (const site of mine) {
    const r = rngFor(seed, site.index, SALT.umts);
    for (const c of site.umtsCarriers) {
      for (const sec of SECTORS) {
        const cell = umtsName(site, c, sec);
        // Planned inside the CPICH window of docs/engines/planning.md#cpich-validation (max − 12 dB … max − 8 dB = 310…350 for 430).
        let cpich = 310 + Math.round(r() * 20);
        let maxPower = 430;
        const anomaly = r();
        if (anomaly < 0.01)
          cpich = 380; // above max − 8 dB
        else if (anomaly < 0.02)
          cpich = 440; // not below max power at all
        else if (anomaly < 0.03) maxPower = 470; // beyond what the radio can deliver
        if (anomaly < 0.03) cpichOutOfRange.push(cell);
        w.openVs(cell, 'UtranCell', [
          ['cId', umtsCid(site, c, sec)],
          ['localCellId', umtsCid(site, c, sec)],
          ['uarfcnDl', UARFCN[c]],
          ['uarfcnUl', UARFCN[c] - (c === 'U900' ? 225 : 950)],
          ['primaryScramblingCode', psc(site, sec)],
          ['primaryCpichPower', cpich],
          ['maximumTransmissionPower', maxPower],
          ['locationAreaRef', `${fn},LocationArea=${lac(site)}`],
          ['azimuth', site.azimuths[sec]],
          ['administrativeState', 'UNLOCKED'],
        ]);
        counts.cells['3G']++;
        const targets: string[] = [];
        for (const ts of SECTORS) if (ts !== sec) targets.push(cellDn(site, c, ts));
        for (const oc of site.umtsCarriers) if (oc !== c) targets.push(cellDn(site, oc, sec));
        for (const t of near[site.index] as DemoSite[]) {
          if (!t.umtsCarriers.includes(c)) continue;
          for (const ts of SECTORS) targets.push(cellDn(t, c, ts));
        }
        let n = 1;
        for (const t of targets) {
          const a = relationAttrs(r, false, false);
          w.vs(n++, 'UtranRelation', [
            ['adjacentCell', t],
            ['isRemoveAllowed', String(a.isRemoveAllowed)],
            ['isHoAllowed', String(a.isHoAllowed)],
          ]);
          rel('UTRAN-UTRAN');
        }
        if (c === 'U2100F1') {
          gsmProxies.add(site);
          w.vs(n, 'GsmRelation', [['externalGsmCellRef', `${fn},ExternalGsmNetwork=1,ExternalGsmCell=${gsmName(site, 'G900', sec)}`]]);
          rel('UTRAN-GERAN');
        }
        w.closeVs();
      }
    }
    await w.maybeFlush();
  }

  for (const [other, cells] of [...iur.entries()].sort((a, b) => a[0] - b[0])) {
    w.openVs(rncName(other), 'IurLink', [['rncId', rncId(other)]]);
    for (const [cellName, s] of cells) {
      const c = iurCarrier.get(cellName) as UmtsCarrier;
      const sec = Number(cellName.slice(cellName.lastIndexOf('_') + 1)) - 1;
      w.vs(cellName, 'ExternalUtranCell', [
        ['cId', umtsCid(s, c, sec)],
        ['rncId', rncId(other)],
        ['primaryScramblingCode', psc(s, sec)],
        ['uarfcnDl', UARFCN[c]],
        ['lac', lac(s)],
        ['mcc', host.mcc],
        ['mnc', host.mnc],
        ['mncLength', 2],
      ]);
      counts.externalCells['3G']++;
    }
    w.closeVs();
  }
  w.openVs(1, 'ExternalGsmNetwork', [
    ['mcc', host.mcc],
    ['mnc', host.mnc],
    ['mncLength', 2],
  ]);
  for (const s of gsmProxies) {
    for (const sec of SECTORS) {
      w.vs(gsmName(s, 'G900', sec), 'ExternalGsmCell', [
        ['cellIdentity', gsmCi(s, 'G900', sec)],
        ['lac', gsmLac(s)],
        ['bcchFrequency', bcch(s, 'G900', sec)],
        ['ncc', ncc(s)],
        ['bcc', bcc(s, sec)],
      ]);
      counts.externalCells['2G']++;
    }
  }
  w.closeVs();
  w.closeVs(); // RncFunction
  w.push('</xn:ManagedElement>\n</xn:MeContext>\n');
  await w.maybeFlush();
}
