import { AimOutlined, HeartOutlined, SafetyCertificateOutlined, StarOutlined, TeamOutlined } from '@ant-design/icons';
import { Col, Flex, Row, theme } from 'antd';
import { Heading, PageContainer, Panel } from 'shared-ui';
import { HOME_TITLE } from '../home/title';

/** Company values shown on the landing page (specification §1). */
export const COMPANY_VALUES = [
  { title: 'Customer focus', icon: <AimOutlined />, text: 'Every change we make serves the operators and the people on their networks.' },
  { title: 'Excellence', icon: <StarOutlined />, text: 'We get the parameters right the first time and measure what we ship.' },
  { title: 'Collaboration', icon: <TeamOutlined />, text: 'Planning, rollout and operations work from one shared picture of the network.' },
  { title: 'Accountability', icon: <SafetyCertificateOutlined />, text: 'We own our sites, our work orders and our results.' },
  { title: 'Passion', icon: <HeartOutlined />, text: 'We care about networks that simply work.' },
];

/** One value: a card of the values' grid. */
function ValueCard({ title, icon, text }: (typeof COMPANY_VALUES)[number]) {
  const { token } = theme.useToken();
  return (
    <Panel label={title} style={{ height: '100%' }}>
      <Flex gap={16}>
        <span style={{ fontSize: 28, lineHeight: 1, color: token.colorPrimary }}>{icon}</span>
        <div>
          <Heading level={5} style={{ marginBottom: 8 }}>
            {title}
          </Heading>
          <span style={{ color: token.colorTextDescription }}>{text}</span>
        </div>
      </Flex>
    </Panel>
  );
}

export default function HomePage() {
  const { token } = theme.useToken();
  return (
    <PageContainer title={HOME_TITLE}>
      <p style={{ margin: '0 0 1em', color: token.colorTextDescription }}>What we stand for, every day on every site.</p>
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
