import { DeleteOutlined } from '@ant-design/icons';
import { Alert, Button, Flex, Input, Typography } from 'antd';
import { useState } from 'react';
import { FILTER_NAME_MAX, type SavedFiltersProps } from './savedFiltersProps';
import { Note } from '../Note';

const describe = (filters: Record<string, string>, titles: Record<string, string>) =>
  Object.entries(filters)
    .map(([field, text]) => `${titles[field] ?? field}: ${text}`)
    .join(', ');

export default function SavedFilterPanel({
  saved,
  current,
  titles,
  onApply,
  onSave,
  onDelete,
  close,
}: Omit<SavedFiltersProps, 'tableName'> & { close: () => void }) {
  const [name, setName] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const filtering = Object.keys(current).length > 0;
  const replaces = saved.some((f) => f.name === name.trim());
  const save = async () => {
    setBusy(true);
    const failed = await onSave(name.trim(), current);
    setBusy(false);
    setProblem(failed);
    if (!failed) setName('');
  };
  return (
    <Flex vertical gap={8} style={{ width: 'min(320px, calc(100vw - 48px))' }}>
      {saved.length === 0 ? (
        <Note>No saved filters yet. Filter the table, then save its filters under a name.</Note>
      ) : (
        <ul aria-label="Saved filters" style={{ listStyle: 'none', margin: 0, padding: 0, maxHeight: 'min(280px, 40vh)', overflowY: 'auto' }}>
          {saved.map((f) => (
            <li key={f.name} style={{ display: 'flex', alignItems: 'center', gap: 4, padding: '2px 0' }}>
              <Flex vertical style={{ flex: 1, minWidth: 0 }}>
                <Button
                  type="link"
                  size="small"
                  aria-label={`Apply saved filter ${f.name}`}
                  onClick={() => {
                    onApply(f.filters);
                    close();
                  }}
                  style={{ padding: 0, height: 'auto', textAlign: 'start', justifyContent: 'flex-start', maxWidth: '100%' }}
                >
                  <Typography.Text ellipsis={{ tooltip: f.name }} style={{ color: 'inherit' }}>
                    {f.name}
                  </Typography.Text>
                </Button>
                <Typography.Text type="secondary" ellipsis={{ tooltip: describe(f.filters, titles) }} style={{ fontSize: 12 }}>
                  {describe(f.filters, titles)}
                </Typography.Text>
              </Flex>
              <Button
                size="small"
                type="text"
                danger
                icon={<DeleteOutlined />}
                aria-label={`Delete saved filter ${f.name}`}
                onClick={async () => setProblem(await onDelete(f.name))}
              />
            </li>
          ))}
        </ul>
      )}
      <Flex gap={4}>
        <Input
          size="small"
          aria-label="Name of the filter"
          placeholder={filtering ? 'Name the current filters' : 'Filter the table first'}
          maxLength={FILTER_NAME_MAX}
          disabled={!filtering}
          value={name}
          onChange={(e) => setName(e.target.value)}
          onPressEnter={() => {
            if (name.trim() && filtering && !busy) void save();
          }}
        />
        <Button size="small" type="primary" disabled={!filtering || !name.trim()} loading={busy} onClick={() => void save()}>
          {replaces ? 'Replace' : 'Save'}
        </Button>
      </Flex>
      {filtering ? <Note style={{ fontSize: 12 }}>Now: {describe(current, titles)}</Note> : null}
      {problem ? <Alert type="error" showIcon title={problem} role="alert" /> : null}
    </Flex>
  );
}
