import { AimOutlined, HeartOutlined, SafetyCertificateOutlined, StarOutlined, TeamOutlined } from '@ant-design/icons';
import { Card, Col, Row, Typography } from 'antd';
import { PageContainer } from 'shared-ui';

/** Company values shown on the landing page (specification §1). */
export const COMPANY_VALUES = [
  { title: 'Customer focus', icon: <AimOutlined />, text: 'Every change we make serves the operators and the people on their networks.' },
  { title: 'Excellence', icon: <StarOutlined />, text: 'We get the parameters right the first time and measure what we ship.' },
  { title: 'Collaboration', icon: <TeamOutlined />, text: 'Planning, rollout and operations work from one shared picture of the network.' },
  { title: 'Accountability', icon: <SafetyCertificateOutlined />, text: 'We own our sites, our work orders and our results.' },
  { title: 'Passion', icon: <HeartOutlined />, text: 'We care about networks that simply work.' },
];

export default function HomePage() {
  return (
    <PageContainer title="Welcome to Cellwise">
      <Typography.Paragraph type="secondary">What we stand for, every day on every site.</Typography.Paragraph>
      <Row gutter={[16, 16]}>
        {COMPANY_VALUES.map((value) => (
          <Col key={value.title} xs={24} sm={12} lg={8}>
            <Card>
              <Card.Meta avatar={<span style={{ fontSize: 28, color: '#0b6e79' }}>{value.icon}</span>} title={value.title} description={value.text} />
            </Card>
          </Col>
        ))}
      </Row>
    </PageContainer>
  );
}
