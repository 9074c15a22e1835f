import { commandsOf, scriptGroupOf } from '../../domain/monitoring';
import {
  type AlarmRow,
  ALARMS,
  alarmTable,
  type AlarmTarget,
  CVLS,
  type GetRow,
  getTable,
  headerStamp,
  hgetTable,
  LogText,
  MODELS,
  OPERATORS,
  SEVERITY_ORDER,
  STATE,
  type StateRow,
  stateTable,
  two,
} from './formats';
import { type DemoLogCell, type DemoLogNode, type DemoLogScale, type DemoSeverityCode } from './model';
import { int, pick, rngFor } from '../random';

/** One node's log: its plan (clean, warnings only or mixed; CRLF, `<ip>: ` prefixes, `cvls`), the alarms, states and values it prints, and what it holds. */

export type Category = 'clean' | 'warnings' | 'mixed';

export interface NodePlan {
  node: DemoLogNode;
  index: number;
  ip: string;
  start: Date;
  category: Category;
  /** Among the mixed nodes: which severities are forced into which table, so every severity shows in both. */
  mixedIndex: number;
  neighbours: string[];
  crlf: boolean;
  ipPrefix: boolean;
  cvls: boolean;
}

export interface NodeOutcome {
  text: string;
  unack: AlarmRow[];
  ack: AlarmRow[];
  locked: string[];
  disabled: string[];
  disabledTerms: string[];
  deviations: string[];
}

export const SECOND = 1000;
export const DAY = 86_400 * SECOND;

