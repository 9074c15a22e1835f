import { FilterOutlined } from '@ant-design/icons';
import { Button, Popover } from 'antd';
import { lazy, Suspense, useState } from 'react';
import { PanelLoading } from './PanelLoading';
import type { SavedFiltersProps } from './savedFiltersProps';

// Loaded when the control is first opened or pointed at, as the Columns list is (ColumnSettings).
const loadSavedFilterPanel = () => import('./SavedFilterPanel');
const SavedFilterPanel = lazy(loadSavedFilterPanel);

/** The table's Saved filters control: save the current filters under a name, apply one, delete one. */
export function SavedFilters(props: SavedFiltersProps) {
  const [open, setOpen] = useState(false);
  const { tableName, ...panel } = props;
  return (
    <Popover
      trigger="click"
      // Centred under its button: antd shifts a 'bottom' popover sideways to stay on screen (a phone), which it does not do for 'bottomRight'.
      placement="bottom"
      title="Saved filters"
      open={open}
      onOpenChange={setOpen}
      content={
        <Suspense fallback={<PanelLoading />}>
          <SavedFilterPanel {...panel} close={() => setOpen(false)} />
        </Suspense>
      }
    >
      <Button
        size="small"
        icon={<FilterOutlined />}
        aria-label={`Saved filters of ${tableName}`}
        onPointerEnter={() => void loadSavedFilterPanel()}
        onFocus={() => void loadSavedFilterPanel()}
      >
        Saved filters
      </Button>
    </Popover>
  );
}
