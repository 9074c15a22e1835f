import { Component, lazy, Suspense, type ErrorInfo, type ReactNode } from 'react';
import { AreaLoading, PageContainerLoading } from 'shared-ui';

interface RemoteBoundaryProps {
  /** Federation container name, used by tests and logs. */
  remote: string;
  /** True while the manifest is still loading or has failed: nothing to render but the status. */
  status: 'loading' | 'ready' | 'unavailable';
  /** The page's title (its remote's navigation), shown in the page's frame while its code loads. */
  title?: string;
  onRetry: () => void;
  children?: ReactNode;
}

interface BoundaryState {
  error: Error | null;
}

// The failure view (antd Result) loads only when an area fails.
const Unavailable = lazy(() => import('./RemoteUnavailable'));

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
    const { status, remote, title, children } = this.props;
    let body: ReactNode;
    if (this.state.error || status === 'unavailable')
      body = (
        <Suspense fallback={<AreaLoading />}>
          <Unavailable onRetry={this.retry} />
        </Suspense>
      );
    else if (status === 'loading') body = <AreaLoading />;
    else body = <Suspense fallback={title ? <PageContainerLoading title={title} /> : <AreaLoading />}>{children}</Suspense>;
    return (
      <div data-remote={remote} data-remote-status={this.state.error ? 'unavailable' : status}>
        {body}
      </div>
    );
  }
}
