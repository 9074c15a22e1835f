import { type NetworkCounts, type RelationKind } from '../../domain/network/model';
import { nrArfcn, nrName, nrPci, nrTac, plmnCode, SALT, SECTORS } from './identities';
import { type DemoSite } from './model';
import { type Field, relationAttrs, relationFields, type XmlOut } from './xml';
import { rngFor } from '../random';

/** The NR part of a RadioNode on n78 sites: GNBDUFunction and GNBCUCPFunction with their cells and relations. */

export function writeGnb(
  w: XmlOut,
  site: DemoSite,
  me: string,
  nearNr: DemoSite[],
  plmns: Array<{ mcc: string; mnc: string }>,
  seed: number,
  counts: NetworkCounts,
  rel: (k: RelationKind, n?: number) => void,
): void {
  const r = rngFor(seed, site.index, SALT.nr);
  const host = site.plmn;
  const arfcn = nrArfcn(site);
  w.openVs(1, 'GNBDUFunction', [
    ['gNBId', site.gNBId],
    ['gNBIdLength', 22],
  ]);
  for (const sec of SECTORS) {
    const fields: Field[] = [
      ['cellLocalId', sec + 1],
      ['nRPCI', nrPci(site, sec)],
      ['nRTAC', nrTac(site)],
      ['arfcnDL', arfcn],
      ['ssbFrequency', arfcn],
      ['bSChannelBwDL', 100],
      ['azimuth', site.azimuths[sec]],
    ];
    for (const p of plmns)
      fields.push([
        'pLMNIdList',
        [
          ['mcc', p.mcc],
          ['mnc', p.mnc],
        ],
      ]);
    w.vs(nrName(site, sec), 'NRCellDU', fields);
  }
  w.closeVs();

  const cucp = `${me},GNBCUCPFunction=1`;
  const nrNet = `${cucp},NRNetwork=1`;
  w.openVs(1, 'GNBCUCPFunction', [
    ['gNBId', site.gNBId],
    ['gNBIdLength', 22],
    [
      'pLMNId',
      [
        ['mcc', host.mcc],
        ['mnc', host.mnc],
      ],
    ],
  ]);
  w.openVs(1, 'NRNetwork', []);
  const freqs = new Set([arfcn, ...nearNr.map(nrArfcn)]);
  for (const f of freqs)
    w.vs(f, 'NRFrequency', [
      ['arfcnValueNRDl', f],
      ['smtcScs', 30],
    ]);
  const proxies = new Map<string, string>();
  for (const t of nearNr) {
    const fnId = `${plmnCode(host)}-${t.gNBId}`;
    w.openVs(fnId, 'ExternalGNBCUCPFunction', [
      ['gNBId', t.gNBId],
      ['gNBIdLength', 22],
      [
        'pLMNId',
        [
          ['mcc', host.mcc],
          ['mnc', host.mnc],
        ],
      ],
    ]);
    for (const sec of SECTORS) {
      const id = `${fnId}-${sec + 1}`;
      w.vs(id, 'ExternalNRCellCU', [
        ['cellLocalId', sec + 1],
        ['nRPCI', nrPci(t, sec)],
        ['nRTAC', nrTac(t)],
        ['nRFrequencyRef', `${nrNet},NRFrequency=${nrArfcn(t)}`],
      ]);
      proxies.set(nrName(t, sec), `${nrNet},ExternalGNBCUCPFunction=${fnId},ExternalNRCellCU=${id}`);
      counts.externalCells['5G']++;
    }
    w.closeVs();
  }
  w.closeVs();
  for (const sec of SECTORS) {
    const fields: Field[] = [['cellLocalId', sec + 1]];
    for (const p of plmns)
      fields.push([
        'plmnInfoList',
        [
          [
            'plmnId',
            [
              ['mcc', p.mcc],
              ['mnc', p.mnc],
            ],
          ],
          ['sNSSAI', [['sst', 1]]],
        ],
      ]);
    w.openVs(nrName(site, sec), 'NRCellCU', fields);
    counts.cells['5G']++;
    const targets: Array<[string, boolean]> = [];
    for (const ts of SECTORS) if (ts !== sec) targets.push([`${cucp},NRCellCU=${nrName(site, ts)}`, true]);
    for (const t of nearNr) for (const ts of SECTORS) targets.push([proxies.get(nrName(t, ts)) as string, false]);
    for (const [target, intra] of targets) {
      const id = target.slice(target.lastIndexOf('=') + 1);
      w.vs(id, 'NRCellRelation', relationFields(['nRCellRef', target], relationAttrs(r, intra, false)));
      rel('NR-NR');
    }
    w.closeVs();
  }
  w.closeVs();
}
