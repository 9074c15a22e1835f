import { DisconnectOutlined } from '@ant-design/icons';
import { Tag } from 'antd';

/** Beside a menu group whose remote cannot be reached. */
export default function UnavailableTag() {
  return (
    <Tag icon={<DisconnectOutlined />} color="warning">
      unavailable
    </Tag>
  );
}
