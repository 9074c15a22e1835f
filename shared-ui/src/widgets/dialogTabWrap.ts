const TABBABLE = 'a[href], button:not([disabled]), input:not([disabled]):not([type="hidden"]), select:not([disabled]), textarea:not([disabled]), [tabindex]';

function tabbables(dialog: Element): HTMLElement[] {
  return Array.from(dialog.querySelectorAll<HTMLElement>(TABBABLE)).filter(
    (el) => el.tabIndex >= 0 && el.getClientRects().length > 0 && !el.closest('[aria-hidden="true"], [inert]'),
  );
}

/** The modal dialog on top: the last one drawn that is shown. */
function topDialog(): Element | null {
  const shown = Array.from(document.querySelectorAll('[role="dialog"][aria-modal="true"]')).filter((d) => d.getClientRects().length > 0);
  return shown[shown.length - 1] ?? null;
}

/**
 * Tab from a modal dialog's last control goes to its first, Shift+Tab from its first to its last.
 * antd's dialogs pull the focus back only when it lands on the page behind them; the dialogs are the
 * document's last elements, so Tab from the last control left the document for the browser's own
 * controls and the focus was nowhere (on the body) until the next key (issue 47). Returns the remover.
 */
export function wrapTabInDialogs(target: Document = document): () => void {
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key !== 'Tab' || event.defaultPrevented) return;
    const dialog = topDialog();
    if (!dialog) return;
    const inside = tabbables(dialog);
    if (inside.length === 0) return;
    const first = inside[0]!;
    const last = inside[inside.length - 1]!;
    const active = target.activeElement;
    const leaving = event.shiftKey ? active === first || !dialog.contains(active) : active === last || !dialog.contains(active);
    if (!leaving) return;
    event.preventDefault();
    (event.shiftKey ? last : first).focus();
  };
  target.addEventListener('keydown', onKeyDown);
  return () => target.removeEventListener('keydown', onKeyDown);
}
