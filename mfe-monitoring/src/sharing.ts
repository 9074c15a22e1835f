import type { SiteSharing } from 'contracts';

/**
 * 'shared with NOS (MORAN)' for a site another operator shares with the current one or that it shares
 * (RAN sharing, docs/tenancy.md), null for a site not shared: the site map's popup and the site
 * report's header say it alike.
 */
export function sharedWithText(site: Partial<SiteSharing>): string | null {
  if (!site.sharedWith) return null;
  return `shared with ${site.sharedWith}${site.shareMode ? ` (${site.shareMode})` : ''}`;
}
