import { Card, Flex, Layout, Typography } from 'antd';
import { Outlet } from 'react-router-dom';
import { SCREEN_HEIGHT } from '../widgets/CookieConsent';

/** Authentication pages: a logo bar and a centred card. */
export function PlainLayout() {
  return (
    <Layout style={{ minHeight: SCREEN_HEIGHT }}>
      <Layout.Header style={{ display: 'flex', alignItems: 'center', gap: 8, borderBottom: '1px solid #e5eaec' }}>
        <img src="/favicon.svg" alt="" width={28} height={28} />
        <Typography.Text strong style={{ fontSize: 18, color: '#0b6e79' }}>
          Cellwise
        </Typography.Text>
      </Layout.Header>
      <Layout.Content>
        <Flex justify="center" style={{ padding: '8vh 16px' }}>
          <Card style={{ width: 420, maxWidth: '100%' }}>
            <Outlet />
          </Card>
        </Flex>
      </Layout.Content>
    </Layout>
  );
}
