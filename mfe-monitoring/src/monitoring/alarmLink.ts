// Apart from linkedAlarm.tsx, which Fault Management loads only when a link names an alarm.

/** `?alarm=<id>` of a link (a notification, a copied address): a positive 32-bit id, else null. */
export function alarmIdOf(value: string | null): number | null {
  if (value === null || !/^\d{1,10}$/.test(value)) return null;
  const id = Number(value);
  return id >= 1 && id <= 2_147_483_647 ? id : null;
}
