import { splitDn } from './records';

/**
 * An RNC names its UtranCells as the planners did (`CC1405A`), often without the site; the NodeB that
 * carries a cell is the one at the end of the cell's `iubLinkRef`, and Ericsson RNCs name Iub links
 * `Iub_<site><name>` (`Iub_41428KAINARFARM`, `Iub_KFAR_SABA`). This is that name without the `Iub`
 * prefix, for the site rule; null when the reference names no link.
 */
export function iubNodeName(iubLinkRef: string): string | null {
  const parts = splitDn(iubLinkRef);
  const last = parts?.[parts.length - 1];
  if (!last || last.className !== 'IubLink') return null;
  const name = last.id.replace(/^iub(?:[_-]|(?=\d))/i, '');
  return name === '' ? null : name;
}
