import { SettingOutlined } from '@ant-design/icons';
import { Button, Popover } from 'antd';
import { lazy, Suspense } from 'react';
import type { ArrangeableColumn } from './arrange';
import type { ColumnSettingsProps } from './columnSettingsProps';
import type ColumnListComponent from './ColumnList';
import { PanelLoading } from './PanelLoading';

// The list (checkboxes, width inputs) loads when the control is first opened or pointed at: every table
// page has this control, few of its visits open it.
const loadColumnList = () => import('./ColumnList');
// lazy() drops the list's type parameter; the component is the same.
const ColumnList = lazy(loadColumnList) as unknown as typeof ColumnListComponent;

/** The table's Columns control (NetBox-style column settings). */
export function ColumnSettings<C extends ArrangeableColumn>({ tableName, arranged, onChange, onReset }: ColumnSettingsProps<C>) {
  return (
    <Popover
      trigger="click"
      // Centred under its button: antd shifts a 'bottom' popover sideways to stay on screen (a phone), which it does not do for 'bottomRight'.
      placement="bottom"
      title="Columns"
      content={
        <Suspense fallback={<PanelLoading />}>
          <ColumnList arranged={arranged} onChange={onChange} onReset={onReset} />
        </Suspense>
      }
    >
      <Button
        size="small"
        icon={<SettingOutlined />}
        aria-label={`Columns of ${tableName}`}
        onPointerEnter={() => void loadColumnList()}
        onFocus={() => void loadColumnList()}
      >
        Columns
      </Button>
    </Popover>
  );
}
