import { Alert, Skeleton } from 'antd';
import { formatDate } from '../format';

export interface InfoBannerProps {
  /** What the date stamps, e.g. 'Last import'. */
  label: string;
  date: string | null | undefined;
  /** Shown when there is no date yet (specification §8 fallback banners). */
  fallback: string;
  /** While the date is on its way, neither the date nor the fallback is known. */
  loading?: boolean;
}

export function InfoBanner({ label, date, fallback, loading }: InfoBannerProps) {
  const formatted = formatDate(date);
  const title = loading ? (
    <Skeleton.Input active size="small" style={{ width: 280, verticalAlign: 'middle' }} aria-label={`${label}: loading`} />
  ) : formatted ? (
    `${label}: ${formatted}`
  ) : (
    fallback
  );
  return <Alert type="info" showIcon title={title} role="status" aria-busy={loading ? true : undefined} />;
}
