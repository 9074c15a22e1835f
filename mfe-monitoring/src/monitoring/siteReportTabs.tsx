import { Descriptions, Empty, Flex, Grid, Tabs, Typography } from 'antd';
import { useState } from 'react';
import type { ReportTable, SITE_REPORT_TABS, SiteReport } from 'contracts';
import { useAlarmsVersion } from 'shared-auth';
import { DataTable, Pagination, StatusTag, TABLE_PAGE_SIZE, formatDate, type DataColumn } from 'shared-ui';
import { AlarmChanges } from './alarmConsole';

// The site report's tabs and tables (siteReport.tsx loads them once a site is chosen).

/** Report tabs in the specification's order; Summary is the default. Typed by the API's list, so the two cannot drift apart. */
export const REPORT_TABS: typeof SITE_REPORT_TABS = [
  'Summary',
  'RET Information',
  'Alarms',
  'Configuration Check 2G',
  'Configuration Check 3G',
  'Configuration Check 4G',
  'Configuration Check 5G',
  'Configuration Check NBIoT',
];

type ReportRow = Record<string, string | number | null> & { __row: number };

/** How the shared table shows a column of the given kind ('status' draws a tag instead). */
function tableKind(kind: string): DataColumn<ReportRow>['kind'] {
  return kind === 'date' || kind === 'number' ? kind : 'text';
}

/**
 * A report table on a phone: one block per row, each column as a label beside its value, so each status
 * reads without scrolling sideways (issue 47: at 390 px the statuses were off to the right of a
 * nine-column table). Values shown as the shared table shows them; paged like it.
 */
function StackedRows({ table, columns, rows }: { table: ReportTable; columns: Array<DataColumn<ReportRow>>; rows: ReportRow[] }) {
  const [page, setPage] = useState(1);
  const shown = rows.slice((page - 1) * TABLE_PAGE_SIZE, page * TABLE_PAGE_SIZE);
  const valueOf = (column: DataColumn<ReportRow>, row: ReportRow) => {
    if (column.render) return column.render(row);
    const cell = row[column.key];
    if (cell === null || cell === undefined) return '';
    return column.kind === 'date' ? formatDate(cell as string) : String(cell);
  };
  return (
    <section className="cw-report-rows" aria-label={table.TableName} style={{ minWidth: 0 }}>
      <Typography.Text strong style={{ display: 'block', marginBottom: 8 }}>
        {table.TableName}
      </Typography.Text>
      {rows.length === 0 ? (
        <Empty description={`Nothing in ${table.TableName} for this site.`} />
      ) : (
        <Flex vertical gap={12}>
          {shown.map((row) => (
            <Descriptions
              key={row.__row}
              size="small"
              bordered
              column={1}
              items={columns.map((column) => ({ key: column.key, label: column.title, children: valueOf(column, row) }))}
              styles={{ label: { width: '45%' }, content: { overflowWrap: 'anywhere' } }}
            />
          ))}
          {rows.length > TABLE_PAGE_SIZE ? <Pagination current={page} total={rows.length} pageSize={TABLE_PAGE_SIZE} onChange={setPage} /> : null}
        </Flex>
      )}
    </section>
  );
}

/**
 * One report table through the shared table: TableName as caption, the displayed columns of
 * TableStructure, TableData rows; on a phone (below 576 px) as stacked rows instead.
 */
export function ReportTableView({ table }: { table: ReportTable }) {
  // xs is below 576 px; a screen that matches no query (or none measured yet) counts as wide.
  const phone = Grid.useBreakpoint().xs === true;
  const columns: Array<DataColumn<ReportRow>> = table.TableStructure.filter((c) => c.options.display).map((c) => ({
    key: c.name,
    title: c.label,
    kind: tableKind(c.options.kind),
    filter: c.options.filter,
    ...(c.options.kind === 'status' ? { render: (row: ReportRow) => <StatusTag value={row[c.name] as string | null} /> } : {}),
  }));
  const rows: ReportRow[] = table.TableData.map((row, index) => ({ ...row, __row: index }));
  if (phone) return <StackedRows table={table} columns={columns} rows={rows} />;
  return (
    <DataTable
      tableKey={`monitoring.siteReport.${table.TableName.replace(/[^A-Za-z0-9]+/g, '-')}`}
      caption={table.TableName}
      columns={columns}
      rows={rows}
      rowKey="__row"
      emptyText={`Nothing in ${table.TableName} for this site.`}
    />
  );
}

/**
 * From 576 px up the tab bar wraps onto a second line rather than hiding tabs behind its '…' menu
 * (issue 47: at 1440 'Configuration Check NBIoT' was a 'C' sliver behind it). With every tab on show the
 * tab bar never scrolls; the sliding underline, placed for one line, gives way to one under the active tab.
 * On a phone the bar keeps antd's sideways swipe, where wrapping would stack four lines of tabs.
 */
const WRAPPED_TABS_CSS = `@media (min-width: 576px) {
  .cw-report-tabs > .ant-tabs-nav .ant-tabs-nav-list { flex-wrap: wrap; flex: 1 1 auto; min-width: 0; column-gap: 32px; }
  .cw-report-tabs > .ant-tabs-nav .ant-tabs-tab + .ant-tabs-tab { margin-inline-start: 0; }
  .cw-report-tabs > .ant-tabs-nav .ant-tabs-ink-bar { display: none; }
  .cw-report-tabs > .ant-tabs-nav .ant-tabs-tab-active { box-shadow: inset 0 -2px 0 var(--ant-color-primary, #0b6e79); }
}`;

export function ReportTabs({ report }: { report: SiteReport }) {
  const alarmsVersion = useAlarmsVersion();
  return (
    <>
      {/* React puts it in the document's head once, however many reports are open. */}
      <style href="cw-report-tabs" precedence="medium">
        {WRAPPED_TABS_CSS}
      </style>
      <ReportTabBar report={report} alarmsVersion={alarmsVersion} />
    </>
  );
}

function ReportTabBar({ report, alarmsVersion }: { report: SiteReport; alarmsVersion: number }) {
  return (
    <Tabs
      className="cw-report-tabs"
      defaultActiveKey="Summary"
      items={REPORT_TABS.map((tab) => {
        const tables = report.tables.filter((t) => t.TabName === tab);
        return {
          key: tab,
          label: tab,
          children: (
            <Flex vertical gap={16}>
              {tables.length === 0 ? (
                <Empty description={`Nothing in ${tab} for this site.`} />
              ) : (
                tables.map((table) => <ReportTableView key={table.TableName} table={table} />)
              )}
              {/* What changed between each node's two latest logs (issue 47), read live with the console. */}
              {tab === 'Alarms' ? <AlarmChanges siteId={report.siteId} version={alarmsVersion} /> : null}
            </Flex>
          ),
        };
      })}
    />
  );
}
