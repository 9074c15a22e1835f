import { block } from './__tests__/helpers';
import type { Captured } from '../network/__tests__/helpers';
import { validateNeighbourRelations, type PlannedRelation } from '../planning/neighbour-validation';
import { demoDump, indexOf } from './__tests__/demo';
import { checkMosScript } from './grammar';
import { scriptFiles } from './index';
import { writeNodeScripts, type ScriptRun } from './mos';
import { neighbourScripts } from './neighbours';

const RUN: ScriptRun = { runId: 12, title: 'Neighbour relations validation of LX0001', tag: 'NBR', date: new Date('2026-03-05T14:30:00Z') };
const SOURCE = 'LX0001_L800_1';
const ENB = 'ENodeBFunction=1';
const CELL = `${ENB},EUtranCellFDD=${SOURCE}`;

describe('corrective scripts from a neighbour relations validation (demo Bulk CM, as imported)', () => {
  let dump: Captured;
  let script: string;
  let undo: string;
  let readme: string;
  let files: Array<[string, string]>;
  let farCell: string;

  beforeAll(async () => {
    dump = await demoDump(8);
    const source = dump.cells.find((c) => c.name === SOURCE)!;
    const relations = dump.relations.filter((r) => r.sourceCellDn === source.dn);
    const name = (dn: string) => dn.slice(dn.lastIndexOf('=') + 1);
    // A stale proxy: 26801-10008-12 says PCI 3 more than its cell has.
    const stale = dump.externalCells.find((e) => e.nodeName === 'LX0001' && e.name === '26801-10008-12')!;
    stale.pci = stale.pci! + 3;
    // The relation to LX0001_L800_3 must stay (isRemoveAllowed false), the ANR one to 26801-10002-11 may go.
    expect(relations.find((r) => r.name === 'LX0001_L800_3')?.isRemoveAllowed).toBe(false);
    expect(relations.find((r) => r.name === '26801-10002-11')).toMatchObject({ createdBy: 'ANR', isRemoveAllowed: true });
    // A cell of a site LX0001 has no proxy of at all: the eNB and the cell proxies must be created.
    const proxiedEnbs = new Set(dump.externalCells.filter((e) => e.nodeName === 'LX0001').map((e) => e.ownerId));
    farCell = dump.cells.find((c) => c.tech === '4G' && c.band === 'L800' && c.siteId !== 'LX0001' && !proxiedEnbs.has(c.ownerId))!.name;

    const index = indexOf(dump);
    const planned: PlannedRelation[] = relations
      .filter((r) => r.name !== 'LX0001_L800_3' && r.name !== '26801-10002-11')
      .map((r) => ({ source: SOURCE, target: index.resolve(r).targetName ?? name(r.dn) }));
    planned.push({ source: SOURCE, target: 'LX0001_L1800_2' }, { source: SOURCE, target: farCell }, { source: 'LX9999_L800_1', target: SOURCE });
    const rows = validateNeighbourRelations(planned, index);
    expect(rows.filter((r) => r.verdict !== 'OK').map((r) => [r.verdict, r.target])).toEqual(
      expect.arrayContaining([
        ['MISSING', 'LX0001_L1800_2'],
        ['MISSING', farCell],
        ['EXTRA', 'LX0001_L800_3'],
        ['EXTRA', 'LX0002_L800_1'],
        ['WRONG', 'LX0008_L800_2'],
      ]),
    );
    const out = scriptFiles(neighbourScripts(rows, index), RUN)!;
    files = out.files;
    script = files.find(([n]) => n === 'LX0001.mos')![1];
    undo = files.find(([n]) => n === 'LX0001_undo.mos')![1];
    readme = files.find(([n]) => n === 'README.txt')![1];
  });

  it('starts each script with confbd+ and gs+, stops on another node and takes a CV backup before any change', () => {
    for (const text of [script, undo]) {
      const commands = text.split('\n').filter((l) => l !== '' && !l.startsWith('#'));
      expect(commands.slice(0, 8)).toEqual([
        'confbd+',
        'gs+',
        'if $nodename != LX0001',
        'print This script is for LX0001, not $nodename: nothing changed',
        'return',
        'fi',
        'lt all',
        '$date = `date +%y%m%d_%H%M`',
      ]);
      expect(commands[8]).toMatch(/^cvms CW_NBR_12_LX0001_(pre|undo)_\$date$/);
      expect(commands.slice(-2)).toEqual(['confbd-', 'gs-']);
    }
  });

  it('MISSING on the same node: a relation under the existing frequency relation, pointing at the cell itself; undone by del', () => {
    expect(block(script, 'MISSING LX0001_L800_1 -> LX0001_L1800_2')).toEqual([
      '# MISSING LX0001_L800_1 -> LX0001_L1800_2: relation to LX0001_L1800_2 (same node)',
      `crn ${CELL},EUtranFreqRelation=1850,EUtranCellRelation=LX0001_L1800_2`,
      `neighborCellRef ${ENB},EUtranCellFDD=LX0001_L1800_2`,
      'end',
    ]);
    expect(block(undo, 'undo MISSING LX0001_L800_1 -> LX0001_L1800_2')).toEqual([
      '# undo MISSING LX0001_L800_1 -> LX0001_L1800_2: delete EUtranCellRelation=LX0001_L1800_2, created by the script',
      `del ${CELL},EUtranFreqRelation=1850,EUtranCellRelation=LX0001_L1800_2$`,
    ]);
  });

  it('MISSING on another node: the proxies of its eNB and cell first, then the relation; the undo deletes them in reverse', () => {
    const target = dump.cells.find((c) => c.name === farCell)!;
    const enb = target.ownerId!;
    const fn = `${ENB},EUtraNetwork=1,ExternalENodeBFunction=26801-${enb}`;
    const proxy = `${fn},ExternalEUtranCellFDD=26801-${enb}-${target.cellId}`;
    const finding = `MISSING LX0001_L800_1 -> ${farCell}`;
    expect(block(script, finding)).toEqual([
      `# ${finding}: proxy of ${target.nodeName}, eNB ${enb}`,
      `crn ${fn}`,
      `eNBId ${enb}`,
      'eNodeBPlmnId mcc=268,mnc=1,mncLength=2',
      `userLabel ${target.nodeName}`,
      'end',
      `# ${finding}: proxy of ${farCell} (PCI ${target.pci}, TAC ${target.tac})`,
      `crn ${proxy}`,
      `localCellId ${target.cellId}`,
      `physicalLayerCellIdGroup ${Math.floor(target.pci! / 3)}`,
      `physicalLayerSubCellId ${target.pci! % 3}`,
      `tac ${target.tac}`,
      `eutranFrequencyRef ${ENB},EUtraNetwork=1,EUtranFrequency=6300`,
      `userLabel ${farCell}`,
      'end',
      `# ${finding}: relation to ${farCell} on ${target.nodeName} through its proxy`,
      `crn ${CELL},EUtranFreqRelation=6300,EUtranCellRelation=26801-${enb}-${target.cellId}`,
      `neighborCellRef ${proxy}`,
      'end',
    ]);
    const back = block(undo, `undo ${finding}`);
    expect(back.filter((l) => !l.startsWith('#'))).toEqual([
      `del ${CELL},EUtranFreqRelation=6300,EUtranCellRelation=26801-${enb}-${target.cellId}$`,
      `del ${proxy}$`,
      `del ${fn}$`,
    ]);
    expect(back[0]).toBe(`# undo ${finding}: delete EUtranCellRelation=26801-${enb}-${target.cellId}, created by the script`);
  });

  it('EXTRA that may be removed: del, undone by crn with its target and flags', () => {
    const relation = `${CELL},EUtranFreqRelation=6300,EUtranCellRelation=26801-10002-11`;
    const inDump = dump.relations.find((r) => r.dn.endsWith(relation))!;
    expect(block(script, 'EXTRA LX0001_L800_1 -> LX0002_L800_1')).toEqual([
      '# EXTRA LX0001_L800_1 -> LX0002_L800_1: not planned (createdBy ANR, isRemoveAllowed true)',
      `del ${relation}$`,
    ]);
    expect(block(undo, 'undo EXTRA LX0001_L800_1 -> LX0002_L800_1')).toEqual([
      '# undo EXTRA LX0001_L800_1 -> LX0002_L800_1: create 26801-10002-11 again as the dump had it (createdBy ANR)',
      `crn ${relation}`,
      `neighborCellRef ${ENB},EUtraNetwork=1,ExternalENodeBFunction=26801-10002,ExternalEUtranCellFDD=26801-10002-11`,
      `isHoAllowed ${inDump.isHoAllowed}`,
      'isRemoveAllowed true',
      'end',
    ]);
  });

  it('EXTRA that may not be removed: a comment saying it was left, no command', () => {
    const lines = script.split('\n');
    const note = lines.find((l) => l.includes('LX0001_L800_1 -> LX0001_L800_3'));
    expect(note).toBe('# EXTRA LX0001_L800_1 -> LX0001_L800_3: left in place, isRemoveAllowed is false (createdBy OPERATOR)');
    expect(lines.some((l) => /^(del|crn|set) .*EUtranCellRelation=LX0001_L800_3\$?$/.test(l))).toBe(false);
    expect(undo).not.toContain('LX0001_L800_3');
  });

  it('WRONG external cell: set its PCI parts to the real cell, undone by set back to the old values', () => {
    const real = dump.cells.find((c) => c.name === 'LX0008_L800_2')!;
    const proxy = `${ENB},EUtraNetwork=1,ExternalENodeBFunction=26801-10008,ExternalEUtranCellFDD=26801-10008-12`;
    const filter = proxy.replace(/[-.]/g, (c) => (c === '.' ? '\\.' : c));
    const stale = real.pci! + 3;
    expect(block(script, 'WRONG LX0001_L800_1 -> LX0008_L800_2')).toEqual([
      `# WRONG LX0001_L800_1 -> LX0008_L800_2: external cell 26801-10008-12: physicalLayerCellIdGroup ${Math.floor(stale / 3)} -> ${Math.floor(real.pci! / 3)} (PCI ${stale} -> ${real.pci}, as LX0008_L800_2 has it)`,
      `set ${filter}$ physicalLayerCellIdGroup ${Math.floor(real.pci! / 3)}`,
    ]);
    expect(block(undo, 'undo WRONG LX0001_L800_1 -> LX0008_L800_2')).toEqual([
      `# undo WRONG LX0001_L800_1 -> LX0008_L800_2: external cell 26801-10008-12: physicalLayerCellIdGroup back to ${Math.floor(stale / 3)}`,
      `set ${filter}$ physicalLayerCellIdGroup ${Math.floor(stale / 3)}`,
    ]);
  });

  it('says in the README what could not be scripted, and how to run the scripts and their undo', () => {
    expect(readme).toContain('MISSING LX9999_L800_1 -> LX0001_L800_1: source cell LX9999_L800_1 is not in the dump');
    expect(readme).toContain('amos LX0001 LX0001.mos');
    expect(readme).toContain('amos LX0001 LX0001_undo.mos');
    expect(readme).toMatch(/mobatch "site_\$node\.txt" "\$node\.mos" logs/);
    expect(files.map(([n]) => n)).toEqual(['README.txt', 'sites.txt', 'LX0001.mos', 'LX0001_undo.mos']);
  });

  it('every generated file passes the command grammar', () => {
    for (const [name, content] of files.filter(([n]) => n.endsWith('.mos'))) expect({ name, errors: checkMosScript(content) }).toEqual({ name, errors: [] });
  });

  it('a validation with nothing to correct makes no scripts', () => {
    expect(scriptFiles(neighbourScripts([], indexOf(dump)), RUN)).toBeNull();
    expect(writeNodeScripts({ changes: [], notes: [], byHand: [] }, RUN)).toEqual([]);
  });
});
