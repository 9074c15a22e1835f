import { CloseOutlined } from '@ant-design/icons';
import { Drawer } from 'antd';
import { SIDER_BACKGROUND } from 'shared-ui';
import type { RemotesView } from '../federation/useRemotes';
import { SideNavigation } from './SideNavigation';

/** The side navigation of small screens, in a drawer (loaded by MainLayout the first time it opens). */
export default function NavigationDrawer({ open, onClose, remotes, ready }: { open: boolean; onClose: () => void; remotes: RemotesView; ready: boolean }) {
  return (
    <Drawer
      open={open}
      placement="left"
      size={280}
      onClose={onClose}
      // The whole panel is the menu's colour: a white header strip sat above the dark menu.
      styles={{ section: { background: SIDER_BACKGROUND }, header: { borderBottom: 0, paddingBlockEnd: 0 }, body: { padding: 0 } }}
      closeIcon={<CloseOutlined style={{ color: '#fff' }} />}
    >
      <SideNavigation remotes={remotes} ready={ready} onNavigate={onClose} />
    </Drawer>
  );
}
