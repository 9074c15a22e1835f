import { PlayCircleOutlined } from '@ant-design/icons';
import { Button, Card, Form, Select } from 'antd';
import { DataTable, InfoBanner, PageContainer, SiteSelect, type DataColumn } from 'shared-ui';

/** Form choices and defaults (specification §3, §9). */
export const ANTENNAS = ['AIR3227/78', 'AIR6488'] as const;
export const LTE_BANDS = ['L700', 'L800', 'L1800', 'L2100'] as const;
export const DEFAULT_ANTENNA = 'AIR3227/78';
export const DEFAULT_LTE_BANDS = ['L800', 'L1800', 'L2100'];

interface PlanningHistoryRow {
  id: number;
  user: string;
  site: string;
  antenna: string;
  lteBands: string;
  runDate: string;
}

const historyColumns: Array<DataColumn<PlanningHistoryRow>> = [
  { key: 'id', title: 'Id', hidden: true },
  { key: 'user', title: 'User' },
  { key: 'site', title: 'Site' },
  { key: 'antenna', title: 'Antenna' },
  { key: 'lteBands', title: 'LTE Bands' },
  { key: 'runDate', title: 'Run Date', kind: 'date' },
];

export default function ParameterPlanningPage() {
  return (
    <PageContainer title="Parameter Planning">
      <InfoBanner label="Last dump" date={null} fallback="Dump date unavailable!" />
      <Card title="Parameter Planning">
        <Form layout="inline" initialValues={{ antenna: DEFAULT_ANTENNA, lteBands: DEFAULT_LTE_BANDS }}>
          <Form.Item label="Site" name="siteId">
            <SiteSelect />
          </Form.Item>
          <Form.Item label="Antenna" name="antenna">
            <Select style={{ width: 160 }} options={ANTENNAS.map((a) => ({ value: a, label: a }))} />
          </Form.Item>
          <Form.Item label="LTE Bands" name="lteBands">
            <Select mode="multiple" style={{ minWidth: 260 }} options={LTE_BANDS.map((b) => ({ value: b, label: b }))} />
          </Form.Item>
          <Form.Item>
            <Button type="primary" icon={<PlayCircleOutlined />} disabled>
              Run Parameter Planning
            </Button>
          </Form.Item>
        </Form>
      </Card>
      <DataTable caption="Parameter Planning History" columns={historyColumns} rows={[]} rowKey="id" />
    </PageContainer>
  );
}
