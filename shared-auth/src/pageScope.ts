/**
 * The page a read belongs to. The shell opens a scope when a page mounts and closes it when the page is
 * left: every GET sent meanwhile carries the scope's signal (apiClient), so a list, a poll or a banner
 * still loading on a page the user has left is cancelled instead of finishing for nobody (and holding
 * the loading overlay). Writes are never cancelled: half of a save is worse than a late answer.
 */

/** Between pages (or outside the shell's frame) reads belong to no page and are never cancelled this way. */
let current = new AbortController();

/** Called by the shell when a page mounts; returns the handle to close it with. */
export function openPageScope(): AbortController {
  current = new AbortController();
  return current;
}

/** Cancels the page's reads still in flight; reads sent after it belong to no page until the next opens. */
export function closePageScope(scope: AbortController): void {
  scope.abort();
  if (current === scope) current = new AbortController();
}

export function pageSignal(): AbortSignal {
  return current.signal;
}
