import type { Kysely } from 'kysely';
import { runInOperator } from '../db/operator-scope';
import type { Database } from '../db/schema';
import { LISBON, planDemoNetwork, type DemoLayerSite, type DemoRegion } from '../demo/network';
import { parseDemoLogsIfNone, type DemoParseParams } from '../demo/logs';
import { importDemoNetworkIfEmpty, type DemoNetworkOptions } from '../network/demo';
import { importDemoTrackingIfEmpty, type DemoTrackingOptions } from '../tracking/demo';

/**
 * The demo operators' engineering data (issue 42): each operator has a network of its own in its own
 * part of the country, its own commissioning plan, tracker, work orders and MoBatch logs, and Vodafone PT
 * shares a few sites with NOS. Everything goes through the real importers and jobs, each run as its
 * operator, so a fresh console exercises the paths an upload takes.
 *
 * Vodafone PT's data is exactly that of the releases before operators were tenants (the e2e suites
 * count its 120 sites, 122 nodes and 300 plan rows); NOS's and MEO's are smaller, so the first start
 * stays quick.
 */

export type ShareMode = 'MORAN' | 'MOCN';

export interface DemoShare {
  owner: string;
  partner: string;
  mode: ShareMode;
  siteIds: readonly string[];
}

export interface DemoOperatorData {
  operator: string;
  /** How the operator names its nodes on another operator's site (MORAN): `<prefix>_<site id>`. */
  nodePrefix: string;
  network: Pick<DemoNetworkOptions, 'sites' | 'seed' | 'region' | 'fileName'>;
  tracking: DemoTrackingOptions;
  logs: { seed: number; fileName: string };
}

/**
 * MORAN: three neighbouring Vodafone PT sites in Odivelas/Olivais (each the others' nearest, so their
 * relations reach each other and the validation has real rows) carry a NOS layer too. MOCN: LX0006,
 * whose cells broadcast NOS's PLMN beside Vodafone PT's (the generator makes it so).
 */
export const DEMO_SHARES: readonly DemoShare[] = [
  { owner: 'Vodafone PT', partner: 'NOS', mode: 'MORAN', siteIds: ['LX0016', 'LX0026', 'LX0082'] },
  { owner: 'Vodafone PT', partner: 'NOS', mode: 'MOCN', siteIds: ['LX0006'] },
];

/**
 * A partner's nodes on its MORAN sites: at the owner's places and on its antennas (the same azimuths,
 * so each partner cell has its owner counterpart in the sector), named by the partner (`NOS_LX0016`),
 * so no cell name is the owner's.
 */
export function layerSitesOf(partner: DemoOperatorData, operators: readonly DemoOperatorData[], shares: readonly DemoShare[]): DemoLayerSite[] {
  const layers: DemoLayerSite[] = [];
  for (const share of shares) {
    if (share.partner !== partner.operator || share.mode !== 'MORAN') continue;
    const owner = operators.find((o) => o.operator === share.owner);
    if (!owner) continue;
    const wanted = new Set(share.siteIds);
    for (const s of planDemoNetwork(owner.network)) {
      if (wanted.has(s.id)) layers.push({ id: s.id, node: `${partner.nodePrefix}_${s.id}`, name: s.name, lat: s.lat, lon: s.lon, azimuths: s.azimuths });
    }
  }
  return layers;
}

const PORTO: DemoRegion = {
  idPrefix: 'PO',
  lat: 41.1,
  lon: -8.7,
  latSpan: 0.15,
  lonSpan: 0.2,
  areas: [
    'Aldoar',
    'Bonfim',
    'Campanhã',
    'Cedofeita',
    'Foz do Douro',
    'Lordelo do Ouro',
    'Massarelos',
    'Paranhos',
    'Ramalde',
    'Matosinhos',
    'Leça da Palmeira',
    'Vila Nova de Gaia',
    'Gondomar',
    'Maia',
    'Rio Tinto',
  ],
  plmn: { mcc: '268', mnc: '03' },
  mocnPlmn: { mcc: '268', mnc: '01' },
  mocnShare: 0,
};

const FARO: DemoRegion = {
  idPrefix: 'FA',
  lat: 37.0,
  lon: -8.1,
  latSpan: 0.12,
  lonSpan: 0.3,
  areas: ['Sé', 'São Pedro', 'Montenegro', 'Estoi', 'Olhão', 'Loulé', 'Almancil', 'Quarteira', 'Vilamoura', 'Tavira', 'São Brás de Alportel'],
  plmn: { mcc: '268', mnc: '06' },
  mocnPlmn: { mcc: '268', mnc: '01' },
  mocnShare: 0,
};

export const DEMO_DATA: readonly DemoOperatorData[] = [
  {
    operator: 'Vodafone PT',
    nodePrefix: 'VF',
    network: { sites: 120, seed: 1, region: LISBON },
    tracking: {},
    logs: { seed: 1, fileName: 'demo-mobatch-logs.zip' },
  },
  {
    operator: 'NOS',
    nodePrefix: 'NOS',
    network: { sites: 30, seed: 2, region: PORTO, fileName: 'demo-network-nos.xml' },
    tracking: {
      seed: 8,
      areas: [
        { prefix: 'PO', area: 'Porto', project: 'Rollout Porto' },
        { prefix: 'LX', area: 'Lisboa', project: 'MORAN Lisboa' },
      ],
      wowOnlySite: 'PO9999',
    },
    logs: { seed: 2, fileName: 'demo-mobatch-logs-nos.zip' },
  },
  {
    operator: 'MEO',
    nodePrefix: 'MEO',
    network: { sites: 24, seed: 3, region: FARO, fileName: 'demo-network-meo.xml' },
    tracking: { seed: 9, areas: [{ prefix: 'FA', area: 'Faro', project: 'Rollout Algarve' }], wowOnlySite: 'FA9999' },
    logs: { seed: 3, fileName: 'demo-mobatch-logs-meo.zip' },
  },
];

