import { CaretDownOutlined, CaretUpOutlined } from '@ant-design/icons';
import { useLayoutEffect, useRef, useState, type RefObject } from 'react';

/**
 * Whether the element is in the copy of the header antd draws, hidden, to measure the columns: a
 * control there must stay out of the tab order (axe aria-hidden-focus).
 */
export function useInMeasureCopy<E extends HTMLElement>(): [RefObject<E | null>, boolean] {
  const ref = useRef<E>(null);
  const [inCopy, setInCopy] = useState(false);
  useLayoutEffect(() => {
    setInCopy(ref.current?.closest('[aria-hidden="true"]') != null);
  }, []);
  return [ref, inCopy];
}

/**
 * A sortable column's sort control: a real button beside the title, so the header cell is no control
 * itself (a focusable header holding the filter button was a control inside a control, axe
 * nested-interactive). The cell's own click handler sorts, as antd set it up; Enter is kept from also
 * reaching the cell's key handler, which would sort a second time before the button's click.
 */
export function SortButton({ title, order }: { title: string; order: 'ascend' | 'descend' | null | undefined }) {
  const [ref, inCopy] = useInMeasureCopy<HTMLButtonElement>();
  return (
    <button
      ref={ref}
      type="button"
      tabIndex={inCopy ? -1 : 0}
      aria-label={`Sort by ${title}`}
      className="ant-table-column-sorter ant-table-column-sorter-full cw-sort-button"
      onKeyDown={(event) => {
        if (event.key === 'Enter') event.stopPropagation();
      }}
      style={{ background: 'none', border: 0, padding: 0, font: 'inherit', cursor: 'pointer' }}
    >
      <span className="ant-table-column-sorter-inner" aria-hidden="true">
        <CaretUpOutlined className={`ant-table-column-sorter-up${order === 'ascend' ? ' active' : ''}`} />
        <CaretDownOutlined className={`ant-table-column-sorter-down${order === 'descend' ? ' active' : ''}`} />
      </span>
    </button>
  );
}
