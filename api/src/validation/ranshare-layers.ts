import type { Kysely } from 'kysely';
import type { SiteOption } from 'contracts';
import { currentOperatorId, runInOperator } from '../db/operator-scope';
import type { Database } from '../db/schema';
import type { Cell, Relation } from '../domain/network/model';
import { NetworkIndex } from '../domain/planning';
import { findSiteOptions } from '../network/queries';
import { loadSiteCells, loadSiteNetwork, relationOf, type SiteNetwork } from '../network/scope';
import { otherPartyOf, visibleShares, type SiteShare } from '../network/shares';

/**
 * The RAN-share validation reads across the two operators of a shared site (docs/tenancy.md): the
 * current operator's own network around the site, plus the other party's layer on it, read in that
 * operator's scope. Only what network_site_shares says the two share is read of the other operator:
 * its cells on the sites shared between the two, and its relations from its cells on this site to
 * those cells. A relation of the other operator leading anywhere else is left out (counted, never
 * shown), so a run reveals nothing of a site the two do not share.
 */

type Db = Kysely<Database>;

export interface SharedSiteNetwork {
  network: SiteNetwork;
  /** The share rows of the site the current operator is a party to (empty: not recorded as shared). */
  shares: SiteShare[];
  /** DNs of the cells read from the other operator's layer. */
  otherCells: ReadonlySet<string>;
  /** The other operator's relations on the site leading outside the shared sites: not read into the run. */
  leftOut: number;
}

const IN_CHUNK = 500;

/**
 * The other operator's layer on `siteId`, read as that operator: its cells on `sharedSites` and the
 * relations of its cells on `siteId` whose target is one of those cells. A relation through an external
 * cell keeps the real cell it was resolved to at import, as its target (the external cells themselves
 * describe the other operator's neighbours and are not read).
 */
async function otherLayer(
  db: Db,
  operatorId: number,
  siteId: string,
  sharedSites: readonly string[],
): Promise<{ cells: Cell[]; relations: Relation[]; leftOut: number }> {
  return runInOperator(operatorId, async () => {
    const cells = await loadSiteCells(db, sharedSites);
    const known = new Set(cells.flatMap((c) => [c.dn, ...c.altDns]));
    const sources = cells.filter((c) => c.siteId === siteId).map((c) => c.dn);
    const relations: Relation[] = [];
    let leftOut = 0;
    for (let i = 0; i < sources.length; i += IN_CHUNK) {
      const rows = await db
        .selectFrom('network_relations')
        .selectAll()
        .where('source_cell_dn', 'in', sources.slice(i, i + IN_CHUNK))
        .orderBy('id')
        .execute();
      for (const row of rows) {
        if (row.target_cell_dn === null || !known.has(row.target_cell_dn)) leftOut += 1;
        else relations.push(relationOf(row, row.target_ref !== null && known.has(row.target_ref) ? row.target_ref : row.target_cell_dn));
      }
    }
    return { cells, relations, leftOut };
  });
}

/**
 * The site's network for its RAN-share validation: the operator's own (loadSiteNetwork), and for each
 * share of the site the other party's layer, unless the current operator is the owner of a MOCN share
 * (one layer, its own). Cells of the other operator whose DN or name the own network already has are
 * left out (two operators may name cells alike; the index keys on both).
 */
export async function loadSharedSiteNetwork(db: Db, siteId: string): Promise<SharedSiteNetwork> {
  const me = currentOperatorId();
  const own = await loadSiteNetwork(db, siteId);
  const shares = await visibleShares(db, [siteId]);
  const otherCells = new Set<string>();
  if (shares.length === 0) return { network: own, shares, otherCells, leftOut: 0 };

  const allShares = await visibleShares(db);
  const cells = [...own.index.cells()];
  const relations = [...own.index.dump.relations];
  const taken = new Set(cells.flatMap((c) => [c.dn, c.name]));
  let leftOut = 0;
  const readFrom = new Set<number>();
  for (const share of shares) {
    if (share.mode === 'MOCN' && share.ownerId === me) continue;
    const other = otherPartyOf(share, me).id;
    if (readFrom.has(other)) continue;
    readFrom.add(other);
    // Only the sites these two operators share, whichever of them owns each.
    const between = (s: SiteShare) => (s.ownerId === me && s.partnerId === other) || (s.ownerId === other && s.partnerId === me);
    const sharedSites = [...new Set(allShares.filter(between).map((s) => s.siteId))];
    const layer = await otherLayer(db, other, siteId, sharedSites);
    leftOut += layer.leftOut;
    // The own cells of those sites too: a relation the own layer lacks has its expected target there.
    for (const c of await loadSiteCells(db, sharedSites)) {
      if (taken.has(c.dn) || taken.has(c.name)) continue;
      taken.add(c.dn);
      taken.add(c.name);
      cells.push(c);
    }
    const fresh = layer.cells.filter((c) => !taken.has(c.dn) && !taken.has(c.name));
    for (const c of fresh) {
      taken.add(c.dn);
      taken.add(c.name);
      otherCells.add(c.dn);
    }
    cells.push(...fresh);
    relations.push(...layer.relations.filter((r) => otherCells.has(r.sourceCellDn)));
  }
  const index = new NetworkIndex({ cells, externalCells: own.index.dump.externalCells, relations });
  const siteCells = cells.filter((c) => c.siteId === siteId).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const siteDns = new Set(siteCells.map((c) => c.dn));
  return {
    network: { site: own.site, cells: siteCells, relations: relations.filter((r) => siteDns.has(r.sourceCellDn)), index },
    shares,
    otherCells,
    leftOut,
  };
}

/**
 * The RAN-share page's site picker: the sites recorded as shared that the current operator is a party
 * to (as owner or partner), filtered by the typed text (id or name), by id, at most 20, the operator's
 * own name of a site first.
 */
export function findSharedSiteOptions(db: Db, typed = ''): Promise<SiteOption[]> {
  return findSiteOptions(db, { query: typed, sharedOnly: true });
}