/** The share table is the operator scope's (migration 0016); the schema types leave it out. */
interface SiteSharesTable {
  operator_id?: number;
  site_id: string;
  partner_operator_id: number;
  mode: ShareMode;
}

export interface DemoDataLog {
  info(fields: object, message: string): void;
  warn(fields: object, message: string): void;
}

export interface DemoDataOptions {
  dataDir: string;
  /** Imports a written demo dump (the server passes the `network.import` job). */
  importNetwork: NonNullable<DemoNetworkOptions['importer']>;
  /** Parses a written demo MoBatch archive (the server passes the `monitoring.parse` job). */
  parseLogs: (params: DemoParseParams) => Promise<unknown>;
  log: DemoDataLog;
  now?: Date;
  /** Which operators and shares (default {@link DEMO_DATA}, {@link DEMO_SHARES}); tests take smaller networks. */
  operators?: readonly DemoOperatorData[];
  shares?: readonly DemoShare[];
}

export interface DemoDataResult {
  /** Operators whose network was imported by this run. */
  networks: string[];
  /** Share rows this run made sure of (those already there count too). */
  shares: number;
}

/**
 * Writes each demo operator's network, tracking data and logs, once: each step runs only when the
 * operator has none of that kind yet (a restart changes nothing). Then the shares, when a network was
 * imported by this run (a share without its sites would point at nothing).
 */
export async function seedDemoData(db: Kysely<Database>, options: DemoDataOptions): Promise<DemoDataResult> {
  const data = options.operators ?? DEMO_DATA;
  const shares = options.shares ?? DEMO_SHARES;
  const ids = new Map((await db.selectFrom('operators').select(['id', 'name']).execute()).map((o) => [o.name, o.id]));
  const networks: string[] = [];
  for (const d of data) {
    const operatorId = ids.get(d.operator);
    if (operatorId === undefined) continue;
    await runInOperator(operatorId, async () => {
      const network = await importDemoNetworkIfEmpty(db, {
        dataDir: options.dataDir,
        sites: d.network.sites,
        seed: d.network.seed,
        region: d.network.region,
        layerSites: layerSitesOf(d, data, shares),
        fileName: d.network.fileName,
        importer: options.importNetwork,
      });
      if (network) {
        networks.push(d.operator);
        options.log.info({ operator: d.operator, file: network.file, counts: network.counts }, 'demo network imported');
      }
      // After the network: the plan and work orders name its sites.
      const tracking = await importDemoTrackingIfEmpty(db, options.now, d.tracking);
      if (tracking) options.log.info({ operator: d.operator, ...tracking }, 'demo tracking data written');
      // After the network too: the logs are those of its nodes. A nicety, never a reason not to start.
      try {
        const logs = await parseDemoLogsIfNone(db, {
          dataDir: options.dataDir,
          parse: options.parseLogs,
          seed: d.logs.seed,
          now: options.now,
          fileName: d.logs.fileName,
        });
        if (logs)
          options.log.info(
            { operator: d.operator, file: logs.file, logs: logs.summary.logs, unreachable: logs.summary.unreachable, answer: logs.parsed },
            'demo MoBatch logs parsed',
          );
      } catch (error) {
        options.log.warn({ operator: d.operator, err: error }, 'the demo MoBatch logs could not be parsed; the monitoring pages start empty');
      }
    });
  }
  return { networks, shares: networks.length > 0 ? await writeShares(db, ids, shares) : 0 };
}

/** Each share, as its owner, for the sites the owner's inventory has (and, MORAN, the partner's too). */
async function writeShares(db: Kysely<Database>, ids: ReadonlyMap<string, number>, shares: readonly DemoShare[]): Promise<number> {
  const shareDb = db.withTables<{ network_site_shares: SiteSharesTable }>();
  let written = 0;
  for (const share of shares) {
    const owner = ids.get(share.owner);
    const partner = ids.get(share.partner);
    if (owner === undefined || partner === undefined) continue;
    const ownSites = async (operatorId: number) =>
      runInOperator(operatorId, async () =>
        (await db.selectFrom('network_sites').select('id').where('operator_id', '=', operatorId).where('id', 'in', share.siteIds).execute()).map((s) => s.id),
      );
    let siteIds = await ownSites(owner);
    if (share.mode === 'MORAN') {
      const layer = new Set(await ownSites(partner));
      siteIds = siteIds.filter((id) => layer.has(id));
    }
    if (siteIds.length === 0) continue;
    await runInOperator(owner, () =>
      shareDb
        .insertInto('network_site_shares')
        .values(siteIds.map((site_id) => ({ site_id, partner_operator_id: partner, mode: share.mode })))
        .onConflict((oc) => oc.columns(['operator_id', 'site_id', 'partner_operator_id']).doNothing())
        .execute(),
    );
    written += siteIds.length;
  }
  return written;
}
