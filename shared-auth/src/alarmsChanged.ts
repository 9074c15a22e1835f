import { useEffect, useState } from 'react';

/**
 * Hub event the API pushes to every console of an operator when its alarms change: a parse was
 * stored, or alarms were acknowledged (the API's `ALARMS_CHANGED`, issue 47). It carries no alarm: a
 * page that shows alarms reads them again through its own calls.
 */
export const ALARMS_CHANGED_EVENT = 'AlarmsChanged';

const listeners = new Set<() => void>();

/** Tells every subscriber; called by the one hub connection (hub.ts). */
export function publishAlarmsChanged(): void {
  for (const listener of [...listeners]) {
    try {
      listener();
    } catch {
      // One listener's fault must not keep the event from the others.
    }
  }
}

/** Follows the event; returns the unsubscribe. */
export function onAlarmsChanged(listener: () => void): () => void {
  listeners.add(listener);
  return () => void listeners.delete(listener);
}

/** A number that grows each time the operator's alarms change while the component is mounted (a reload key). */
export function useAlarmsVersion(): number {
  const [version, setVersion] = useState(0);
  useEffect(() => onAlarmsChanged(() => setVersion((v) => v + 1)), []);
  return version;
}
