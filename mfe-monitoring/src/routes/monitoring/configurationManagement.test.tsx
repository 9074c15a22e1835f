import { screen, waitFor, within } from '@testing-library/react';
import type { ConfigurationSummaryRow } from 'contracts';
import ConfigurationManagementPage from './configurationManagement';
import { fakeApi, renderPage, rowsOf, signIn, tableCaptioned, tagsIn } from '../../testing/monitoringKit';

const configRow: ConfigurationSummaryRow = {
  siteId: 'LX0001',
  siteName: 'Lisboa Centro',
  nodeName: 'ERBS_LX0001_A',
  tech: '4G',
  commissioningDate: '2026-03-05T14:07:09Z',
  currentStatus: 'On Air',
  radioStatus: 'NOK',
  radioComments: 'EUtranCellFDD=LX0001_1 locked',
  coreStatus: 'OK',
  coreComments: '',
  logsDate: '2026-05-01T10:00:00Z',
  remarks: 'Not in inventory; Unreachable',
};

beforeEach(() => signIn());
afterEach(() => jest.restoreAllMocks());

describe('Configuration Management', () => {
  test('asks the server for the first page of the summary; statuses are OK/NOK tags, remarks are tags', async () => {
    const api = fakeApi({ 'Monitoring/GetConfigurationManagementSummary': { rows: [configRow], total: 1 } });
    await renderPage(ConfigurationManagementPage, '/monitoring/configurationManagement');
    await waitFor(() => expect(rowsOf('Configuration Summary')).toHaveLength(1));
    expect(api.to('Monitoring/GetConfigurationManagementSummary')[0]!.params).toEqual({ page: 1, size: 10 });
    expect(rowsOf('Configuration Summary')[0]).toEqual([
      'LX0001',
      'Lisboa Centro',
      'ERBS_LX0001_A',
      '4G',
      '05-03-2026 14:07:09',
      'On Air',
      'NOK',
      'EUtranCellFDD=LX0001_1 locked',
      'OK',
      '',
      '01-05-2026 10:00:00',
      'Not in inventoryUnreachable',
    ]);
    const row = tableCaptioned('Configuration Summary').querySelector('tr.ant-table-row')!;
    const tags = tagsIn(row);
    expect(tags.map(([text]) => text)).toEqual(['NOK', 'OK', 'Not in inventory', 'Unreachable']);
    expect(tags[0]![1]).toMatch(/red/);
    expect(tags[1]![1]).toMatch(/green/);
    expect(
      within(row as HTMLElement)
        .getByText('LX0001')
        .closest('a'),
    ).toHaveAttribute('href', '/monitoring/siteReport?siteId=LX0001');
  });

  test('an empty summary says where to start', async () => {
    fakeApi({ 'Monitoring/GetConfigurationManagementSummary': { rows: [], total: 0 } });
    await renderPage(ConfigurationManagementPage, '/monitoring/configurationManagement');
    expect(await screen.findByText('No logs parsed yet: upload MoBatch logs on Upload Logs.')).toBeInTheDocument();
  });
});
