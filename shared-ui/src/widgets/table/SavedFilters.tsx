import { FilterOutlined } from '@ant-design/icons';
import type { SavedFilter } from 'api/contracts';
import { Button, Popover } from 'antd';
import { lazy, Suspense, useState } from 'react';
import { PanelLoading } from './PanelLoading';

/** The most characters of a saved filter's name (the API's bound). */
export const FILTER_NAME_MAX = 60;

export interface SavedFiltersProps {
  tableName: string;
  saved: readonly SavedFilter[];
  /** The table's filters now (field → text). */
  current: Record<string, string>;
  /** Field → column title, to say what a filter holds. */
  titles: Record<string, string>;
  onApply: (filters: Record<string, string>) => void;
  onSave: (name: string, filters: Record<string, string>) => Promise<string | null>;
  onDelete: (name: string) => Promise<string | null>;
}

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
