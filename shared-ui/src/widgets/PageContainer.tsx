import { Flex, Spin } from 'antd';
import type { ReactNode } from 'react';
import { useSession } from 'shared-auth';
import { Heading } from './Heading';

export interface PageContainerProps {
  title: string;
  /** Buttons and menus at the right of the title. */
  actions?: ReactNode;
  children?: ReactNode;
}

const TITLE_ROW_STYLE = { marginBottom: 16 } as const;

/** The frame of every page: title row, actions, content. */
export function PageContainer({ title, actions, children }: PageContainerProps) {
  const storeInstance = useSession((s) => s.instanceId);
  return (
    <section className="cw-page" data-store-instance={storeInstance} aria-label={title}>
      <Flex justify="space-between" align="center" wrap gap={12} style={TITLE_ROW_STYLE}>
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

/**
 * The loading state of a page in the content area, a remote's or the shell's own, centred (a
 * block-level Spin keeps its dots at the left).
 */
export function AreaLoading() {
  return (
    <Flex justify="center" style={{ paddingBlock: '20vh' }}>
      {/* The name goes on a status region: a Spin is a plain div, which may not carry one (axe aria-prohibited-attr). */}
      <div role="status" aria-label="Loading">
        <Spin size="large" />
      </div>
    </Flex>
  );
}

/**
 * A page while its code loads: its frame's title row, with the title where the page will draw it, and
 * a spinner where its content will be. The user sees at once where they are, and nothing moves when the
 * page arrives. The title is drawn, not a heading: the page's own heading, and its controls, come with it.
 */
export function PageContainerLoading({ title }: { title: string }) {
  return (
    <div className="cw-page-loading" aria-busy="true">
      <Flex align="center" style={TITLE_ROW_STYLE}>
        <Heading level={3} drawnOnly>
          {title}
        </Heading>
      </Flex>
      <AreaLoading />
    </div>
  );
}