export function nodeLog(plan: NodePlan, seed: number, now: Date, scale: DemoLogScale): NodeOutcome {
  const { node } = plan;
  const r = rngFor(seed, plan.index, 1);
  const kind = node.type === 'RNC' || node.type === 'BSC' ? node.type : 'RadioNode';
  const log = new LogText(node.name, plan.ip, MODELS[kind]!, int(r, 10_000, 99_999), plan.start);
  const out: NodeOutcome = { text: '', unack: [], ack: [], locked: [], disabled: [], disabledTerms: [], deviations: [] };
  let proxy = int(r, 300, 900);
  const nextProxy = () => (proxy += int(r, 1, 40));

  // Cells and their states; a mixed node may have a locked cell and cell alarms disable cells.
  const stateCells = node.cells.filter((c) => c.tech !== '5G' || kind === 'RadioNode');
  const cellState = new Map<string, StateRow>();
  for (const c of stateCells) cellState.set(c.mo, { proxy: nextProxy(), adm: STATE.unlocked, op: STATE.enabled, mo: c.mo });

  // Term points: S1 to two MMEs and X2 to neighbours (NG and EN-DC X2 on NR sites); Iub on an RNC.
  const terms: StateRow[] = [];
  if (kind === 'RadioNode') {
    for (const mme of ['MME_1', 'MME_2'])
      terms.push({ proxy: nextProxy(), adm: STATE.unlocked, op: STATE.enabled, mo: `ENodeBFunction=1,TermPointToMme=${mme}` });
    for (const peer of plan.neighbours) {
      terms.push({
        proxy: nextProxy(),
        adm: STATE.unlocked,
        op: STATE.enabled,
        mo: `ENodeBFunction=1,EUtraNetwork=1,ExternalENodeBFunction=${peer},TermPointToENB=${peer}`,
      });
    }
    if (node.cells.some((c) => c.tech === '5G')) {
      terms.push({ proxy: nextProxy(), adm: STATE.unlocked, op: STATE.enabled, mo: 'GNBCUCPFunction=1,AMFFunction=1,TermPointToAmf=AMF_1' });
      const peer = plan.neighbours[0];
      if (peer) {
        terms.push({
          proxy: nextProxy(),
          adm: STATE.unlocked,
          op: STATE.enabled,
          mo: `ENodeBFunction=1,GUtraNetwork=1,ExternalGNodeBFunction=${peer},TermPointToGNB=${peer}`,
        });
      }
    }
  }
  const iubs: StateRow[] =
    kind === 'RNC'
      ? [...new Set(node.cells.map((c) => c.name.split('_')[0]!))].map((site) => ({
          proxy: nextProxy(),
          adm: STATE.unlocked,
          op: STATE.enabled,
          mo: `RncFunction=1,IubLink=Iub_${site}`,
        }))
      : [];

  // Alarms.
  const alarmAt = () => new Date(now.getTime() - Math.floor(r() * 30 * DAY) - 3600 * SECOND);
  const templatesOf = (severity: DemoSeverityCode, targets: AlarmTarget[]) => ALARMS.filter((a) => a.severity === severity && targets.includes(a.target));
  const available: AlarmTarget[] = ['site'];
  if (stateCells.length > 0) available.push('cell');
  if (terms.some((t) => t.mo.includes('TermPointToENB'))) available.push('x2');
  if (terms.some((t) => t.mo.includes('TermPointToMme'))) available.push('s1');
  if (iubs.length > 0) available.push('iub');
  const usedMos = new Set<string>();
  const alarm = (severity: DemoSeverityCode, acknowledged: boolean): AlarmRow => {
    // An alarm is raised once per MO: site alarms already shown are left out while others remain.
    const fitting = templatesOf(severity, available).length > 0 ? templatesOf(severity, available) : templatesOf(severity, ['site']);
    const fresh = fitting.filter((a) => a.target !== 'site' || !usedMos.has(a.mo!));
    const t = pick(r, fresh.length > 0 ? fresh : fitting);
    let mo = t.mo ?? 'ManagedElement=1';
    if (t.target === 'cell') {
      const free = stateCells.filter((c) => !usedMos.has(c.mo));
      const cell = pick(r, free.length > 0 ? free : stateCells);
      mo = cell.mo;
      const row = cellState.get(mo)!;
      row.op = STATE.disabled;
    } else if (t.target === 'x2' || t.target === 's1') {
      const kindOf = t.target === 'x2' ? 'TermPointToENB' : 'TermPointToMme';
      const candidates = terms.filter((x) => x.mo.includes(kindOf) && !usedMos.has(x.mo));
      const term = pick(r, candidates.length > 0 ? candidates : terms.filter((x) => x.mo.includes(kindOf)));
      term.op = STATE.disabled;
      mo = term.mo;
    }
    usedMos.add(mo);
    return { at: alarmAt(), severity, problem: t.problem, mo, info: t.info, operator: acknowledged ? pick(r, OPERATORS) : null };
  };
  if (plan.category === 'warnings') {
    out.unack.push(alarm('w', false));
    if (r() < 0.5) out.unack.push(alarm('w', false));
    if (plan.mixedIndex % 2 === 0) out.ack.push(alarm('w', true));
  } else if (plan.category === 'mixed') {
    const j = plan.mixedIndex;
    out.unack.push(alarm(SEVERITY_ORDER[j % 4]!, false));
    out.ack.push(alarm(SEVERITY_ORDER[(j + 2) % 4]!, true));
    for (let k = int(r, 0, 2); k > 0; k -= 1) out.unack.push(alarm(pick(r, SEVERITY_ORDER), false));
    if (j % 3 === 1) out.ack.push(alarm(pick(r, SEVERITY_ORDER), true));
    if (kind === 'RNC' && iubs.length > 0) {
      const iub = iubs[int(r, 0, iubs.length - 1)]!;
      iub.op = STATE.disabled;
      out.unack.push({ at: alarmAt(), severity: 'M', problem: 'NbapCommon Link Failure', mo: iub.mo, info: 'Iub link to the RBS down', operator: null });
    }
    // A cell locked for works: no alarm (an administrative lock raises none), but the radio status shows it.
    if (j % 3 === 2 && stateCells.length > 1) {
      const free = stateCells.filter((c) => !usedMos.has(c.mo));
      if (free.length > 0) {
        const row = cellState.get(pick(r, free).mo)!;
        row.adm = STATE.locked;
        row.op = STATE.disabled;
      }
    }
  }
  for (let k = scale.alarms ?? 0; k > 0; k -= 1) out.unack.push(alarm(pick(r, SEVERITY_ORDER), false));
  const byTime = (a: AlarmRow, b: AlarmRow) => b.at.getTime() - a.at.getTime();
  out.unack.sort(byTime);
  out.ack.sort(byTime);

  for (const row of cellState.values()) {
    if (row.adm === STATE.locked) out.locked.push(`${node.name} ${row.mo}`);
    else if (row.op === STATE.disabled) out.disabled.push(`${node.name} ${row.mo}`);
  }
  for (const t of [...terms, ...iubs]) if (t.op === STATE.disabled) out.disabledTerms.push(`${node.name} ${t.mo}`);

  // RET: one antenna per sector with a low- and a high-band RetSubUnit, on every site's RadioNode.
  const rets: Array<{ mo: string; values: string[] }> = [];
  if (kind === 'RadioNode') {
    const sectors = Math.max(1, new Set(node.cells.map((c) => c.name.slice(c.name.lastIndexOf('_') + 1))).size);
    for (let s = 1; s <= Math.min(sectors, 6); s += 1) {
      for (const [sub, band] of [
        [1, 'LB'],
        [2, 'HB'],
      ] as const) {
        const disabled = plan.category === 'mixed' && plan.mixedIndex % 5 === 4 && s === 1 && sub === 2;
        rets.push({
          mo: `AntennaUnitGroup=${s},AntennaNearUnit=1,RetSubUnit=${sub}`,
          values: [
            String(int(r, 2, 9) * 10),
            disabled ? STATE.disabled : STATE.enabled,
            `${node.name}_S${s}_${band}`,
            band === 'LB' ? '140' : '100',
            band === 'LB' ? '0' : '-20',
            `CN1018A${String(int(r, 0, 999_999)).padStart(6, '0')}`,
          ],
        });
      }
    }
  }

  const gets = configurationRows(plan, r, out);
  const relations = relationRows(plan, r, scale.relations ?? 0);

  // The log: the prompts of the console's MoBatch command file for the node's technologies, in its order.
  log.push('Checking ip contact...OK', '', 'HELP MENU            : h', '');
  const technologies = [...new Set(node.cells.map((c) => c.tech))];
  for (const command of commandsOf(scriptGroupOf(technologies))) {
    if (command === 'q') break;
    if (command === 'lt all') {
      log.command(command, 4);
      const mos = 900 + node.cells.length * 40 + terms.length * 3;
      log.push(
        `Checking MOM version...${MODELS[kind]!.model}`,
        'Fetching MO tree......................................Done.',
        `Last MO: ${mos}. Loaded ${mos} MOs. Total: ${mos + 1} MOs.`,
        '',
      );
    } else if (command === 'alt') {
      log.command(command, 2);
      log.push(`Connecting to ${plan.ip}:830 (SSH)`, '$ readclock', `Nr of active alarms are: ${out.unack.length + out.ack.length}`);
      const basis = kind === 'RadioNode' ? 'UTC' : 'Local';
      alarmTable(log, 'UNACKNOWLEDGED ALARMS', out.unack, basis, false);
      log.push('');
      alarmTable(log, 'ACKNOWLEDGED ALARMS', out.ack, basis, true);
      const all = [...out.unack, ...out.ack];
      const count = (s: DemoSeverityCode) => all.filter((a) => a.severity === s).length;
      log.push(`>>> Total: ${all.length} Alarms (${count('C')} Critical, ${count('M')} Major)`, '');
    } else if (command === 'st cell') {
      log.command(command, 1);
      stateTable(log, [...cellState.values()]);
    } else if (command === 'st term') {
      // On an RNC the Iub links are its term points.
      log.command(command, 1);
      stateTable(log, kind === 'RNC' ? iubs : terms);
    } else if (command === 'st mme') {
      log.command(command, 1);
      stateTable(
        log,
        terms.filter((t) => t.mo.includes('TermPointToMme')),
      );
    } else if (command.startsWith('st ')) {
      // `st GsmSector|Trx`: the demo's GSM cells are GeranCells of the BSC (st cell shows them).
      log.command(command, 1);
      stateTable(log, []);
    } else if (command.startsWith('hget retsubunit')) {
      log.command(command, 2);
      hgetTable(log, rets);
    } else if (command.startsWith('get ')) {
      log.command(command, 2);
      const cls = /^get (\w+)/.exec(command)?.[1] ?? '';
      getTable(log, gets.get(cls.startsWith('EUtranCell') ? 'EUtranCell' : cls) ?? []);
    } else {
      log.command(command, 1);
    }
  }
  if (relations.length > 0) {
    log.command('get EUtranCellRelation=[^,]+$ ^(isHoAllowed|neighborCellRef|sCellCandidate)$', 3);
    getTable(log, relations);
  }
  if (plan.cvls) {
    log.command('cvls', 2);
    const d = `${two(now.getUTCFullYear() % 100)}${two(now.getUTCMonth() + 1)}${two(now.getUTCDate())}`;
    const t = `${now.getUTCFullYear()}-${two(now.getUTCMonth() + 1)}-${two(now.getUTCDate())} 01:00`;
    log.push(...CVLS.map((l) => l.replace('{D}', d).replace('{T}', t)));
  }
  log.push(`${node.name}> q`, '', 'Bye...');

  let lines = log.lines;
  if (plan.ipPrefix) lines = lines.map((l) => `${plan.ip}: ${l}`);
  out.text = lines.join(plan.crlf ? '\r\n' : '\n') + (plan.crlf ? '\r\n' : '\n');
  return out;
}

