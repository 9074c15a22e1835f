import { Alert } from 'antd';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { useSession } from 'shared-auth';
import type { SiteOption } from './SiteSelect';

/**
 * The site a page is run for, kept in its address as `?site=` (issue 47): the site report, planning,
 * validation and health-check pages read it, so a copied link or a move from one of them to another
 * keeps the site.
 *
 * Several sites are written as one comma-joined value (`?site=LX0001,LX0002`), the way the run calls
 * take them; `?site=A&site=B` is read too, so a hand-made link works.
 */
export const SITE_PARAM = 'site';

/** The site ids an address names, in order, each once. */
export function sitesInAddress(search: URLSearchParams): string[] {
  const named = search
    .getAll(SITE_PARAM)
    .flatMap((value) => value.split(','))
    .map((id) => id.trim())
    .filter((id) => id !== '');
  return [...new Set(named)];
}

export interface SiteParam {
  /** The address's sites that the page's site list confirmed, as that list spells them. */
  sites: string[];
  /** The address's sites that the page's site list does not hold for the current operator. */
  unknown: string[];
  /** True while a site of the address is being looked up. */
  checking: boolean;
  /** Writes a new selection to the address, replacing the current entry (a choice is not a step back). */
  setSites: (sites: string[]) => void;
}

type Checked = Record<string, string | null>;

/**
 * `?site=` of the address, each site looked up in `source` (the page's own site search, already held to
 * the current operator by the server) before it is selected: a link to another operator's site, or to a
 * site the page cannot run for, selects nothing and says so (SiteParamNotice).
 */
export function useSiteParam(source: ((query: string) => Promise<SiteOption[]>) | undefined): SiteParam {
  const [search, setSearch] = useSearchParams();
  const operatorId = useSession((s) => s.user.operator?.id ?? null);
  const named = sitesInAddress(search);
  const namedKey = named.join(',');
  // What each looked-up id resolved to (the list's own id, or null when absent), for one operator and list.
  const [checked, setChecked] = useState<{ scope: unknown[]; ids: Checked }>({ scope: [source, operatorId], ids: {} });
  const ids = useMemo<Checked>(() => (checked.scope[0] === source && checked.scope[1] === operatorId ? checked.ids : {}), [checked, source, operatorId]);

  useEffect(() => {
    if (!source) return;
    const pending = namedKey.split(',').filter((id) => id !== '' && !(id in ids));
    if (pending.length === 0) return;
    let live = true;
    void Promise.all(
      pending.map(async (id): Promise<[string, string | null]> => {
        try {
          const found = await source(id);
          return [id, found.find((o) => o.value.toLowerCase() === id.toLowerCase())?.value ?? null];
        } catch {
          return [id, null];
        }
      }),
    ).then((answers) => {
      if (!live) return;
      setChecked((current) => {
        const base = current.scope[0] === source && current.scope[1] === operatorId ? current.ids : {};
        return { scope: [source, operatorId], ids: { ...base, ...Object.fromEntries(answers) } };
      });
    });
    return () => {
      live = false;
    };
    // `ids` is read for what is already known; a change of it alone needs no new lookup.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [namedKey, source, operatorId]);

  const setSites = useCallback(
    (next: string[]) => {
      // Chosen from the page's own list: known without asking again.
      setChecked((current) => {
        const base = current.scope[0] === source && current.scope[1] === operatorId ? current.ids : {};
        return { scope: [source, operatorId], ids: { ...base, ...Object.fromEntries(next.map((id) => [id, id])) } };
      });
      setSearch(
        (current) => {
          const params = new URLSearchParams(current);
          // set() keeps the parameter where it stood (a link reads the same after a new choice).
          if (next.length > 0) params.set(SITE_PARAM, next.join(','));
          else params.delete(SITE_PARAM);
          return params;
        },
        { replace: true },
      );
    },
    [setSearch, source, operatorId],
  );

  return useMemo(() => {
    const sites: string[] = [];
    const unknown: string[] = [];
    let checking = false;
    for (const id of namedKey.split(',').filter((id) => id !== '')) {
      if (!(id in ids)) checking = true;
      else if (ids[id] === null) unknown.push(id);
      else if (!sites.includes(ids[id]!)) sites.push(ids[id]!);
    }
    return { sites, unknown, checking: checking && source !== undefined, setSites };
  }, [namedKey, ids, source, setSites]);
}

/** What the page says when its address names a site it does not offer: nothing of it is selected. */
export function siteParamMessage(unknown: string[]): string | null {
  if (unknown.length === 0) return null;
  if (unknown.length === 1) return `Site ${unknown[0]} is not among the current operator's sites for this page, so it is not selected.`;
  return `Sites ${unknown.join(', ')} are not among the current operator's sites for this page, so they are not selected.`;
}

export function SiteParamNotice({ unknown }: { unknown: string[] }) {
  const message = siteParamMessage(unknown);
  return message === null ? null : <Alert type="warning" showIcon title={message} data-testid="site-param-notice" />;
}
