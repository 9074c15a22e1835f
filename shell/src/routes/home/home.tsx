import { AimOutlined, HeartOutlined, SafetyCertificateOutlined, StarOutlined, TeamOutlined } from '@ant-design/icons';
import { Col, Flex, Row, Typography, theme } from 'antd';
import { PageContainer } from 'shared-ui';

/** Company values shown on the landing page (specification §1). */
export const COMPANY_VALUES = [
  { title: 'Customer focus', icon: <AimOutlined />, text: 'Every change we make serves the operators and the people on their networks.' },
  { title: 'Excellence', icon: <StarOutlined />, text: 'We get the parameters right the first time and measure what we ship.' },
  { title: 'Collaboration', icon: <TeamOutlined />, text: 'Planning, rollout and operations work from one shared picture of the network.' },
  { title: 'Accountability', icon: <SafetyCertificateOutlined />, text: 'We own our sites, our work orders and our results.' },
  { title: 'Passion', icon: <HeartOutlined />, text: 'We care about networks that simply work.' },
];

/**
 * One value, drawn like an antd Card with its Meta: antd's Card brings Tabs and Skeleton with it
 * (about 20 KB gz), all for five static boxes on the page every session opens first.
 */
function ValueCard({ title, icon, text }: (typeof COMPANY_VALUES)[number]) {
  const { token } = theme.useToken();
  return (
    <Flex
      gap={16}
      style={{
        height: '100%',
        padding: token.paddingLG,
        background: token.colorBgContainer,
        border: `1px solid ${token.colorBorderSecondary}`,
        borderRadius: token.borderRadiusLG,
      }}
    >
      <span style={{ fontSize: 28, lineHeight: 1, color: token.colorPrimary }}>{icon}</span>
      <div>
        <Typography.Title level={5} style={{ marginTop: 0, marginBottom: 8 }}>
          {title}
        </Typography.Title>
        <Typography.Text type="secondary">{text}</Typography.Text>
      </div>
    </Flex>
  );
}

export default function HomePage() {
  return (
    <PageContainer title="Welcome to Cellwise">
      <Typography.Paragraph type="secondary">What we stand for, every day on every site.</Typography.Paragraph>
      <Row gutter={[16, 16]}>
        {COMPANY_VALUES.map((value) => (
          <Col key={value.title} xs={24} sm={12} lg={8}>
            <ValueCard {...value} />
          </Col>
        ))}
      </Row>
    </PageContainer>
  );
}
