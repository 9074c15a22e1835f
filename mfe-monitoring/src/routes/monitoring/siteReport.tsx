import { FileExcelOutlined, MailOutlined } from '@ant-design/icons';
import { Alert, App, Button, Card, Empty, Flex, Skeleton, Tag, Typography } from 'antd';
import { Suspense, lazy, useEffect, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import type { FileResponse, MessageResponse, SiteOption, SiteReport } from 'api/contracts';
import { api, errorMessage, useSession } from 'shared-auth';
import { InfoBanner, PageContainer, SiteSelect, downloadExport } from 'shared-ui';
import { sharedWithText } from '../../sharing';

const CHOOSE_A_SITE = 'Choose a site to see its report.';

/** Leaflet and the map come with their own chunk, fetched only once a site is chosen. */
const SiteMap = lazy(() => import('../../map/SiteMap'));

/** The server's typed search: at most 20 options. */
async function findSites(query: string): Promise<SiteOption[]> {
  const { data } = await api.get<SiteOption[]>('Monitoring/GetSiteList', { params: { query }, skipLoading: true });
  return data;
}

/** Fetches the report of a site; a refusal (unknown site) is said where the report would be. */
function useSiteReport(siteId: string | null) {
  const [state, setState] = useState<{ siteId: string | null; report: SiteReport | null; error: string | null }>({ siteId: null, report: null, error: null });
  useEffect(() => {
    if (siteId === null) return;
    void loadReportTabs();
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

// The report's tabs and tables load once a site is chosen (fetched beside the report), not with the page.
const loadReportTabs = () => import('../../monitoring/siteReportTabs');
const ReportTabs = lazy(() => loadReportTabs().then((m) => ({ default: m.ReportTabs })));

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
        {report && sharedWithText(report) && <Tag color="blue">{sharedWithText(report)}</Tag>}
      </Flex>
      {report && <InfoBanner label="Logs date" date={report.logsDate} fallback="Logs date unavailable!" />}
      <Card>
        {error ? (
          <Alert type="error" showIcon title={error} />
        ) : loading ? (
          <Skeleton active aria-label="Loading the site report" />
        ) : report ? (
          <Suspense fallback={<Skeleton active aria-label="Loading the site report" />}>
            <ReportTabs key={report.siteId} report={report} />
          </Suspense>
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
