import { useLayoutEffect, useRef, useState, type HTMLAttributes, type KeyboardEvent, type PointerEvent } from 'react';
import { clampWidth, MAX_COLUMN_WIDTH, MIN_COLUMN_WIDTH } from './columnSettingsProps';

/** A keyboard step of a column's width, and the larger one with Shift. */
export const RESIZE_STEP_PX = 16;
export const RESIZE_BIG_STEP_PX = 64;

export interface ColumnResize {
  title: string;
  /** The width set by the user, or null for the table's own (then the cell's rendered width is the start). */
  width: number | null;
  /** While dragging: the width to show (not yet kept). */
  onResize: (width: number) => void;
  /** A finished drag or key press: the width to keep. */
  onResizeEnd: (width: number) => void;
}

type CellProps = HTMLAttributes<HTMLTableCellElement> & {
  resize?: ColumnResize;
  /**
   * The column sorts through its own button (SortButton): the cell leaves the tab order antd puts it in,
   * so the keyboard meets the sort, filter and resize controls rather than a cell holding them.
   */
  sortButton?: boolean;
};

/**
 * A header cell with a handle on its right edge to drag its column wider or narrower, which is also a
 * keyboard control (a focusable separator: arrow keys change the width). Neither a drag nor a key on
 * the handle reaches the cell, so resizing never sorts the column.
 */
export function ResizableHeaderCell({ resize, sortButton, children, ...props }: CellProps) {
  const cell = sortButton ? { ...props, tabIndex: undefined } : props;
  const ref = useRef<HTMLTableCellElement>(null);
  const drag = useRef<{ startX: number; startWidth: number; width: number } | null>(null);
  const [measured, setMeasured] = useState(MIN_COLUMN_WIDTH);
  const hasResize = resize !== undefined;
  useLayoutEffect(() => {
    if (hasResize && ref.current) setMeasured(clampWidth(ref.current.getBoundingClientRect().width));
  }, [hasResize]);
  if (!resize) {
    return (
      <th {...cell} ref={ref}>
        {children}
      </th>
    );
  }
  const currentWidth = () => resize.width ?? Math.round(ref.current?.getBoundingClientRect().width ?? 0);
  const onPointerDown = (event: PointerEvent<HTMLSpanElement>) => {
    event.preventDefault();
    event.stopPropagation();
    event.currentTarget.setPointerCapture?.(event.pointerId);
    const startWidth = currentWidth();
    drag.current = { startX: event.clientX, startWidth, width: startWidth };
  };
  const onPointerMove = (event: PointerEvent<HTMLSpanElement>) => {
    if (!drag.current) return;
    drag.current.width = clampWidth(drag.current.startWidth + event.clientX - drag.current.startX);
    resize.onResize(drag.current.width);
  };
  const onPointerUp = (event: PointerEvent<HTMLSpanElement>) => {
    if (!drag.current) return;
    event.stopPropagation();
    const { width, startWidth } = drag.current;
    drag.current = null;
    if (width !== startWidth) resize.onResizeEnd(width);
  };
  const onKeyDown = (event: KeyboardEvent<HTMLSpanElement>) => {
    const step = event.shiftKey ? RESIZE_BIG_STEP_PX : RESIZE_STEP_PX;
    const by = event.key === 'ArrowRight' ? step : event.key === 'ArrowLeft' ? -step : 0;
    // Enter or Space on the handle must not reach the header (it would sort).
    if (by === 0 && event.key !== 'Enter' && event.key !== ' ') return;
    event.preventDefault();
    event.stopPropagation();
    if (by !== 0) resize.onResizeEnd(clampWidth(currentWidth() + by));
  };
  // A focusable separator is a control: it must say its value (axe aria-required-attr, issue 47). With no
  // width of the user's, that is the width the cell is drawn at.
  const width = resize.width;
  const valueNow = width ?? measured;
  return (
    <th {...cell} ref={ref}>
      {children}
      <span
        role="separator"
        aria-orientation="vertical"
        aria-label={`Resize ${resize.title}`}
        aria-valuenow={valueNow}
        aria-valuemin={MIN_COLUMN_WIDTH}
        aria-valuemax={MAX_COLUMN_WIDTH}
        aria-valuetext={width === null ? 'automatic width' : `${width} px`}
        tabIndex={0}
        className="cw-column-resize"
        onPointerDown={onPointerDown}
        onPointerMove={onPointerMove}
        onPointerUp={onPointerUp}
        onPointerCancel={() => {
          drag.current = null;
        }}
        onClick={(event) => event.stopPropagation()}
        onKeyDown={onKeyDown}
        style={{ position: 'absolute', top: 0, bottom: 0, insetInlineEnd: 0, width: 8, cursor: 'col-resize', zIndex: 1, touchAction: 'none' }}
      />
    </th>
  );
}
