import type { Kysely } from 'kysely';
import type { ShareMode, SiteSharing } from 'contracts';
import { currentOperatorId } from '../db/operator-scope';
import { PreparedReads, runPrepared, slot } from '../db/prepared';
import type { Database } from '../db/schema';

/**
 * RAN sharing as the current operator sees it (docs/tenancy.md): the share rows it is a party to
 * (the operator scope shows a share row to its owner and its partner, nobody else), with both parties'
 * names, and the 'shared with X' mark every site list carries.
 */

type Db = Kysely<Database>;

export interface SiteShare {
  siteId: string;
  ownerId: number;
  ownerName: string;
  partnerId: number;
  partnerName: string;
  mode: ShareMode;
}

/** Values per IN list: far below SQLite's and PostgreSQL's bound on parameters. */
const IN_CHUNK = 500;

/**
 * The share-row read of {@link visibleShares}; shape '' reads every row, shape 'n' the sites of slots
 * s0…s(n-1). Prepared (db/prepared.ts): every site list's page reads it.
 */
const SHARE_READS = new PreparedReads((db, shape) => {
  const query = db
    .selectFrom('network_site_shares as x')
    .innerJoin('operators as o', 'o.id', 'x.operator_id')
    .innerJoin('operators as p', 'p.id', 'x.partner_operator_id')
    .select(['x.site_id as siteId', 'x.operator_id as ownerId', 'o.name as ownerName', 'x.partner_operator_id as partnerId', 'p.name as partnerName', 'x.mode'])
    .orderBy('x.site_id')
    .orderBy('p.name');
  if (shape === '') return { shares: query };
  const ids = Array.from({ length: Number(shape) }, (_, i) => slot(`s${i}`) as never);
  return { shares: query.where('x.site_id', 'in', ids) };
});

interface ShareRow {
  siteId: string;
  ownerId: number | string;
  ownerName: string;
  partnerId: number | string;
  partnerName: string;
  mode: ShareMode;
}

/** The share rows visible to the current operator, of the sites given (all of them without a list), by site and partner name. */
export async function visibleShares(db: Db, siteIds?: readonly string[]): Promise<SiteShare[]> {
  const read = async (ids?: readonly string[]) => {
    const values: Record<string, unknown> = {};
    ids?.forEach((id, i) => (values[`s${i}`] = id));
    const { shares } = SHARE_READS.statements(db, ids ? String(ids.length) : '', values);
    return (await runPrepared<ShareRow>(db, shares)).rows;
  };
  const rows: ShareRow[] = [];
  if (!siteIds) rows.push(...(await read()));
  else {
    const unique = [...new Set(siteIds)];
    for (let i = 0; i < unique.length; i += IN_CHUNK) rows.push(...(await read(unique.slice(i, i + IN_CHUNK))));
  }
  return rows.map((r) => ({ ...r, ownerId: Number(r.ownerId), partnerId: Number(r.partnerId) }));
}

/** The other party of a share, seen from the current operator. */
export function otherPartyOf(share: SiteShare, operatorId: number | null | undefined = currentOperatorId()): { id: number; name: string } {
  return share.ownerId === operatorId ? { id: share.partnerId, name: share.partnerName } : { id: share.ownerId, name: share.ownerName };
}

export const NOT_SHARED: SiteSharing = { sharedWith: null, shareMode: null };

/** Site id → its 'shared with X' mark (the other parties' names, sorted; the first share's mode). */
export function sharingMarks(shares: readonly SiteShare[]): Map<string, SiteSharing> {
  const me = currentOperatorId();
  const bySite = new Map<string, { names: Set<string>; mode: ShareMode }>();
  for (const share of shares) {
    const entry = bySite.get(share.siteId) ?? { names: new Set<string>(), mode: share.mode };
    entry.names.add(otherPartyOf(share, me).name);
    bySite.set(share.siteId, entry);
  }
  return new Map([...bySite].map(([siteId, { names, mode }]) => [siteId, { sharedWith: [...names].sort().join(', '), shareMode: mode }]));
}

/** The marks of the sites given (or of every shared site): one read of the share table. */
export async function loadSharingMarks(db: Db, siteIds?: readonly string[]): Promise<Map<string, SiteSharing>> {
  if (siteIds && siteIds.length === 0) return new Map();
  return sharingMarks(await visibleShares(db, siteIds));
}
