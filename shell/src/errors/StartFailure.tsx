import { Result } from 'antd';

/** The console cannot start without its runtime configuration (/config/remotes.json): it says why. */
export default function StartFailure({ reason }: { reason: string }) {
  return <Result status="500" title="The console could not start" subTitle={`Runtime configuration unavailable: ${reason}`} />;
}
