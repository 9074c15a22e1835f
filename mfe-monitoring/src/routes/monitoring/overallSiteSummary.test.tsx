import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { OverallSiteSummaryRow } from 'contracts';
import OverallSiteSummaryPage from './overallSiteSummary';
import { fakeApi, renderPage, signIn, tagsIn } from '../../testing/monitoringKit';

const overallRow: OverallSiteSummaryRow = {
  siteId: 'LX0001',
  siteName: 'Lisboa Centro',
  commissioningDate: null,
  currentStatus: 'On Air',
  overallSiteStatus: 'NOK',
  performanceStatus: 'N/A',
  alarmStatus: 'OK',
  radioStatus: 'NOK',
  coreStatus: 'OK',
  sharedWith: null,
  shareMode: null,
};

beforeEach(() => signIn());
afterEach(() => jest.restoreAllMocks());

describe('Overall Site Summary', () => {
  test('every status is a tag (N/A neutral) and the site id opens its site report', async () => {
    fakeApi({ 'Monitoring/GetOverallSiteSummary': { rows: [overallRow], total: 1 }, 'Monitoring/GetPerformanceLastImport': '' });
    await renderPage(OverallSiteSummaryPage, '/monitoring/overallSiteSummary');
    const row = await waitFor(() => {
      const found = document.querySelector('tr.ant-table-row');
      if (!found) throw new Error('no row yet');
      return found;
    });
    const tags = tagsIn(row);
    expect(tags.map(([text]) => text)).toEqual(['NOK', 'N/A', 'OK', 'NOK', 'OK']);
    expect(tags[1]![1]).not.toMatch(/red|green/);
    expect(
      within(row as HTMLElement)
        .getByText('LX0001')
        .closest('a'),
    ).toHaveAttribute('href', '/monitoring/siteReport?siteId=LX0001');
  });

  test('says Performance Status is N/A until PM counters are imported; only Administrators may import them', async () => {
    fakeApi({ 'Monitoring/GetOverallSiteSummary': { rows: [overallRow], total: 1 }, 'Monitoring/GetPerformanceLastImport': '' });
    signIn('CellwiseHQ');
    await renderPage(OverallSiteSummaryPage, '/monitoring/overallSiteSummary');
    expect(await screen.findByText('PM counters unavailable: Performance Status is N/A.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Import PM Counters/ })).toBeNull();
  });

  test('an Administrator opens the PM counter import for .zip files', async () => {
    fakeApi({ 'Monitoring/GetOverallSiteSummary': { rows: [overallRow], total: 1 }, 'Monitoring/GetPerformanceLastImport': '2026-05-02T08:00:00Z' });
    signIn('Administrator');
    await renderPage(OverallSiteSummaryPage, '/monitoring/overallSiteSummary');
    expect(await screen.findByText(/PM counters date: 02-05-2026/)).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: /Import PM Counters/ }));
    expect(await screen.findByText('Import PM Counters (.zip of measCollecFile XML)')).toBeInTheDocument();
    expect(document.querySelector('input[type="file"]')).toHaveAttribute('accept', '.zip');
  });
});