/**
 * The configuration values of the node's cells by MO class (`EUtranCell`, `NRCellDU`, `NbIotCell`,
 * `UtranCell`): the inventory's, except a few deliberate deviations on mixed nodes, noted in `out`.
 */
export function configurationRows(plan: NodePlan, r: () => number, out: NodeOutcome): Map<string, GetRow[]> {
  const { node } = plan;
  const rows = new Map<string, GetRow[]>();
  const deviation = (cell: DemoLogCell, attribute: string, written: string, expected: string) =>
    out.deviations.push(`${node.name} ${cell.mo}: ${attribute} ${written} (expected ${expected})`);
  const mixed = plan.category === 'mixed';

  const lte = node.cells.filter((c) => c.tech === '4G');
  const lteRows: GetRow[] = [];
  const oddLte = mixed && plan.mixedIndex % 3 === 0 && lte.length > 0 ? pick(r, lte) : null;
  const which = int(r, 0, 3);
  for (const c of lte) {
    const pci = c.pci ?? 0;
    let barred = '1 (NOT_BARRED)';
    let reserved = 'false';
    let qRxLevMin = '-140';
    let tac = String(c.tac ?? '');
    if (c === oddLte) {
      if (which === 0) {
        qRxLevMin = '-124';
        deviation(c, 'qRxLevMin', qRxLevMin, '-140');
      } else if (which === 1) {
        barred = '0 (BARRED)';
        deviation(c, 'cellBarred', 'BARRED', 'NOT_BARRED');
      } else if (which === 2) {
        reserved = 'true';
        deviation(c, 'primaryPlmnReserved', reserved, 'false');
      } else {
        tac = String((c.tac ?? 0) + 1);
        deviation(c, 'tac', tac, String(c.tac));
      }
    }
    lteRows.push(
      { mo: c.mo, attribute: 'cellBarred', value: barred },
      { mo: c.mo, attribute: 'primaryPlmnReserved', value: reserved },
      { mo: c.mo, attribute: 'qRxLevMin', value: qRxLevMin },
      { mo: c.mo, attribute: 'physicalLayerCellIdGroup', value: String(Math.floor(pci / 3)) },
      { mo: c.mo, attribute: 'physicalLayerSubCellId', value: String(pci % 3) },
      { mo: c.mo, attribute: 'tac', value: tac },
      { mo: c.mo, attribute: 'earfcndl', value: String(c.channel ?? '') },
    );
  }
  rows.set('EUtranCell', lteRows);

  const nr = node.cells.filter((c) => c.tech === '5G');
  const nrRows: GetRow[] = [];
  const oddNr = mixed && plan.mixedIndex % 4 === 1 && nr.length > 0 ? pick(r, nr) : null;
  const reserveNr = r() < 0.5;
  for (const c of nr) {
    let reserved = '1 (NOT_RESERVED)';
    let pci = String(c.pci ?? '');
    if (c === oddNr) {
      if (reserveNr) {
        reserved = '0 (RESERVED)';
        deviation(c, 'cellReservedForOperator', 'RESERVED', 'NOT_RESERVED');
      } else {
        pci = String(((c.pci ?? 0) + 3) % 1008);
        deviation(c, 'nRPCI', pci, String(c.pci));
      }
    }
    nrRows.push(
      { mo: c.mo, attribute: 'cellBarred', value: '1 (NOT_BARRED)' },
      { mo: c.mo, attribute: 'cellReservedForOperator', value: reserved },
      { mo: c.mo, attribute: 'nRPCI', value: pci },
      { mo: c.mo, attribute: 'nRTAC', value: String(c.nrTac ?? c.tac ?? '') },
    );
  }
  rows.set('NRCellDU', nrRows);

  const nb = node.cells.filter((c) => c.tech === 'NB-IoT');
  const oddNb = mixed && plan.mixedIndex % 4 === 3 && nb.length > 0 ? pick(r, nb) : null;
  if (oddNb) deviation(oddNb, 'cellBarred', 'BARRED', 'NOT_BARRED');
  rows.set(
    'NbIotCell',
    nb.map((c) => ({ mo: c.mo, attribute: 'cellBarred', value: c === oddNb ? '0 (BARRED)' : '1 (NOT_BARRED)' })),
  );

  // The inventory's own CPICH plan already holds a few out-of-range cells; two more deviate here.
  const umts = node.cells.filter((c) => c.tech === '3G');
  const umtsRows: GetRow[] = [];
  const reservedCell = umts.length > 0 ? umts[int(r, 0, umts.length - 1)]! : null;
  const powerCell = umts.length > 1 ? umts[int(r, 0, umts.length - 1)]! : null;
  for (const c of umts) {
    const max = c.maxTxPower ?? 430;
    let cpich = c.cpichPower ?? max - 100;
    if (c === powerCell) {
      cpich = max - 50;
      deviation(c, 'primaryCpichPower', String(cpich), `${max - 120} … ${max - 80}`);
    }
    if (c === reservedCell) deviation(c, 'cellReserved', 'RESERVED', 'NOT_RESERVED');
    umtsRows.push(
      { mo: c.mo, attribute: 'cellReserved', value: c === reservedCell ? '0 (RESERVED)' : '1 (NOT_RESERVED)' },
      { mo: c.mo, attribute: 'primaryCpichPower', value: String(cpich) },
      { mo: c.mo, attribute: 'maximumTransmissionPower', value: String(max) },
      { mo: c.mo, attribute: 'primaryScramblingCode', value: String(c.psc ?? '') },
      { mo: c.mo, attribute: 'uarfcnDl', value: String(c.channel ?? '') },
    );
  }
  rows.set('UtranCell', umtsRows);
  return rows;
}

