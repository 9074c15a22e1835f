import { block } from './__tests__/helpers';
import type { Captured } from '../network/__tests__/helpers';
import { validateCpich } from '../planning/cpich';
import { optimiseNeighbours, type HoStat } from '../planning/optimisation';
import { demoDump, indexOf } from './__tests__/demo';
import { checkMosScript } from './grammar';
import { cpichScripts, optimisationScripts, recommendCpich, scriptFiles } from './index';
import type { ScriptRun } from './mos';

const RUN: ScriptRun = { runId: 7, title: 'test run', tag: 'T', date: new Date('2026-03-05T14:30:00Z') };

const fileOf = (files: Array<[string, string]>, name: string) => files.find(([n]) => n === name)![1];

describe('corrective scripts from a CPICH validation (demo UTRAN cells on the RNC)', () => {
  let dump: Captured;
  beforeAll(async () => {
    dump = await demoDump(8);
  });

  it('sets primaryCpichPower to the recommended value (0.1 dBm) on the cell of the RNC, undone by setting it back', () => {
    // One cell per site, so the sectors' 2 dB rule (tested below) does not move them.
    const [high, over] = ['LX0002', 'LX0003'].map((site) => ({ ...dump.cells.find((c) => c.tech === '3G' && c.siteId === site)! }));
    const cells = [high!, over!];
    // 43 dBm max: CPICH 40 dBm is only 3 dB below it (ERROR needs ≥ max; this is a WARNING outside 8–12 dB).
    high!.maxTxPower = 430;
    high!.cpichPower = 400;
    // Max power above the 46 dBm capability: an ERROR; CPICH goes to 10 dB below the capability.
    over!.maxTxPower = 480;
    over!.cpichPower = 330;
    const rows = validateCpich(cells);
    const out = scriptFiles(cpichScripts(rows, cells), RUN)!;
    expect(out.nodes).toEqual(['RNC01']);
    const script = fileOf(out.files, 'RNC01.mos');
    const undo = fileOf(out.files, 'RNC01_undo.mos');
    const ldn = (cell: string) => `RncFunction=1,UtranCell=${cell}$`;
    expect(block(script, `CPICH WARNING ${high!.name}`)).toEqual([
      `# CPICH WARNING ${high!.name}: 40.0 dBm -> 33.0 dBm (primaryCpichPower 40.0 dBm is 3.0 dB below max; expected 8.0 dB–12.0 dB (31.0 dBm–35.0 dBm))`,
      `set ${ldn(high!.name)} primaryCpichPower 330`,
    ]);
    expect(block(undo, `undo CPICH WARNING ${high!.name}`)).toEqual([
      `# undo CPICH WARNING ${high!.name}: back to 40.0 dBm`,
      `set ${ldn(high!.name)} primaryCpichPower 400`,
    ]);
    expect(block(script, `CPICH ERROR ${over!.name}`)).toEqual([
      `# CPICH ERROR ${over!.name}: 48.0 dBm exceeds the radio capability; set to 46.0 dBm`,
      `set ${ldn(over!.name)} maximumTransmissionPower 460`,
      `# CPICH ERROR ${over!.name}: 33.0 dBm -> 36.0 dBm (maximumTransmissionPower 48.0 dBm exceeds the radio capability 46.0 dBm; primaryCpichPower 33.0 dBm is 15.0 dB below max; expected 8.0 dB–12.0 dB (36.0 dBm–40.0 dBm))`,
      `set ${ldn(over!.name)} primaryCpichPower 360`,
    ]);
    // Undone last first: the CPICH back before the max power.
    expect(block(undo, `undo CPICH ERROR ${over!.name}`).filter((l) => !l.startsWith('#'))).toEqual([
      `set ${ldn(over!.name)} primaryCpichPower 330`,
      `set ${ldn(over!.name)} maximumTransmissionPower 480`,
    ]);
    for (const [name, content] of out.files.filter(([n]) => n.endsWith('.mos')))
      expect({ name, errors: checkMosScript(content) }).toEqual({ name, errors: [] });
  });

  it('brings the sectors of a site on one carrier within 2 dB (their median), and leaves OK cells alone', () => {
    const cells = dump.cells.filter((c) => c.tech === '3G' && c.siteId === 'LX0003').map((c) => ({ ...c, maxTxPower: 430 }));
    cells[0]!.cpichPower = 310;
    cells[1]!.cpichPower = 340;
    cells[2]!.cpichPower = 335;
    const recs = recommendCpich(validateCpich(cells));
    expect(recs.map((r) => [r.cell, r.primaryCpichPower])).toEqual([
      [cells[0]!.name, { from: 310, to: 335 }],
      [cells[1]!.name, { from: 340, to: 335 }],
      [cells[2]!.name, null],
    ]);
    expect(recommendCpich(validateCpich(cells.map((c) => ({ ...c, cpichPower: 330 }))))).toEqual([]);
  });

  it('a cell without its powers gets a comment, not a guess', () => {
    const cells = dump.cells.filter((c) => c.tech === '3G' && c.siteId === 'LX0004').map((c) => ({ ...c }));
    cells[0]!.cpichPower = null;
    const plan = cpichScripts(validateCpich(cells), cells);
    expect(plan.changes.filter((c) => c.finding.includes(cells[0]!.name))).toEqual([]);
    expect(plan.notes).toContainEqual({ node: 'RNC01', label: 'CPICH', text: `ERROR ${cells[0]!.name}: primaryCpichPower missing; no value to recommend` });
  });
});

