import { isTokenLive, sessionStore, setToken } from 'shared-auth';

/** The query parameter a session token is handed over in (specification §2: the job dashboard link). */
export const ACCESS_TOKEN_PARAM = 'access_token';

/**
 * Takes a session token handed over in the address (`?access_token=`, how the menu opens the job
 * dashboard in a new tab, specification §2) out of the address before the router or anything else reads
 * it, so no later request, history entry or bookmark carries it. The token becomes the console's session
 * only when the console has no live one of its own: a tab of the same browser shares the console's
 * storage, so the two are the same token, and a link never switches the account someone is signed in
 * with. Answers whether a token was handed over.
 */
export function takeHandedOverToken(win: Pick<Window, 'location' | 'history'> = window): boolean {
  const url = new URL(win.location.href);
  if (!url.searchParams.has(ACCESS_TOKEN_PARAM)) return false;
  const token = url.searchParams.get(ACCESS_TOKEN_PARAM) ?? '';
  url.searchParams.delete(ACCESS_TOKEN_PARAM);
  win.history.replaceState(win.history.state, '', url.pathname + url.search + url.hash);
  if (isTokenLive(token) && !isTokenLive(sessionStore.getState().token)) setToken(token);
  return true;
}
