import { SearchOutlined } from '@ant-design/icons';
import { Button, Input, Space, Table } from 'antd';
import type { ColumnType } from 'antd/es/table';
import { formatDate } from '../format';

/** Table rules of the specification (§2, §9): 10 rows a page, body 30em high, cells at most 250 px, text filters, dates DD-MM-YYYY HH:mm:ss. */
export const TABLE_PAGE_SIZE = 10;
export const TABLE_BODY_HEIGHT = '30em';
export const CELL_MAX_WIDTH = 250;

export interface DataColumn<Row> {
  key: keyof Row & string;
  title: string;
  kind?: 'text' | 'date' | 'number';
  /** Column is kept for the data but not shown (e.g. ids). */
  hidden?: boolean;
  render?: (row: Row) => React.ReactNode;
  filter?: boolean;
}

export interface DataTableProps<Row> {
  columns: Array<DataColumn<Row>>;
  rows: Row[];
  rowKey: keyof Row & string;
  loading?: boolean;
  caption?: string;
}

function textFilter<Row>(column: DataColumn<Row>): Partial<ColumnType<Row>> {
  return {
    filterIcon: (filtered: boolean) => <SearchOutlined style={{ color: filtered ? '#0b6e79' : undefined }} />,
    filterDropdown: ({ selectedKeys, setSelectedKeys, confirm, clearFilters }) => (
      <Space direction="vertical" style={{ padding: 8 }}>
        <Input
          autoFocus
          placeholder={`Filter ${column.title}`}
          value={String(selectedKeys[0] ?? '')}
          onChange={(e) => setSelectedKeys(e.target.value ? [e.target.value] : [])}
          onPressEnter={() => confirm()}
        />
        <Space>
          <Button type="primary" size="small" onClick={() => confirm()}>
            Filter
          </Button>
          <Button
            size="small"
            onClick={() => {
              clearFilters?.();
              confirm();
            }}
          >
            Reset
          </Button>
        </Space>
      </Space>
    ),
    onFilter: (value, row) => {
      const cell = row[column.key];
      const text = column.kind === 'date' ? formatDate(cell as string) : String(cell ?? '');
      return text.toLowerCase().includes(String(value).toLowerCase());
    },
  };
}

export function DataTable<Row extends object>({ columns, rows, rowKey, loading, caption }: DataTableProps<Row>) {
  const antColumns: Array<ColumnType<Row>> = columns
    .filter((c) => !c.hidden)
    .map((c) => ({
      key: c.key,
      dataIndex: c.key,
      title: c.title,
      ellipsis: true,
      onCell: () => ({ style: { maxWidth: CELL_MAX_WIDTH } }),
      render: (_: unknown, row: Row) => (c.render ? c.render(row) : c.kind === 'date' ? formatDate(row[c.key] as string) : String(row[c.key] ?? '')),
      ...(c.filter === false ? {} : textFilter(c)),
    }));
  return (
    <Table<Row>
      size="middle"
      columns={antColumns}
      dataSource={rows}
      rowKey={rowKey}
      loading={loading}
      title={caption ? () => <strong>{caption}</strong> : undefined}
      scroll={{ y: TABLE_BODY_HEIGHT, x: 'max-content' }}
      pagination={{ pageSize: TABLE_PAGE_SIZE, showSizeChanger: false, hideOnSinglePage: false }}
    />
  );
}
