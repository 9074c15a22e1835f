import type { Kysely } from 'kysely';
import type { AlarmHint } from 'contracts';
import type { Database } from '../db/schema';

type Db = Kysely<Database>;

/**
 * The first action for common Ericsson RAN alarms (specific problem as `alt` prints it). Seeded once,
 * into an empty catalogue, so Administrators' edits and deletions are never undone by a restart.
 */
export const DEFAULT_ALARM_HINTS: ReadonlyArray<{ alarmName: string; hint: string }> = [
  {
    alarmName: 'Heartbeat Failure',
    hint: 'The node lost contact with its management system: check the O&M link (ping the node OAM IP, router and VLAN), then restart the OAM access point if the transport is up.',
  },
  {
    alarmName: 'Link Failure',
    hint: 'Check the transport port named in the MO: SFP and fibre/cable, far-end port state, and `st` on the EthernetPort/TermPoint; ask transmission for the microwave or fibre link status.',
  },
  {
    alarmName: 'Service Unavailable',
    hint: 'The cell or service named is down: run `st cell` and `lga` for the cause, check the alarms of its RF branch and baseband, then unlock/relock the cell if no hardware alarm remains.',
  },
  {
    alarmName: 'Resource Activation Timeout',
    hint: 'A radio or baseband resource did not come up in time: check the RiLink and RU alarms, run `lst` on the cell, and restart the affected radio unit if it stays disabled.',
  },
  {
    alarmName: 'Clock Calibration Expiry Soon',
    hint: 'The oscillator needs a stable reference to recalibrate: make sure a synchronisation source (GPS or PTP/NTP) is reachable and reliable for 24 hours.',
  },
  {
    alarmName: 'Sync Reference Not Reliable',
    hint: 'Check the synchronisation source: GPS antenna and cable (visibility, connector), or PTP/NTP server reachability and its quality; `get RadioEquipmentClockReference` shows the failing reference.',
  },
  {
    alarmName: 'Power Supply Failure',
    hint: 'Check the rectifier and the mains feed of the site, the breakers to the named unit and the battery voltage; dispatch a field technician if the mains is down.',
  },
  {
    alarmName: 'HW Fault',
    hint: 'The unit named reports a hardware fault: read the unit log (`lgh`), restart the unit once; if the alarm comes back, replace the unit (note the serial number in the RET/inventory tabs).',
  },
  {
    alarmName: 'Inconsistent Configuration',
    hint: 'A parameter combination is not consistent: compare the MO named with the baseline (Configuration Check tab), correct it and re-run the checks after the next log upload.',
  },
  {
    alarmName: 'Disc Volume Full',
    hint: 'Free space on the node: remove old upgrade packages and logs (`cvls` / `cvrm`, old ESI/DCG files) and check that log rotation runs.',
  },
  {
    alarmName: 'Gas Alarm',
    hint: 'Treat as a safety issue: do not enter the shelter until it is ventilated; ask the field team to check the gas sensor and the battery room.',
  },
  {
    alarmName: 'Fan Failure',
    hint: 'Check the fan unit of the named cabinet/unit and the air filters; replace the fan unit before the temperature rises and units are taken out of service.',
  },
  {
    alarmName: 'RF Reflected Power High',
    hint: 'High VSWR on the branch named: check jumpers and connectors at the radio and antenna (water ingress, loose connectors), then measure the feeder with a line sweep.',
  },
  {
    alarmName: 'Antenna Line Device Fault',
    hint: 'The RET/TMA on the antenna line is faulty or not answering: check the AISG cable and the device power, re-scan the antenna line devices, replace the RET if it still fails.',
  },
  {
    alarmName: 'Temperature Exceptional Taken Out of Service',
    hint: 'The unit shut down to protect itself: check the site cooling (air conditioning, fans, filters) and the shelter temperature before restarting the unit.',
  },
  {
    alarmName: 'Cell Down',
    hint: 'Run `st cell` and `lga` to see why the cell went down; check its radio unit, RiLink and sector carrier alarms, then unlock/relock the cell.',
  },
  {
    alarmName: 'NbIot Cell Down',
    hint: 'Check the anchor LTE cell first (an NB-IoT cell follows it), then the NB-IoT sector carrier and its radio; unlock/relock the NB-IoT cell.',
  },
  {
    alarmName: 'External Link Failure',
    hint: 'The S1/X2/Iub link named is down: check the far end (MME, neighbour eNodeB, RNC) reachability and SCTP association (`st term`), then the transport path.',
  },
  {
    alarmName: 'Network Synch Time from GPS Missing',
    hint: 'The GPS receiver gives no time: check the GPS antenna, its cable and lightning protector, and that the receiver sees satellites (`get GpsSyncTimeSource`).',
  },
  {
    alarmName: 'Remote Node Transmission Error',
    hint: 'The far-end node reports transmission errors: check the links between the two nodes (errors on the port, microwave fading) and the far-end alarms.',
  },
  {
    alarmName: 'Plug-In Unit General Problem',
    hint: 'Restart the plug-in unit named; if the alarm persists, collect a DCG and replace the board.',
  },
  {
    alarmName: 'Linearization Disturbance Performance Degraded',
    hint: 'The radio power amplifier is degraded: restart the radio unit; replace it if the alarm returns within days.',
  },
  {
    alarmName: 'Loss of Synch Reference Redundancy',
    hint: 'Only one synchronisation source is left: restore the failed reference (GPS or PTP) named in the additional info.',
  },
  {
    alarmName: 'Battery Backup Time Shorter Than Configured',
    hint: 'The batteries are ageing or not charged: check the charge current and the battery test results; schedule a battery replacement.',
  },
  {
    alarmName: 'License Key File Fault',
    hint: 'Install a valid license key file for this node (check its fingerprint) and verify the emergency unlock is not about to expire.',
  },
  {
    alarmName: 'Ethernet Link Failure',
    hint: 'Check the Ethernet port named: cable or SFP, the far-end switch/router port, speed and duplex settings.',
  },
];

