import { type CoordinateEncoding, encodeCoordinates, type NetworkCounts, type RelationKind } from '../../domain/network/model';
import { writeGnb } from './gnb';
import {
  bcc,
  bcch,
  EARFCN,
  gsmCi,
  gsmLac,
  gsmName,
  lac,
  LTE_CELL_ID_BASE,
  lteName,
  ltePciGroup,
  NB_IOT_EARFCN,
  ncc,
  nrArfcn,
  nrPci,
  plmnCode,
  psc,
  rncId,
  ROOT_DN,
  SALT,
  SECTORS,
  tac,
  UARFCN,
  umtsCid,
  umtsName,
} from './identities';
import { type DemoSite } from './model';
import { esc, type Field, plmnStruct, relationAttrs, relationFields, type XmlOut } from './xml';
import { rngFor } from '../random';

/** An LTE site's RadioNode (ENodeBFunction with its cells, external cells and relations of every kind; NR on n78 sites). */

export function writeRadioNode(
  w: XmlOut,
  site: DemoSite,
  near: DemoSite[],
  nearNr: DemoSite[],
  seed: number,
  coords: CoordinateEncoding,
  counts: NetworkCounts,
  rel: (k: RelationKind, n?: number) => void,
): void {
  const r = rngFor(seed, site.index, SALT.lte);
  const me = `${ROOT_DN},SubNetwork=LRAN,MeContext=${site.node},ManagedElement=${site.node}`;
  const enb = `${me},ENodeBFunction=1`;
  const host = site.plmn;
  const plmns = site.shared ? [host, site.mocnPlmn] : [host];
  const loc = encodeCoordinates(coords, site.lat, site.lon);

  w.push(`<xn:MeContext id="${site.node}">\n`);
  w.vs(site.node, 'MeContext', [
    ['neType', 'RadioNode'],
    ['platformType', 'BASEBAND'],
    ['ipAddress', `10.${20 + (site.index >> 16)}.${(site.index >> 8) & 255}.${site.index & 255}`],
  ]);
  w.push(
    `<xn:ManagedElement id="${site.node}">\n<xn:attributes>\n<xn:userLabel>${esc(site.name)}</xn:userLabel>\n` +
      `<xn:vendorName>Ericsson</xn:vendorName>\n<xn:swVersion>CXP9024418/15 R42D37</xn:swVersion>\n</xn:attributes>\n`,
  );

  const locFields: Field[] = [
    ['latitude', loc.latitude],
    ['longitude', loc.longitude],
  ];
  if (loc.latitudeSign !== undefined) locFields.push(['latitudeSign', loc.latitudeSign]);
  w.openVs(1, 'ENodeBFunction', [['eNBId', site.eNBId], ['eNodeBPlmnId', plmnStruct(host)], ...locFields, ['userLabel', site.node]]);

  // --- EUtraNetwork: frequencies, neighbour-site proxies, other-OSS proxies
  const eutraNet = `${enb},EUtraNetwork=1`;
  w.openVs(1, 'EUtraNetwork', []);
  for (const b of site.lteBands) w.vs(EARFCN[b], 'EUtranFrequency', [['arfcnValueEUtranDl', EARFCN[b]]]);
  const proxies = new Map<string, string>(); // target cell name → proxy DN
  const proxyOwners = new Map<number, DemoSite>();
  for (const b of site.lteBands) for (const t of near) if (t.lteBands.includes(b)) proxyOwners.set(t.eNBId, t);
  for (const t of proxyOwners.values()) {
    const fnId = `${plmnCode(host)}-${t.eNBId}`;
    w.openVs(fnId, 'ExternalENodeBFunction', [
      ['eNBId', t.eNBId],
      ['eNodeBPlmnId', plmnStruct(host)],
    ]);
    for (const b of t.lteBands) {
      if (!site.lteBands.includes(b)) continue;
      for (const sec of SECTORS) {
        const cellId = LTE_CELL_ID_BASE[b] + sec + 1;
        const id = `${fnId}-${cellId}`;
        w.vs(id, 'ExternalEUtranCellFDD', [
          ['localCellId', cellId],
          ['physicalLayerCellIdGroup', ltePciGroup(t)],
          ['physicalLayerSubCellId', sec],
          ['tac', tac(t)],
          ['eutranFrequencyRef', `${eutraNet},EUtranFrequency=${EARFCN[b]}`],
          ['userLabel', lteName(t, b, sec)],
        ]);
        proxies.set(lteName(t, b, sec), `${eutraNet},ExternalENodeBFunction=${fnId},ExternalEUtranCellFDD=${id}`);
        counts.externalCells['4G']++;
      }
    }
    w.closeVs();
  }
  const foreign: string[] = [];
  if (site.foreignNeighbours) {
    const eNBId = 900000 + (site.index % 50);
    const fnId = `${plmnCode(host)}-${eNBId}`;
    w.openVs(fnId, 'ExternalENodeBFunction', [
      ['eNBId', eNBId],
      ['eNodeBPlmnId', plmnStruct(host)],
    ]);
    for (const cellId of [11, 12]) {
      const id = `${fnId}-${cellId}`;
      w.vs(id, 'ExternalEUtranCellFDD', [
        ['localCellId', cellId],
        ['physicalLayerCellIdGroup', (eNBId + cellId) % 168],
        ['physicalLayerSubCellId', cellId % 3],
        ['tac', 3900],
        ['eutranFrequencyRef', `${eutraNet},EUtranFrequency=${EARFCN.L800}`],
      ]);
      foreign.push(`${eutraNet},ExternalENodeBFunction=${fnId},ExternalEUtranCellFDD=${id}`);
      counts.externalCells['4G']++;
    }
    w.closeVs();
  }
  w.closeVs();

  // --- UtraNetwork / GeraNetwork / GUtraNetwork: proxies of the co-site UMTS, GSM and NR cells
  const utraFreq = `${enb},UtraNetwork=1,UtranFrequency=${UARFCN.U2100F1}`;
  w.openVs(1, 'UtraNetwork', []);
  w.openVs(UARFCN.U2100F1, 'UtranFrequency', [['arfcnValueUtranDl', UARFCN.U2100F1]]);
  for (const sec of SECTORS) {
    w.vs(umtsName(site, 'U2100F1', sec), 'ExternalUtranCellFDD', [
      ['physicalCellIdentity', psc(site, sec)],
      ['lac', lac(site)],
      [
        'cellIdentity',
        [
          ['cId', umtsCid(site, 'U2100F1', sec)],
          ['rncId', rncId(site.rnc)],
        ],
      ],
      ['plmnIdentity', plmnStruct(host)],
    ]);
    counts.externalCells['3G']++;
  }
  w.closeVs();
  w.closeVs();
  const geraNet = `${enb},GeraNetwork=1`;
  w.openVs(1, 'GeraNetwork', []);
  for (const sec of SECTORS) w.vs(bcch(site, 'G900', sec), 'GeranFrequency', [['arfcnValueGeranDl', bcch(site, 'G900', sec)]]);
  for (const sec of SECTORS) {
    w.vs(gsmName(site, 'G900', sec), 'ExternalGeranCell', [
      ['ncc', ncc(site)],
      ['bcc', bcc(site, sec)],
      ['cellIdentity', gsmCi(site, 'G900', sec)],
      ['lac', gsmLac(site)],
      ['plmnIdentity', plmnStruct(host)],
      ['geranFrequencyRef', `${geraNet},GeranFrequency=${bcch(site, 'G900', sec)}`],
    ]);
    counts.externalCells['2G']++;
  }
  w.closeVs();
  const gutraNet = `${enb},GUtraNetwork=1`;
  if (site.nr) {
    w.openVs(1, 'GUtraNetwork', []);
    w.vs(`${nrArfcn(site)}-30`, 'GUtranSyncSignalFrequency', [
      ['arfcn', nrArfcn(site)],
      ['smtcScs', 30],
    ]);
    w.openVs(`${plmnCode(host)}-${site.gNBId}`, 'ExternalGNodeBFunction', [
      ['gNodeBId', site.gNBId],
      ['gNodeBIdLength', 22],
      ['gNodeBPlmnId', plmnStruct(host)],
    ]);
    for (const sec of SECTORS) {
      w.vs(`${plmnCode(host)}-${site.gNBId}-${sec + 1}`, 'ExternalGUtranCell', [
        ['localCellId', sec + 1],
        ['physicalLayerCellIdGroup', Math.floor(nrPci(site, sec) / 3)],
        ['physicalLayerSubCellId', nrPci(site, sec) % 3],
        ['gUtranSyncSignalFrequencyRef', `${gutraNet},GUtranSyncSignalFrequency=${nrArfcn(site)}-30`],
      ]);
      counts.externalCells['5G']++;
    }
    w.closeVs();
    w.closeVs();
  }

  // --- LTE cells with their relations
  for (const b of site.lteBands) {
    for (const sec of SECTORS) {
      const name = lteName(site, b, sec);
      const fields: Field[] = [
        ['cellId', LTE_CELL_ID_BASE[b] + sec + 1],
        ['earfcndl', EARFCN[b]],
        ['earfcnul', EARFCN[b] + 18000],
        ['physicalLayerCellIdGroup', ltePciGroup(site)],
        ['physicalLayerSubCellId', sec],
        ['tac', tac(site)],
        ['rachRootSequence', ((site.index * 3 + sec) * 10 + LTE_CELL_ID_BASE[b]) % 838],
        ['azimuth', site.azimuths[sec]],
        ['administrativeState', 'UNLOCKED'],
      ];
      for (const p of plmns) fields.push(['activePlmnList', plmnStruct(p)]);
      w.openVs(name, 'EUtranCellFDD', fields);
      counts.cells['4G']++;

      // Intra- and inter-frequency LTE neighbours, grouped per target frequency as Ericsson does.
      for (const tb of site.lteBands) {
        const targets: Array<[string, boolean]> = [];
        for (const ts of SECTORS) {
          if (tb === b && ts !== sec) targets.push([`${enb},EUtranCellFDD=${lteName(site, tb, ts)}`, true]);
          if (tb !== b && ts === sec) targets.push([`${enb},EUtranCellFDD=${lteName(site, tb, ts)}`, true]);
        }
        if (tb === b) {
          for (const t of near) {
            if (!t.lteBands.includes(tb)) continue;
            for (const ts of SECTORS) targets.push([proxies.get(lteName(t, tb, ts)) as string, false]);
          }
          if (b === 'L800') for (const f of foreign) targets.push([f, false]);
        }
        if (targets.length === 0) continue;
        w.openVs(EARFCN[tb], 'EUtranFreqRelation', [['eutranFrequencyRef', `${eutraNet},EUtranFrequency=${EARFCN[tb]}`]]);
        for (const [target, intra] of targets) {
          const id = target.slice(target.lastIndexOf('=') + 1);
          w.vs(id, 'EUtranCellRelation', relationFields(['neighborCellRef', target], relationAttrs(r, intra, true)));
          rel('LTE-LTE');
        }
        w.closeVs();
      }
      if (b === 'L800') {
        w.openVs(UARFCN.U2100F1, 'UtranFreqRelation', [['utranFrequencyRef', utraFreq]]);
        w.vs(
          umtsName(site, 'U2100F1', sec),
          'UtranCellRelation',
          relationFields(['externalUtranCellFDDRef', `${utraFreq},ExternalUtranCellFDD=${umtsName(site, 'U2100F1', sec)}`], relationAttrs(r, true, true)),
        );
        w.closeVs();
        rel('LTE-UTRAN');
        w.openVs(1, 'GeranFreqGroupRelation', [['geranFreqGroupRef', `${geraNet},GeranFreqGroup=1`]]);
        w.vs(
          gsmName(site, 'G900', sec),
          'GeranCellRelation',
          relationFields(['extGeranCellRef', `${geraNet},ExternalGeranCell=${gsmName(site, 'G900', sec)}`], relationAttrs(r, true, true)),
        );
        w.closeVs();
        rel('LTE-GERAN');
      }
      if (site.nr && (b === 'L800' || b === 'L1800')) {
        w.openVs(`${nrArfcn(site)}-30`, 'GUtranFreqRelation', [['gUtranSyncSignalFrequencyRef', `${gutraNet},GUtranSyncSignalFrequency=${nrArfcn(site)}-30`]]);
        const id = `${plmnCode(host)}-${site.gNBId}-${sec + 1}`;
        w.vs(
          id,
          'GUtranCellRelation',
          relationFields(
            ['neighborCellRef', `${gutraNet},ExternalGNodeBFunction=${plmnCode(host)}-${site.gNBId},ExternalGUtranCell=${id}`],
            relationAttrs(r, true, true),
          ),
        );
        w.closeVs();
        rel('LTE-NR');
      }
      w.closeVs();
    }
  }
  if (site.nbIot) {
    for (const sec of SECTORS) {
      w.vs(`${site.node}_NB800_${sec + 1}`, 'NbIotCell', [
        ['cellId', 50 + sec + 1],
        ['earfcndl', NB_IOT_EARFCN],
        ['physicalLayerCellIdGroup', ltePciGroup(site)],
        ['physicalLayerSubCellId', sec],
        ['tac', tac(site)],
        ['azimuth', site.azimuths[sec]],
      ]);
      counts.cells['NB-IoT']++;
    }
  }
  w.closeVs(); // ENodeBFunction

  if (site.nr) writeGnb(w, site, me, nearNr, plmns, seed, counts, rel);
  w.push('</xn:ManagedElement>\n</xn:MeContext>\n');
}
