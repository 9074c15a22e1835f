import { refreshSiteStatuses } from '../../src/monitoring/site-statuses';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { RUN_KINDS, type RunKind } from 'contracts';
import { runInOperator } from '../../src/db/operator-scope';
import { recordRun, writeRunWorkbook } from '../../src/runs';
import { runScriptsFile, writeScriptsZip } from '../../src/runs/scripts';
import { STAMPS } from '../../src/tracking/datasets';
import { PERFORMANCE_STAMP } from '../../src/monitoring/queries';
import { alarmRow, nodeRow } from '../fixtures/monitoring-queries/rows';
import type { TestDatabase } from './databases';

export const trackerStatusOf = (operatorId: number) => `Tenant status ${operatorId}`;

/** One record of each kind the data routes address, all of one operator, each named after it. */
export interface OperatorRecords {
  operatorId: number;
  /** A site (with a node and a cell) only this operator's inventory knows. */
  siteId: string;
  nodeName: string;
  alarmId: number;
  parseId: number;
  runIds: Record<RunKind, number>;
  /** The plan and tracker rows' local id, and the work order delta's site. */
  localId: string;
  /** Every 'last import' stamp of the operator (unique to it: the year is 2000 + its id). */
  stamp: string;
}

/**
 * Writes the records directly, as the operator's imports, parses and runs would leave them (the
 * importers themselves are exercised by tenancy.test.ts). Names carry the operator's id, so a record
 * of one operator is never found by another's key.
 */
