import { FileExcelOutlined, MailOutlined } from '@ant-design/icons';
import { Alert, App, Button, Card, Empty, Flex, Skeleton, Tabs, Typography } from 'antd';
import { Suspense, lazy, useEffect, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import type { FileResponse, MessageResponse, ReportTable, SITE_REPORT_TABS, SiteOption, SiteReport } from 'api/contracts';
import { api, errorMessage, useSession } from 'shared-auth';
import { DataTable, InfoBanner, PageContainer, SiteSelect, StatusTag, downloadExport, type DataColumn } from 'shared-ui';

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

const CHOOSE_A_SITE = 'Choose a site to see its report.';

/** Leaflet and the map come with their own chunk, fetched only once a site is chosen. */
const SiteMap = lazy(() => import('../../map/SiteMap'));

/** The server's typed search: at most 20 options. */
async function findSites(query: string): Promise<SiteOption[]> {
  const { data } = await api.get<SiteOption[]>('Monitoring/GetSiteList', { params: { query }, skipLoading: true });
  return data;
}

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

/** Fetches the report of a site; a refusal (unknown site) is said where the report would be. */
function useSiteReport(siteId: string | null) {
  const [state, setState] = useState<{ siteId: string | null; report: SiteReport | null; error: string | null }>({ siteId: null, report: null, error: null });
  useEffect(() => {
    if (siteId === null) return;
    let live = true;
    api
      .get<SiteReport>('Monitoring/GetSiteReport', { params: { siteId }, skipLoading: true, skipErrorHandling: true })
      .then(({ data }) => live && setState({ siteId, report: data, error: null }))
      .catch((error: unknown) => live && setState({ siteId, report: null, error: errorMessage(error) }));
    return () => {
      live = false;
    };
  }, [siteId]);
  if (siteId === null) return { report: null, error: null, loading: false };
  return state.siteId === siteId ? { ...state, loading: false } : { report: null, error: null, loading: true };
}

function ReportTabs({ report }: { report: SiteReport }) {
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
            </Flex>
          ),
        };
      })}
    />
  );
}

export default function SiteReportPage() {
  const { notification } = App.useApp();
  const userId = useSession((s) => s.user.id);
  const [search, setSearch] = useSearchParams();
  const siteId = search.get('siteId')?.trim() || null;
  const { report, error, loading } = useSiteReport(siteId);
  const [exporting, setExporting] = useState(false);
  const [mailing, setMailing] = useState(false);

  const choose = (value: string | string[]) => {
    const chosen = Array.isArray(value) ? value[0] : value;
    setSearch(chosen ? { siteId: chosen } : {});
  };

  const excel = async () => {
    if (!siteId) return;
    setExporting(true);
    try {
      const { data } = await api.get<FileResponse>('Monitoring/GetSiteReportExcel', { params: { siteId } });
      await downloadExport(data.file);
    } catch {
      // The API client has shown why (a 599 'No logs parsed yet …' as a warning); download failures stay silent.
    } finally {
      setExporting(false);
    }
  };

  const email = async () => {
    if (!siteId) return;
    setMailing(true);
    try {
      const { data } = await api.get<MessageResponse>('Monitoring/GetSiteReportEmail', { params: { siteId, userId } });
      notification.success({ title: data.message });
    } catch {
      // The API client has shown why.
    } finally {
      setMailing(false);
    }
  };

  return (
    <PageContainer
      title="Site Report"
      actions={
        <>
          <Button icon={<MailOutlined />} disabled={!siteId || userId === null} loading={mailing} onClick={() => void email()}>
            Email Report
          </Button>
          <Button icon={<FileExcelOutlined />} disabled={!siteId} loading={exporting} onClick={() => void excel()}>
            Excel Report
          </Button>
        </>
      }
    >
      <Flex wrap gap={12} align="center">
        <SiteSelect value={siteId ?? undefined} onChange={choose} source={findSites} style={{ width: 360, maxWidth: '100%' }} />
        {report && (
          <Typography.Text strong>
            {report.siteId}
            {report.siteName ? ` – ${report.siteName}` : ''}
          </Typography.Text>
        )}
      </Flex>
      {report && <InfoBanner label="Logs date" date={report.logsDate} fallback="Logs date unavailable!" />}
      <Card>
        {error ? (
          <Alert type="error" showIcon title={error} />
        ) : loading ? (
          <Skeleton active aria-label="Loading the site report" />
        ) : report ? (
          <ReportTabs key={report.siteId} report={report} />
        ) : (
          <Empty description={CHOOSE_A_SITE} />
        )}
      </Card>
      {siteId && !error && (
        <Card title="Map" size="small">
          <Suspense fallback={<Skeleton.Node active style={{ width: '100%', height: 360 }} aria-label="Loading the site map" />}>
            <SiteMap focusSiteId={siteId} height={360} />
          </Suspense>
        </Card>
      )}
    </PageContainer>
  );
}
