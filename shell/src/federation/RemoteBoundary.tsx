import { ReloadOutlined } from '@ant-design/icons';
import { Button, Flex, Result, Spin } from 'antd';
import { Component, Suspense, type ErrorInfo, type ReactNode } from 'react';

interface RemoteBoundaryProps {
  /** Federation container name, used by tests and logs. */
  remote: string;
  /** True while the manifest is still loading or has failed: nothing to render but the status. */
  status: 'loading' | 'ready' | 'unavailable';
  onRetry: () => void;
  children?: ReactNode;
}

/** The area's loading state, centred in the content (a block-level Spin keeps its dots at the left). */
function Loading() {
  return (
    <Flex justify="center" style={{ paddingBlock: '20vh' }}>
      <Spin size="large" aria-label="Loading" />
    </Flex>
  );
}

interface BoundaryState {
  error: Error | null;
}

function Unavailable({ onRetry }: { onRetry: () => void }) {
  return (
    <Result
      status="warning"
      title="This area is unavailable"
      subTitle="Its part of the console could not be loaded. The rest of the console keeps working."
      extra={
        <Button type="primary" icon={<ReloadOutlined />} onClick={onRetry} autoFocus>
          Retry
        </Button>
      }
    />
  );
}

/**
 * The one guard around remote code: Suspense for the lazy page, an error boundary for anything
 * the remote throws or fails to fetch. A dead remote shows this result; the shell stays up.
 */
export class RemoteBoundary extends Component<RemoteBoundaryProps, BoundaryState> {
  override state: BoundaryState = { error: null };

  static getDerivedStateFromError(error: Error): BoundaryState {
    return { error };
  }

  override componentDidCatch(error: Error, info: ErrorInfo): void {
    console.warn(`[cellwise] ${this.props.remote} failed while rendering`, error, info.componentStack);
  }

  private readonly retry = (): void => {
    this.setState({ error: null });
    this.props.onRetry();
  };

  override render() {
    const { status, remote, children } = this.props;
    let body: ReactNode;
    if (this.state.error || status === 'unavailable') body = <Unavailable onRetry={this.retry} />;
    else if (status === 'loading') body = <Loading />;
    else body = <Suspense fallback={<Loading />}>{children}</Suspense>;
    return (
      <div data-remote={remote} data-remote-status={this.state.error ? 'unavailable' : status}>
        {body}
      </div>
    );
  }
}
