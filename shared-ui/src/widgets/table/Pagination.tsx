import { Button, Grid } from 'antd';
import type { ReactNode } from 'react';
import { MUTED_TEXT } from '../../theme/tokens';

/** Pagination of the specification (§9): 5 pages in range, 2 margin pages, labels previous and next. */
export const PAGE_RANGE = 5;
export const MARGIN_PAGES = 2;
/** On a phone: fewer pages around the current one and at the ends, so 'previous' … 'next' fit one line of 390 px (issue 47). */
export const COMPACT_PAGE_RANGE = 3;
export const COMPACT_MARGIN_PAGES = 1;
export const PREVIOUS_LABEL = 'previous';
export const NEXT_LABEL = 'next';

/** A page number, or a gap of hidden pages before the range ('break-left') or after it ('break-right'). */
export type PageItem = number | 'break-left' | 'break-right';

/**
 * The pages a control shows for `current` of `pageCount` (1-based): the first and last MARGIN_PAGES,
 * PAGE_RANGE pages around the current one (moved inwards at either end so the range stays whole), and
 * a break for each run of hidden pages. A break would hide a single page, so that page is shown instead:
 * it takes the same room and saves a click.
 */
export function pageItems(current: number, pageCount: number, compact = false): PageItem[] {
  const range = compact ? COMPACT_PAGE_RANGE : PAGE_RANGE;
  const margin = compact ? COMPACT_MARGIN_PAGES : MARGIN_PAGES;
  const last = Math.max(1, Math.floor(pageCount));
  const page = Math.min(Math.max(1, Math.floor(current)), last);
  const start = Math.max(1, Math.min(page - Math.floor(range / 2), last - range + 1));
  const end = Math.min(last, start + range - 1);
  const shown = new Set<number>();
  for (let p = 1; p <= Math.min(margin, last); p++) shown.add(p);
  for (let p = start; p <= end; p++) shown.add(p);
  for (let p = Math.max(1, last - margin + 1); p <= last; p++) shown.add(p);
  const items: PageItem[] = [];
  let previous = 0;
  for (const p of [...shown].sort((a, b) => a - b)) {
    if (p - previous === 2) items.push(p - 1);
    else if (p - previous > 2) items.push(p <= start ? 'break-left' : 'break-right');
    items.push(p);
    previous = p;
  }
  return items;
}

export interface PaginationProps {
  /** 1-based. */
  current: number;
  total: number;
  pageSize: number;
  onChange: (page: number) => void;
  /** E.g. '1-10 of 25', shown before the pages. */
  totalText?: ReactNode;
  disabled?: boolean;
}

/** The one pagination control of the console (every shared table pages through it). */
export function Pagination({ current, total, pageSize, onChange, totalText, disabled = false }: PaginationProps) {
  // xs is below 576 px; a screen that matches no query (or none measured yet) counts as wide.
  const compact = Grid.useBreakpoint().xs === true;
  const pageCount = Math.max(1, Math.ceil(total / pageSize));
  const page = Math.min(Math.max(1, current), pageCount);
  const go = (target: number) => {
    if (target !== page && target >= 1 && target <= pageCount) onChange(target);
  };
  return (
    // Wraps rather than overflowing: on a phone the control may take two lines, never a sideways scroll.
    <nav
      aria-label="Pagination"
      className="cw-pagination"
      style={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', justifyContent: 'flex-end', gap: 8, marginTop: 12 }}
    >
      {totalText ? <span className="cw-pagination-total">{totalText}</span> : null}
      {/* The count may go to a line of its own; the pages never split, so 'next' stays beside them. */}
      <ul style={{ display: 'flex', flexWrap: 'nowrap', alignItems: 'center', gap: compact ? 2 : 4, listStyle: 'none', margin: 0, padding: 0 }}>
        <li>
          <Button size="small" type="text" disabled={disabled || page <= 1} onClick={() => go(page - 1)}>
            {PREVIOUS_LABEL}
          </Button>
        </li>
        {pageItems(page, pageCount, compact).map((item) =>
          typeof item === 'number' ? (
            <li key={item}>
              <Button
                size="small"
                type={item === page ? 'primary' : 'text'}
                disabled={disabled}
                aria-label={`Page ${item}`}
                aria-current={item === page ? 'page' : undefined}
                title={String(item)}
                onClick={() => go(item)}
              >
                {item}
              </Button>
            </li>
          ) : (
            <li key={item} aria-hidden="true" style={{ padding: '0 4px', color: MUTED_TEXT }}>
              …
            </li>
          ),
        )}
        <li>
          <Button size="small" type="text" disabled={disabled || page >= pageCount} onClick={() => go(page + 1)}>
            {NEXT_LABEL}
          </Button>
        </li>
      </ul>
    </nav>
  );
}