export async function insertOperatorRecords(database: TestDatabase, dataDir: string, operatorId: number, userId: number): Promise<OperatorRecords> {
  const { db } = database;
  const siteId = `TEN${operatorId}S`;
  const nodeName = `TEN${operatorId}N`;
  const localId = `TEN${operatorId}L`;
  const stamp = `${2000 + operatorId}-01-02T03:04:05.000Z`;
  return runInOperator(operatorId, async () => {
    await db
      .insertInto('network_sites')
      .values({ id: siteId, name: `Tenant site ${operatorId}`, lat: 38.7, lon: -9.1 })
      .execute();
    await db
      .insertInto('network_nodes')
      .values({ name: nodeName, dn: `SubNetwork=1,MeContext=${nodeName}`, site_id: siteId, technology: '4G', type: 'RadioNode' })
      .execute();
    await db
      .insertInto('network_cells')
      .values({
        dn: `SubNetwork=1,MeContext=${nodeName},ManagedElement=1,ENodeBFunction=1,EUtranCellFDD=${nodeName}1`,
        name: `${nodeName}1`,
        node_name: nodeName,
        site_id: siteId,
        tech: '4G',
        band: 'L800',
        channel: 6300,
        pci: 100 + operatorId,
        psc: null,
        bsic: null,
        lac: null,
        tac: 1000,
        nr_tac: null,
        azimuth: 0,
        cpich_power: null,
        max_tx_power: null,
        plmns: '268-01',
        rach_root_sequence: null,
        ssb: null,
        cell_id: 1,
        local_cell_id: 1,
        owner_id: 1000 + operatorId,
        global_id: `268-01-${1000 + operatorId}-1`,
      } as never)
      .execute();
    await db
      .insertInto('network_cells')
      .values({
        dn: `SubNetwork=1,MeContext=${nodeName}U,ManagedElement=1,NodeBFunction=1,UtranCell=${nodeName}U1`,
        name: `${nodeName}U1`,
        node_name: nodeName,
        site_id: siteId,
        tech: '3G',
        band: 'U2100',
        channel: 10612,
        pci: null,
        psc: 200 + operatorId,
        bsic: null,
        lac: 100,
        tac: null,
        nr_tac: null,
        azimuth: 0,
        cpich_power: 330,
        max_tx_power: 430,
        plmns: '268-01',
        rach_root_sequence: null,
        ssb: null,
        cell_id: 2,
        local_cell_id: 2,
        owner_id: 2000 + operatorId,
        global_id: `268-01-${2000 + operatorId}-2`,
      } as never)
      .execute();
    const { id: parseId } = await db
      .insertInto('monitoring_parses')
      .values({
        parsed_at: stamp,
        parsed_by: userId,
        job_id: null,
        archives: JSON.stringify([`${nodeName}.zip`]),
        logs_date: stamp,
        files: 1,
        parsed: 1,
        unreachable: 0,
        not_in_inventory: 0,
        failed: 0,
        problems: 0,
        report: JSON.stringify({
          id: 0,
          parsedAt: stamp,
          parsedBy: null,
          archives: [`${nodeName}.zip`],
          logsDate: stamp,
          counts: { files: 1, parsed: 1, unreachable: 0, notInInventory: 0, failed: 0, problems: 0 },
          files: [],
        }),
      } as never)
      .returning('id')
      .executeTakeFirstOrThrow();
    await db
      .insertInto('monitoring_nodes')
      .values(nodeRow(nodeName, { site_id: siteId, parse_id: parseId, logs_at: stamp, alarm_status: 'NOK', alarm_count: 1 }))
      .execute();
    await refreshSiteStatuses(db);
    const { id: alarmId } = await db
      .insertInto('monitoring_alarms')
      .values(alarmRow(nodeName, { site_id: siteId, parse_id: parseId, mo: 'ManagedElement=1', specific_problem: `Tenant alarm ${operatorId}` }))
      .returning('id')
      .executeTakeFirstOrThrow();
    await db
      .insertInto('tracking_commissioning_plan')
      .values({ id: 1, local_id: localId, technology: 'LTE800', equip_code: `${localId}E`, equip_name: `${localId} equipment`, comm_date: stamp } as never)
      .execute();
    // The status names the operator: the rollout dashboard counts tracker rows per status.
    await db
      .insertInto('tracking_tracker')
      .values({ id: 1, local_id: localId, equip_name: `${localId} equipment`, comm_date: stamp, current_status: trackerStatusOf(operatorId) } as never)
      .execute();
    await db
      .insertInto('tracking_work_orders')
      .values({ id: 1, site_id: localId, wo_type: 'Integration', wo_id: `${localId}W`, wow_status: 'Closed' } as never)
      .execute();
    await db
      .insertInto('tracking_wo_delta')
      .values({
        id: 1,
        site_id: localId,
        wo_type: 'Integration',
        wo_id: `${localId}W`,
        tracker_status: 'Open',
        wow_status: 'Closed',
        action: 'Update',
      } as never)
      .execute();
    for (const key of [...Object.values(STAMPS), PERFORMANCE_STAMP]) await db.insertInto('tracking_stamps').values({ key, value: stamp }).execute();
    await db
      .insertInto('network_imports')
      .values({ file_name: `${siteId}.xml`, format: 'xml', coords: 'none', imported_at: stamp, imported_by: userId, counts_json: '{}', bytes: 1 } as never)
      .execute();

    const runIds = {} as Record<RunKind, number>;
    for (const kind of RUN_KINDS) {
      const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'cellwise-run-')), 'run.xlsx');
      await writeRunWorkbook(file, [{ name: 'Run', columns: [{ key: 'site', label: 'Site' }], rows: [{ site: siteId }] }]);
      const run = await recordRun(db, dataDir, {
        kind,
        userId,
        sites: [siteId],
        files: [],
        parameters: {},
        jobId: null,
        message: null,
        summary: [],
        findings: [{ name: 'Run', columns: [{ key: 'site', label: 'Site' }], rows: [{ site: siteId }] }],
        workbook: { file, fileName: `${kind}-${siteId}.xlsx` },
      });
      runIds[kind] = run.runId;
      // As a run with findings leaves it: its corrective scripts beside the workbook.
      await writeScriptsZip(runScriptsFile(dataDir, run.runId), [['README.txt', `Run ${run.runId} of ${siteId}`]]);
    }
    return { operatorId, siteId, nodeName, alarmId, parseId, runIds, localId, stamp };
  });
}
