import { ArrowDownOutlined, ArrowUpOutlined } from '@ant-design/icons';
import { Button, Checkbox, Flex, InputNumber, Typography } from 'antd';
import type { ArrangeableColumn, ArrangedColumn } from './arrange';
import { moveColumn } from './arrange';
import { MAX_COLUMN_WIDTH, MIN_COLUMN_WIDTH, type ColumnSettingsProps } from './columnSettingsProps';
import { Note } from '../Note';

/** The list of a table's columns: show or hide each, move it up or down, set its width (empty: the table's own). */
export default function ColumnList<C extends ArrangeableColumn>({ arranged, onChange, onReset }: Omit<ColumnSettingsProps<C>, 'tableName'>) {
  const shown = arranged.filter((a) => !a.hidden).length;
  const update = (key: string, change: Partial<Pick<ArrangedColumn<C>, 'hidden' | 'width'>>) =>
    onChange(arranged.map((a) => (a.column.key === key ? { ...a, ...change } : a)));
  return (
    <Flex vertical gap={8} style={{ width: 'min(320px, calc(100vw - 48px))' }}>
      <ul aria-label="Columns" style={{ listStyle: 'none', margin: 0, padding: 0, maxHeight: 'min(360px, 50vh)', overflowY: 'auto' }}>
        {arranged.map((a, index) => (
          <li key={a.column.key} data-column={a.column.key} style={{ display: 'flex', alignItems: 'center', gap: 4, padding: '2px 0' }}>
            <Checkbox
              checked={!a.hidden}
              // The last column shown stays: a table of no columns shows nothing to turn them back on from.
              disabled={!a.hidden && shown === 1}
              onChange={(e) => update(a.column.key, { hidden: !e.target.checked })}
              style={{ flex: 1, minWidth: 0 }}
            >
              <Typography.Text ellipsis={{ tooltip: a.column.title }}>{a.column.title}</Typography.Text>
            </Checkbox>
            <Button
              size="small"
              type="text"
              icon={<ArrowUpOutlined />}
              aria-label={`Move ${a.column.title} up`}
              disabled={index === 0}
              onClick={() => onChange(moveColumn(arranged, a.column.key, -1))}
            />
            <Button
              size="small"
              type="text"
              icon={<ArrowDownOutlined />}
              aria-label={`Move ${a.column.title} down`}
              disabled={index === arranged.length - 1}
              onClick={() => onChange(moveColumn(arranged, a.column.key, 1))}
            />
            <InputNumber<number>
              size="small"
              aria-label={`Width of ${a.column.title}`}
              placeholder={a.column.width === undefined ? 'auto' : String(a.column.width)}
              min={MIN_COLUMN_WIDTH}
              max={MAX_COLUMN_WIDTH}
              step={10}
              precision={0}
              value={a.width}
              // Typed digit by digit, a width passes through values below the least: only a whole, valid width is kept.
              onChange={(value) => {
                if (value === null) update(a.column.key, { width: null });
                else if (value >= MIN_COLUMN_WIDTH && value <= MAX_COLUMN_WIDTH) update(a.column.key, { width: Math.round(value) });
              }}
              style={{ width: 76 }}
            />
          </li>
        ))}
      </ul>
      <Flex justify="space-between" align="center">
        <Note style={{ fontSize: 12 }}>Widths in px; drag a header&apos;s edge too.</Note>
        <Button size="small" onClick={onReset}>
          Reset columns
        </Button>
      </Flex>
    </Flex>
  );
}