/** Bench only: `count` EUtranCellRelations per 4G cell, three attributes each. */
export function relationRows(plan: NodePlan, r: () => number, count: number): GetRow[] {
  const rows: GetRow[] = [];
  if (count <= 0) return rows;
  for (const c of plan.node.cells) {
    if (c.tech !== '4G') continue;
    for (let k = 0; k < count; k += 1) {
      const peer = plan.neighbours[k % Math.max(1, plan.neighbours.length)] ?? plan.node.name;
      const relation = `${c.mo},EUtranFreqRelation=${c.channel ?? 0},EUtranCellRelation=268-01-${10_001 + k}-${(k % 3) + 11}`;
      rows.push(
        { mo: relation, attribute: 'isHoAllowed', value: r() < 0.97 ? 'true' : 'false' },
        {
          mo: relation,
          attribute: 'neighborCellRef',
          value: `ENodeBFunction=1,EUtraNetwork=1,ExternalENodeBFunction=${peer},ExternalEUtranCellFDD=${peer}_${k}`,
        },
        { mo: relation, attribute: 'sCellCandidate', value: pick(r, ['0 (NOT_ALLOWED)', '1 (ALLOWED)', '2 (AUTO)']) },
      );
    }
  }
  return rows;
}

export function unreachableLog(node: DemoLogNode, ip: string, at: Date, stopfile: number): string {
  const kind = node.type === 'RNC' || node.type === 'BSC' ? node.type : 'RadioNode';
  const { version, model } = MODELS[kind]!;
  return [`${headerStamp(at)} ${ip} ${version} ${model} stopfile=/tmp/${stopfile}`, 'Checking ip contact...Not OK', ''].join('\n');
}

export const ipOf = (index: number): string => `10.${20 + Math.floor(index / 62_500)}.${Math.floor(index / 250) % 250}.${(index % 250) + 1}`;