describe('corrective scripts from a neighbour optimisation (demo relations)', () => {
  it('del for a remove candidate (undone by crn), set isHoAllowed false for a block candidate (undone by true)', async () => {
    const dump = await demoDump(8);
    const index = indexOf(dump);
    const source = 'LX0001_L800_1';
    const rels = index.relationsFrom(source).filter((r) => r.relation.kind === 'LTE-LTE');
    const unused = rels.find((r) => r.relation.isRemoveAllowed && r.target?.name === 'LX0001_L800_2')!;
    const failing = rels.find((r) => r.relation.isHoAllowed && r.target?.name !== 'LX0001_L800_2')!;
    const stats: HoStat[] = rels
      .filter((r) => r !== unused)
      .map((r) => ({ source, target: r.target!.name, period: '2026-03-01', attempts: r === failing ? 200 : 100, successes: r === failing ? 20 : 99 }));
    const result = optimiseNeighbours(stats, index);
    expect(result.remove.map((r) => r.target)).toEqual(['LX0001_L800_2']);
    expect(result.block.map((r) => r.target)).toEqual([failing.target!.name]);
    const out = scriptFiles(optimisationScripts(result, index), RUN)!;
    const script = fileOf(out.files, 'LX0001.mos');
    const undo = fileOf(out.files, 'LX0001_undo.mos');
    const unusedLdn = 'ENodeBFunction=1,EUtranCellFDD=LX0001_L800_1,EUtranFreqRelation=6300,EUtranCellRelation=LX0001_L800_2';
    expect(block(script, 'REMOVE LX0001_L800_1 -> LX0001_L800_2')).toEqual([
      '# REMOVE LX0001_L800_1 -> LX0001_L800_2: no handover attempt over 1 period(s) (2026-03-01); createdBy OPERATOR',
      `del ${unusedLdn}$`,
    ]);
    expect(block(undo, 'undo REMOVE LX0001_L800_1 -> LX0001_L800_2')).toEqual([
      '# undo REMOVE LX0001_L800_1 -> LX0001_L800_2: create LX0001_L800_2 again as the dump had it (createdBy OPERATOR)',
      `crn ${unusedLdn}`,
      'neighborCellRef ENodeBFunction=1,EUtranCellFDD=LX0001_L800_2',
      `isHoAllowed ${unused.relation.isHoAllowed}`,
      'isRemoveAllowed true',
      'end',
    ]);
    const failingLdn = failing.relation.dn.slice(failing.relation.dn.indexOf('ENodeBFunction='));
    const filter = `${failingLdn.replace(/[.]/g, '\\.')}$`;
    expect(block(script, `BLOCK LX0001_L800_1 -> ${failing.target!.name}`)).toEqual([
      `# BLOCK LX0001_L800_1 -> ${failing.target!.name}: 20/200 handovers succeeded (10.0% < 90.0%) over 1 period(s) (2026-03-01)`,
      `set ${filter} isHoAllowed false`,
    ]);
    expect(block(undo, `undo BLOCK LX0001_L800_1 -> ${failing.target!.name}`)).toEqual([
      `# undo BLOCK LX0001_L800_1 -> ${failing.target!.name}: handovers allowed again`,
      `set ${filter} isHoAllowed true`,
    ]);
    for (const [name, content] of out.files.filter(([n]) => n.endsWith('.mos')))
      expect({ name, errors: checkMosScript(content) }).toEqual({ name, errors: [] });
  });
});
