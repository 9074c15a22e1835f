import { Flex } from 'antd';
import type { ReactNode } from 'react';
import { useSession } from 'shared-auth';
import { Heading } from './Heading';

export interface PageContainerProps {
  title: string;
  /** Buttons and menus at the right of the title. */
  actions?: ReactNode;
  children?: ReactNode;
}

/** The frame of every page: title row, actions, content. */
export function PageContainer({ title, actions, children }: PageContainerProps) {
  const storeInstance = useSession((s) => s.instanceId);
  return (
    <section className="cw-page" data-store-instance={storeInstance} aria-label={title}>
      <Flex justify="space-between" align="center" wrap gap={12} style={{ marginBottom: 16 }}>
        <Heading level={3}>{title}</Heading>
        {actions ? (
          <Flex gap={8} wrap>
            {actions}
          </Flex>
        ) : null}
      </Flex>
      <Flex vertical gap={16}>
        {children}
      </Flex>
    </section>
  );
}
