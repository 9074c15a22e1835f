import { FileExcelOutlined, MailOutlined } from '@ant-design/icons';
import { Button, Card, Empty, Flex, Tabs } from 'antd';
import { PageContainer, SiteSelect } from 'shared-ui';

/** Report tabs in the specification's order; Summary is the default. */
export const SITE_REPORT_TABS = [
  'Summary',
  'RET Information',
  'Alarms',
  'Configuration Check 2G',
  'Configuration Check 3G',
  'Configuration Check 4G',
  'Configuration Check 5G',
  'Configuration Check NBIoT',
];

export default function SiteReportPage() {
  return (
    <PageContainer
      title="Site Report"
      actions={
        <>
          <Button icon={<MailOutlined />} disabled>
            Email Report
          </Button>
          <Button icon={<FileExcelOutlined />} disabled>
            Excel Report
          </Button>
        </>
      }
    >
      <Flex>
        <SiteSelect />
      </Flex>
      <Card>
        <Tabs
          defaultActiveKey="Summary"
          items={SITE_REPORT_TABS.map((tab) => ({
            key: tab,
            label: tab,
            children: <Empty description="Choose a site to see its report" />,
          }))}
        />
      </Card>
    </PageContainer>
  );
}
