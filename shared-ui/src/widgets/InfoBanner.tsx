import { Alert } from 'antd';
import { formatDate } from '../format';

export interface InfoBannerProps {
  /** What the date stamps, e.g. 'Last import'. */
  label: string;
  date: string | null | undefined;
  /** Shown when there is no date yet (specification §8 fallback banners). */
  fallback: string;
}

export function InfoBanner({ label, date, fallback }: InfoBannerProps) {
  const formatted = formatDate(date);
  return <Alert type="info" showIcon title={formatted ? `${label}: ${formatted}` : fallback} />;
}
