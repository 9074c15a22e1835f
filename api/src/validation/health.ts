import fs from 'node:fs';
import type { Kysely } from 'kysely';
import type { ReportTable, RunResponse, RunSummaryItem } from 'contracts';
import type { Database } from '../db/schema';
import { buildSiteReport, type SiteData } from '../domain/monitoring/report';
import { externalMismatches, validateCpich, validateNeighbourRelations, type CpichRow, type NbrValidationRow } from '../domain/planning';
import { JobRefusal, type TaskContext } from '../jobs/model';
import { loadSiteData, siteNotFound } from '../monitoring/report';
import { recordRun, type RunCell, type RunSheet } from '../runs';
import { loadSiteNetwork, type SiteNetwork } from '../network/scope';
import { runFileName, writeTempWorkbook } from './ranshare';

/**
 * Health checks of one site (docs/engines/planning.md#health-checks), as a run: one workbook with what the parsed logs say
 * (alarms, cell and link states, RET, configuration checks: the site report's tables, reused) and
 * what the dump says (CPICH verdicts of its UTRAN cells, anomalies of its own neighbour relations),
 * headed by a Summary sheet the page shows.
 */

export const HEALTH_KIND = 'validation.healthChecks';

export const HEALTH_MESSAGES = {
  noData: (siteId: string) => `No data for site ${siteId}: no parsed logs and no cells in the dump.`,
} as const;

type Db = Kysely<Database>;

export interface StateRow {
  nodeName: string;
  tech: string;
  mo: string;
  cell: string | null;
  link: string | null;
  admState: string | null;
  opState: string | null;
}

export interface HealthInput {
  siteId: string;
  data: SiteData;
  states: readonly StateRow[];
  network: SiteNetwork;
}

export interface NeighbourFinding extends NbrValidationRow {
  finding: string;
}

/**
 * The site's own relations checked as if they were the plan: a relation whose target is outside the
 * dump, resolves elsewhere or goes through a stale external cell (PCI/channel/TAC differ from the real
 * cell) comes back WRONG, a second relation to the same target EXTRA; OK rows are not findings.
 */
export function neighbourFindings(network: SiteNetwork): NeighbourFinding[] {
  const { index } = network;
  const sources = network.cells.map((c) => c.name);
  const planned = sources.flatMap((source) =>
    index
      .relationsFrom(source)
      .map((r) => ({ source, target: r.targetName ?? '' }))
      .filter((p) => p.target !== ''),
  );
  const byDn = new Map(network.relations.map((r) => [r.dn, r]));
  return validateNeighbourRelations(planned, index, { sourceCells: sources })
    .filter((row) => row.verdict !== 'OK')
    .map((row) => {
      const relation = row.relationDn ? byDn.get(row.relationDn) : undefined;
      const resolved = relation ? index.resolve(relation) : null;
      let finding = row.verdict === 'EXTRA' ? 'Duplicate relation' : 'Wrong relation';
      if (row.verdict === 'WRONG' && resolved) {
        if (!resolved.target) finding = 'Target outside the dump';
        else if (resolved.target.name !== row.target) finding = 'Target resolves elsewhere';
        else if (resolved.external && externalMismatches(resolved.external, resolved.target).length > 0) finding = 'Stale external cell';
      }
      return { ...row, finding };
    });
}

const stateStatus = (s: StateRow): 'OK' | 'NOK' => (s.admState === 'LOCKED' || s.opState === 'DISABLED' ? 'NOK' : 'OK');

/** A site report table as a sheet: its columns' labels, dates as dates. */
function sheetOfTable(table: ReportTable, name = table.TableName): RunSheet {
  const dates = new Set(table.TableStructure.filter((c) => c.options.kind === 'date').map((c) => c.name));
  return {
    name,
    columns: table.TableStructure.map((c) => ({ key: c.name, label: c.label })),
    rows: table.TableData.map((row) =>
      Object.fromEntries(
        table.TableStructure.map((c): [string, RunCell] => {
          const value = row[c.name] ?? null;
          if (dates.has(c.name) && typeof value === 'string' && value !== '') {
            const date = new Date(value);
            if (!Number.isNaN(date.getTime())) return [c.name, date];
          }
          return [c.name, value];
        }),
      ),
    ),
  };
}

