import { Button, Input, Space } from 'antd';
import type { FilterDropdownProps } from 'antd/es/table/interface';
import { returnFocusToFilterOpener } from './headerControls';

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
  // The panel's input goes with the panel: without this the focus fell to the page's top.
  const done = () => {
    confirm();
    returnFocusToFilterOpener();
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