export async function seedAlarmHints(db: Db, now = new Date()): Promise<number> {
  const any = await db.selectFrom('monitoring_alarm_hints').select('alarm_name').limit(1).executeTakeFirst();
  if (any) return 0;
  const updatedAt = now.toISOString();
  await db
    .insertInto('monitoring_alarm_hints')
    .values(DEFAULT_ALARM_HINTS.map((h) => ({ alarm_name: h.alarmName, hint: h.hint, updated_by: null, updated_at: updatedAt })))
    // Two instances starting at once: the second one's rows are the same, so they are simply skipped.
    .onConflict((oc) => oc.column('alarm_name').doNothing())
    .execute();
  return DEFAULT_ALARM_HINTS.length;
}

export async function listAlarmHints(db: Db): Promise<AlarmHint[]> {
  const rows = await db
    .selectFrom('monitoring_alarm_hints as h')
    .leftJoin('users as u', 'u.id', 'h.updated_by')
    .select(['h.alarm_name', 'h.hint', 'h.updated_at', 'u.firstname', 'u.lastname'])
    .orderBy('h.alarm_name')
    .execute();
  return rows.map((r) => ({
    alarmName: r.alarm_name,
    hint: r.hint,
    updatedBy: r.firstname === null || r.lastname === null ? null : `${r.firstname} ${r.lastname}`,
    updatedAt: r.updated_at,
  }));
}

export async function saveAlarmHint(db: Db, alarmName: string, hint: string, userId: number, now = new Date()): Promise<void> {
  const updatedAt = now.toISOString();
  await db
    .insertInto('monitoring_alarm_hints')
    .values({ alarm_name: alarmName, hint, updated_by: userId, updated_at: updatedAt })
    .onConflict((oc) => oc.column('alarm_name').doUpdateSet({ hint, updated_by: userId, updated_at: updatedAt }))
    .execute();
}

/** Whether there was such a hint. */
export async function deleteAlarmHint(db: Db, alarmName: string): Promise<boolean> {
  const result = await db.deleteFrom('monitoring_alarm_hints').where('alarm_name', '=', alarmName).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}
