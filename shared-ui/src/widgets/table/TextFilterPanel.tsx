import { Button, Input, Space } from 'antd';
import { useState } from 'react';
import type { FilterDropdownProps } from 'antd/es/table/interface';

/**
 * A column's text filter, as its header's filter dropdown shows it. Its own module, loaded the first
 * time a filter opens: a table page then loads no text input until someone filters.
 */
export default function TextFilterPanel({
  label,
  placeholder,
  selectedKeys,
  setSelectedKeys,
  confirm,
  clearFilters,
}: Pick<FilterDropdownProps, 'selectedKeys' | 'setSelectedKeys' | 'confirm' | 'clearFilters'> & { label: string; placeholder: string }) {
  // The filter button that opened the panel has the focus when the panel first draws (its input takes it
  // after). Kept here, not in a module variable: a shell's and a remote's copy of this module would split it.
  const [opener] = useState(() => (document.activeElement instanceof HTMLElement ? document.activeElement : null));
  // The panel's input goes with the panel: without giving the focus back it fell to the page's top.
  const done = () => {
    confirm();
    if (opener?.isConnected) opener.focus();
  };
  return (
    <Space orientation="vertical" style={{ padding: 8 }}>
      <Input
        autoFocus
        aria-label={label}
        placeholder={placeholder}
        value={String(selectedKeys[0] ?? '')}
        onChange={(e) => setSelectedKeys(e.target.value ? [e.target.value] : [])}
        onPressEnter={done}
      />
      <Space>
        <Button type="primary" size="small" onClick={done}>
          Filter
        </Button>
        <Button
          size="small"
          onClick={() => {
            clearFilters?.();
            done();
          }}
        >
          Reset
        </Button>
      </Space>
    </Space>
  );
}
