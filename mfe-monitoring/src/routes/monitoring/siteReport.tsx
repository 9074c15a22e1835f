import { FieldTimeOutlined, FileExcelOutlined, MailOutlined } from '@ant-design/icons';
import { Alert, Button, Card, Empty, Flex, Skeleton, Tag, Typography } from 'antd';
import { Suspense, lazy, useEffect, useState } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import type { FileResponse, SiteOption, SiteReport } from 'contracts';
import { api, can, errorMessage, principalOf, useSession } from 'shared-auth';
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
// Mailing to a list and the daily digests load when first opened (issue 47).
const loadReportMail = () => import('../../monitoring/reportMail');
const ReportMailDialog = lazy(() => loadReportMail().then((m) => ({ default: m.ReportMailDialog })));
const DigestDialog = lazy(() => loadReportMail().then((m) => ({ default: m.DigestDialog })));

export default function SiteReportPage() {
  const userId = useSession((s) => s.user.id);
  const isAdministrator = useSession((s) => can(principalOf(s), 'canAdminister'));
  const canPlan = useSession((s) => can(principalOf(s), 'canPlan'));
  const canValidate = useSession((s) => can(principalOf(s), 'canValidate'));
  const [search, setSearch] = useSearchParams();
  // ?site= is what the other site pages and the top bar's search carry (issue 47); ?siteId= the specification's.
  const siteId = search.get('siteId')?.trim() || search.get('site')?.trim() || null;
  const { report, error, loading } = useSiteReport(siteId);
  const [exporting, setExporting] = useState(false);
  const [mailing, setMailing] = useState(false);
  const [digests, setDigests] = useState(false);

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

  return (
    <PageContainer
      title="Site Report"
      actions={
        <>
          <Button
            icon={<MailOutlined />}
            disabled={!siteId || userId === null}
            onClick={() => setMailing(true)}
            onPointerEnter={() => void loadReportMail()}
            onFocus={() => void loadReportMail()}
          >
            Email Report
          </Button>
          {isAdministrator ? (
            <Button
              icon={<FieldTimeOutlined />}
              onClick={() => setDigests(true)}
              onPointerEnter={() => void loadReportMail()}
              onFocus={() => void loadReportMail()}
            >
              Daily digest
            </Button>
          ) : null}
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
        {/* The same site on the pages run for it: they read ?site= (issue 47). */}
        {report && (canPlan || canValidate) && (
          <Flex wrap gap={12} component="nav" aria-label="This site elsewhere">
            {canPlan && <Link to={`/planning/parameterplanning?site=${encodeURIComponent(report.siteId)}`}>Plan parameters</Link>}
            {canValidate && <Link to={`/validation/nbrRelationsValidation?site=${encodeURIComponent(report.siteId)}`}>Validate neighbours</Link>}
            {canValidate && <Link to={`/validation/healthChecks?site=${encodeURIComponent(report.siteId)}`}>Health check</Link>}
          </Flex>
        )}
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
      <Suspense fallback={null}>
        {mailing && siteId && userId !== null ? <ReportMailDialog siteId={siteId} userId={userId} onClose={() => setMailing(false)} /> : null}
        {digests ? <DigestDialog onClose={() => setDigests(false)} /> : null}
      </Suspense>
    </PageContainer>
  );
}
