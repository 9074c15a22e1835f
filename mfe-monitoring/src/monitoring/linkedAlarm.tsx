import { Alert, Button, Flex } from 'antd';
import { useEffect, useState } from 'react';
import type { AlarmRow } from 'contracts';
import { api, ApiError, errorMessage } from 'shared-auth';
import { formatDate } from 'shared-ui';

// Loaded by Fault Management only when a link names an alarm (?alarm=<id>, monitoring/alarmLink.ts).

/** What a link to an alarm the current operator does not have says (another operator's is not told apart: docs/tenancy.md). */
export const alarmNotFound = (id: number) =>
  `Alarm ${id} is not among this operator's alarms: a newer log of its node may have cleared it, or the link is for another operator.`;

type Loaded = { id: number; alarm: AlarmRow | null; error: string | null };

/** Reads one alarm (Monitoring/GetAlarm); `version` reads it again (an acknowledgement, the hub's AlarmsChanged). */
function useAlarm(id: number, version: string): Loaded | null {
  const [loaded, setLoaded] = useState<Loaded & { version: string }>();
  useEffect(() => {
    let live = true;
    // Said inline, where the alarm would be: no toast, and a 404 is a message, not an error page.
    api
      .get<AlarmRow>('Monitoring/GetAlarm', { params: { id }, skipLoading: true, skipErrorHandling: true })
      .then(({ data }) => live && setLoaded({ id, version, alarm: data, error: null }))
      .catch(
        (error: unknown) =>
          live &&
          setLoaded({ id, version, alarm: null, error: error instanceof ApiError && error.response?.status === 404 ? alarmNotFound(id) : errorMessage(error) }),
      );
    return () => {
      live = false;
    };
  }, [id, version]);
  // The previous answer stays while a reload for the same alarm is in flight.
  return loaded?.id === id ? loaded : null;
}

/**
 * The alarm a link names, above the alarm list: what it is, where, and whether it is acknowledged,
 * with the row's own action (Acknowledge); or why it cannot be shown.
 */
export default function LinkedAlarm({
  id,
  version,
  onAcknowledge,
  onClose,
}: {
  id: number;
  version: string;
  onAcknowledge: (alarm: AlarmRow) => void;
  onClose: () => void;
}) {
  const loaded = useAlarm(id, version);
  if (loaded === null) return <Alert type="info" title={`Loading alarm ${id}…`} data-testid="linked-alarm" role="status" />;
  const { alarm, error } = loaded;
  if (alarm === null) return <Alert type="warning" showIcon title={error} closable={{ onClose }} data-testid="linked-alarm" role="alert" />;
  const facts = [
    `Severity ${alarm.severity}`,
    alarm.alarmDatetime ? `raised ${formatDate(alarm.alarmDatetime)}` : null,
    alarm.siteId ? `site ${alarm.siteId}${alarm.siteName ? ` (${alarm.siteName})` : ''}` : null,
    alarm.moName ? `MO ${alarm.moName}` : null,
    alarm.info || null,
  ].filter(Boolean);
  const acknowledged =
    alarm.acknowledged === 'Yes'
      ? `Acknowledged${alarm.ackBy ? ` by ${alarm.ackBy}` : ''}${alarm.ackAt ? `, ${formatDate(alarm.ackAt)}` : ''}${alarm.ackNote ? `: ${alarm.ackNote}` : ''}`
      : 'Not acknowledged';
  return (
    <Alert
      type="info"
      showIcon
      data-testid="linked-alarm"
      role="region"
      aria-label={`Alarm ${alarm.id}`}
      title={`${alarm.AlarmName} on ${alarm.nodeName}`}
      // The buttons below the text, not in the alert's action column: on a phone that column left the text a third of the width.
      description={
        <Flex vertical gap={4}>
          <span style={{ overflowWrap: 'anywhere' }}>{facts.join(' · ')}</span>
          <span>{acknowledged}</span>
          <Flex gap={8} wrap>
            {alarm.acknowledged === 'Yes' ? null : (
              <Button size="small" onClick={() => onAcknowledge(alarm)}>
                Acknowledge
              </Button>
            )}
            <Button size="small" type="text" onClick={onClose} aria-label="Close the linked alarm">
              Close
            </Button>
          </Flex>
        </Flex>
      }
    />
  );
}
