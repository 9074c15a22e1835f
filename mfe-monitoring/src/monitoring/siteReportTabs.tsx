import { Empty, Flex, Tabs } from 'antd';
import type { ReportTable, SITE_REPORT_TABS, SiteReport } from 'api/contracts';
import { useAlarmsVersion } from 'shared-auth';
import { DataTable, StatusTag, type DataColumn } from 'shared-ui';
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

/** One report table through the shared table: TableName as caption, the displayed columns of TableStructure, TableData rows. */
export function ReportTableView({ table }: { table: ReportTable }) {
  const columns: Array<DataColumn<ReportRow>> = table.TableStructure.filter((c) => c.options.display).map((c) => ({
    key: c.name,
    title: c.label,
    kind: tableKind(c.options.kind),
    filter: c.options.filter,
    ...(c.options.kind === 'status' ? { render: (row: ReportRow) => <StatusTag value={row[c.name] as string | null} /> } : {}),
  }));
  const rows: ReportRow[] = table.TableData.map((row, index) => ({ ...row, __row: index }));
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

export function ReportTabs({ report }: { report: SiteReport }) {
  const alarmsVersion = useAlarmsVersion();
  return (
    <Tabs
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
