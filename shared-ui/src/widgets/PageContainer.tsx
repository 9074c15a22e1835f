import { Flex, theme } from 'antd';
import type { ReactNode } from 'react';
import { useSession } from 'shared-auth';

export interface PageContainerProps {
  title: string;
  /** Buttons and menus at the right of the title. */
  actions?: ReactNode;
  children?: ReactNode;
}

/** The frame of every page: title row, actions, content. */
export function PageContainer({ title, actions, children }: PageContainerProps) {
  const storeInstance = useSession((s) => s.instanceId);
  const { token } = theme.useToken();
  return (
    <section className="cw-page" data-store-instance={storeInstance} aria-label={title}>
      <Flex justify="space-between" align="center" wrap gap={12} style={{ marginBottom: 16 }}>
        {/*
          antd's Typography.Title level 3, drawn from the same tokens: Typography brings its editor
          (Input, the form engine) and copy button along, ≈ 30 KB gz on the home page for one heading.
        */}
        <h3
          style={{
            margin: 0,
            color: token.colorTextHeading,
            fontWeight: token.fontWeightStrong,
            fontSize: token.fontSizeHeading3,
            lineHeight: token.lineHeightHeading3,
          }}
        >
          {title}
        </h3>
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