export interface HealthResult {
  sheets: RunSheet[];
  summary: RunSummaryItem[];
  message: string;
  cpich: CpichRow[];
  neighbours: NeighbourFinding[];
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;
const list = (values: readonly string[], max = 5) =>
  values.length <= max ? values.join(', ') : `${values.slice(0, max).join(', ')} and ${values.length - max} more`;

export function healthResult(input: HealthInput): HealthResult {
  const { siteId, data, states, network } = input;
  const report = buildSiteReport(data);
  const tableNamed = (name: string) => report.tables.find((t) => t.TableName === name)!;
  const hasLogs = data.nodes.length > 0;
  const hasCells = network.cells.length > 0;

  const cpich = validateCpich(network.cells);
  const neighbours = hasCells ? neighbourFindings(network) : [];
  const activeAlarms = data.alarms.length;
  const severe = data.alarms.filter((a) => a.severity === 'Critical' || a.severity === 'Major');
  const alarmNok = data.nodes.filter((n) => n.alarmStatus === 'NOK');
  const radioNok = data.nodes.filter((n) => n.radioStatus === 'NOK');
  const coreNok = data.nodes.filter((n) => n.coreStatus === 'NOK');
  const nokFindings = (area: string) => data.findings.filter((f) => f.area === area && f.status === 'NOK');
  const cellStates = states.filter((s) => s.link === null);
  const linkStates = states.filter((s) => s.link !== null);
  const badCells = cellStates.filter((s) => stateStatus(s) === 'NOK');
  const badLinks = linkStates.filter((s) => stateStatus(s) === 'NOK');
  const badRet = data.ret.filter((r) => r.operationalState === 'DISABLED');
  const cpichErrors = cpich.filter((r) => r.verdict === 'ERROR');
  const cpichWarnings = cpich.filter((r) => r.verdict === 'WARNING');
  const noLogs = 'No parsed logs for this site';
  const logStatus = (nok: boolean) => (!hasLogs ? 'N/A' : nok ? 'NOK' : 'OK');
  const checks: Array<Record<string, RunCell>> = [
    {
      check: 'Alarms',
      status: logStatus(alarmNok.length > 0),
      count: activeAlarms,
      details: !hasLogs
        ? noLogs
        : severe.length > 0
          ? `${plural(severe.length, 'Critical/Major alarm')}: ${list([...new Set(severe.map((a) => a.AlarmName))])}`
          : `${plural(activeAlarms, 'active alarm')}, none Critical or Major`,
    },
    {
      check: 'Radio',
      status: logStatus(radioNok.length > 0),
      count: nokFindings('radio').length,
      details: !hasLogs ? noLogs : radioNok.length > 0 ? list([...new Set(nokFindings('radio').map((f) => f.comment || f.check))]) : 'All radio checks OK',
    },
    {
      check: 'Core',
      status: logStatus(coreNok.length > 0),
      count: nokFindings('core').length,
      details: !hasLogs
        ? noLogs
        : coreNok.length > 0
          ? list([...new Set(nokFindings('core').map((f) => f.comment || f.check))])
          : 'All links and core checks OK',
    },
    {
      check: 'Cell states',
      status: logStatus(badCells.length > 0),
      count: badCells.length,
      details: !hasLogs
        ? noLogs
        : badCells.length > 0
          ? `Locked or disabled: ${list(badCells.map((s) => s.cell ?? s.mo))}`
          : `${plural(cellStates.length, 'cell state')} OK`,
    },
    {
      check: 'Link states',
      status: logStatus(badLinks.length > 0),
      count: badLinks.length,
      details: !hasLogs
        ? noLogs
        : badLinks.length > 0
          ? `Down: ${list(badLinks.map((s) => `${s.mo} (${s.link})`))}`
          : `${plural(linkStates.length, 'link')} OK`,
    },
    {
      check: 'RET',
      status: logStatus(badRet.length > 0),
      count: data.ret.length,
      details: !hasLogs ? noLogs : badRet.length > 0 ? `Disabled: ${list(badRet.map((r) => r.mo))}` : `${plural(data.ret.length, 'RET unit')} read`,
    },
    {
      check: 'CPICH',
      status: cpich.length === 0 ? 'N/A' : cpichErrors.length > 0 ? 'NOK' : cpichWarnings.length > 0 ? 'WARNING' : 'OK',
      count: cpichErrors.length + cpichWarnings.length,
      details:
        cpich.length === 0
          ? 'No UTRAN cells in the dump'
          : `${plural(cpich.length, 'UTRAN cell')}: ${cpich.length - cpichErrors.length - cpichWarnings.length} OK, ${plural(cpichWarnings.length, 'warning')}, ${plural(cpichErrors.length, 'error')}`,
    },
    {
      check: 'Neighbours',
      status: !hasCells ? 'N/A' : neighbours.length > 0 ? 'NOK' : 'OK',
      count: neighbours.length,
      details: !hasCells
        ? 'No cells in the dump'
        : neighbours.length > 0
          ? [...new Set(neighbours.map((n) => n.finding))].map((f) => `${f}: ${neighbours.filter((n) => n.finding === f).length}`).join(', ')
          : `${plural(network.relations.length, 'relation')}, no finding`,
    },
  ];

  const sheets: RunSheet[] = [
    {
      name: 'Summary',
      columns: [
        { key: 'check', label: 'Check' },
        { key: 'status', label: 'Status' },
        { key: 'count', label: 'Count' },
        { key: 'details', label: 'Details' },
      ],
      rows: checks,
    },
    sheetOfTable(tableNamed('Site Summary')),
    sheetOfTable(tableNamed('Alarms')),
    {
      name: 'States',
      columns: [
        { key: 'nodeName', label: 'Node' },
        { key: 'tech', label: 'Tech' },
        { key: 'mo', label: 'MO' },
        { key: 'cell', label: 'Cell' },
        { key: 'link', label: 'Link' },
        { key: 'admState', label: 'Administrative State' },
        { key: 'opState', label: 'Operational State' },
        { key: 'status', label: 'Status' },
      ],
      rows: states.map((s) => ({ ...s, status: stateStatus(s) })),
    },
    sheetOfTable(tableNamed('RET Information'), 'RET'),
    ...report.tables.filter((t) => t.TabName.startsWith('Configuration Check')).map((t) => sheetOfTable(t)),
    {
      name: 'CPICH',
      columns: [
        { key: 'cell', label: 'Cell' },
        { key: 'uarfcn', label: 'UARFCN' },
        { key: 'primaryCpichPower', label: 'primaryCpichPower (0.1 dBm)' },
        { key: 'maximumTransmissionPower', label: 'maximumTransmissionPower (0.1 dBm)' },
        { key: 'offsetDb', label: 'Max − CPICH (dB)' },
        { key: 'verdict', label: 'Verdict' },
        { key: 'reason', label: 'Reason' },
      ],
      rows: cpich.map((r) => ({
        cell: r.cell,
        uarfcn: r.uarfcn,
        primaryCpichPower: r.primaryCpichPower,
        maximumTransmissionPower: r.maximumTransmissionPower,
        offsetDb: r.offsetDb,
        verdict: r.verdict,
        reason: r.reason,
      })),
    },
    {
      name: 'Neighbour Findings',
      columns: [
        { key: 'source', label: 'Source Cell' },
        { key: 'target', label: 'Target' },
        { key: 'finding', label: 'Finding' },
        { key: 'verdict', label: 'Verdict' },
        { key: 'reason', label: 'Reason' },
        { key: 'kind', label: 'Kind' },
        { key: 'createdBy', label: 'Created By' },
        { key: 'isRemoveAllowed', label: 'Remove Allowed' },
        { key: 'relationDn', label: 'Relation DN' },
      ],
      rows: neighbours.map((n) => ({
        source: n.source,
        target: n.target,
        finding: n.finding,
        verdict: n.verdict,
        reason: n.reason,
        kind: n.kind,
        createdBy: n.createdBy,
        isRemoveAllowed: n.isRemoveAllowed === null ? null : n.isRemoveAllowed ? 'Yes' : 'No',
        relationDn: n.relationDn,
      })),
    },
  ];

  const tone = (bad: number, worse = false): RunSummaryItem['tone'] => (bad === 0 ? 'ok' : worse ? 'error' : 'warning');
  const summary: RunSummaryItem[] = [];
  if (hasLogs) {
    summary.push(
      { label: 'Alarms NOK', count: alarmNok.length, tone: tone(alarmNok.length, true) },
      { label: 'Alarms OK', count: data.nodes.length - alarmNok.length, tone: 'ok' },
      { label: 'Radio NOK', count: radioNok.length, tone: tone(radioNok.length, true) },
      { label: 'Core NOK', count: coreNok.length, tone: tone(coreNok.length, true) },
      { label: 'Cells locked/disabled', count: badCells.length, tone: tone(badCells.length, true) },
    );
  }
  if (cpich.length > 0) {
    summary.push(
      { label: 'CPICH errors', count: cpichErrors.length, tone: tone(cpichErrors.length, true) },
      { label: 'CPICH warnings', count: cpichWarnings.length, tone: tone(cpichWarnings.length) },
    );
  }
  if (hasCells) summary.push({ label: 'Neighbour findings', count: neighbours.length, tone: tone(neighbours.length) });

  const said = [
    hasLogs ? `alarms ${alarmNok.length > 0 ? 'NOK' : 'OK'} (${plural(activeAlarms, 'active alarm')})` : 'no parsed logs',
    hasLogs ? `radio ${radioNok.length > 0 ? 'NOK' : 'OK'}` : null,
    hasLogs ? `core ${coreNok.length > 0 ? 'NOK' : 'OK'}` : null,
    cpich.length > 0 ? `CPICH ${plural(cpichErrors.length, 'error')}, ${plural(cpichWarnings.length, 'warning')}` : null,
    hasCells ? plural(neighbours.length, 'neighbour finding') : 'no cells in the dump',
  ].filter((s): s is string => s !== null);
  return { sheets, summary, message: `Health checks of ${siteId}: ${said.join(', ')}.`, cpich, neighbours };
}

async function statesOf(db: Db, nodes: readonly string[]): Promise<StateRow[]> {
  if (nodes.length === 0) return [];
  const rows = await db
    .selectFrom('monitoring_states')
    .select(['node_name', 'tech', 'mo', 'cell', 'link', 'adm_state', 'op_state'])
    .where('node_name', 'in', [...nodes])
    .orderBy('node_name')
    .orderBy('id')
    .execute();
  return rows.map((r) => ({ nodeName: r.node_name, tech: r.tech, mo: r.mo, cell: r.cell, link: r.link, admState: r.adm_state, opState: r.op_state }));
}

export interface HealthParams {
  siteId: string;
  ownerId: number;
  /** The job running it (added by the job kind), kept with the history row. */
  jobId?: string | null;
}

/** Thread task of `Validation/GetHealthChecksExport`. */
export async function healthChecksTask(params: HealthParams, context: TaskContext): Promise<RunResponse> {
  context.progress(5, `Reading ${params.siteId}`);
  const data = await loadSiteData(context.db, params.siteId);
  if (!data) throw new JobRefusal(404, { message: siteNotFound(params.siteId) });
  const network = await loadSiteNetwork(context.db, params.siteId);
  if (data.nodes.length === 0 && network.cells.length === 0) throw new JobRefusal(599, { message: HEALTH_MESSAGES.noData(params.siteId) });
  const states = await statesOf(
    context.db,
    data.nodes.map((n) => n.nodeName),
  );
  context.progress(40, 'Checking CPICH and neighbour relations');
  const result = healthResult({ siteId: params.siteId, data, states, network });
  context.progress(70, 'Writing the workbook');
  const file = await writeTempWorkbook(context.dataDir, result.sheets);
  try {
    return await recordRun(context.db, context.dataDir, {
      kind: 'healthChecks',
      userId: params.ownerId,
      sites: [params.siteId],
      files: [],
      parameters: {},
      jobId: params.jobId ?? null,
      message: result.message,
      summary: result.summary,
      findings: result.sheets,
      workbook: { file, fileName: runFileName('HealthChecks', params.siteId) },
    });
  } finally {
    fs.rmSync(file, { force: true });
  }
}
