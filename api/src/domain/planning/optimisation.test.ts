import type { Cell, Relation } from '../network/model';
import { cell, relation } from './__tests__/fixtures';
import { PlanningError } from './errors';
import { NetworkIndex } from './network-index';
import { normaliseHoRecord, optimiseNeighbours, type HoStat } from './optimisation';

const lte = (name: string): Cell => cell({ name, siteId: name.slice(0, 1), tech: '4G' });
const cells = ['A1', 'B1', 'C1', 'D1', 'E1', 'F1', 'G1', 'H1', 'I1'].map(lte);
const byName = Object.fromEntries(cells.map((x) => [x.name, x])) as Record<string, Cell>;
const rel = (target: string, extra: Partial<Relation> = {}): Relation => relation({ sourceCellDn: byName['A1']!.dn, targetRef: byName[target]!.dn, ...extra });

const index = new NetworkIndex({
  cells,
  externalCells: [],
  relations: [rel('B1'), rel('C1', { createdBy: 'ANR' }), rel('D1', { isRemoveAllowed: false }), rel('E1'), rel('F1', { isHoAllowed: false }), rel('G1')],
});

const day = (period: string, rows: [string, string, number, number][]): HoStat[] =>
  rows.map(([source, target, attempts, successes]) => ({ source, target, period, attempts, successes }));

const stats: HoStat[] = [
  ...day('2024-05-01', [
    ['A1', 'B1', 0, 0],
    ['A1', 'D1', 0, 0],
    ['A1', 'E1', 30, 20],
    ['A1', 'F1', 50, 5],
    ['A1', 'G1', 20, 5],
    ['A1', 'H1', 80, 75],
    ['A1', 'I1', 30, 30],
    ['Z1', 'A1', 200, 190],
  ]),
  ...day('2024-05-02', [
    ['A1', 'B1', 0, 0],
    ['A1', 'E1', 30, 20],
    ['A1', 'F1', 50, 5],
    ['A1', 'G1', 20, 5],
    ['A1', 'H1', 70, 65],
  ]),
];

describe('neighbour optimisation', () => {
  const res = optimiseNeighbours(stats, index);

  it('finds the remove candidates: no attempt over the period and removal allowed', () => {
    // B1: 0 attempts in both periods; C1: no row at all; D1: 0 attempts but isRemoveAllowed false.
    expect(res.remove.map((r) => [r.target, r.attempts, r.periods, r.createdBy])).toEqual([
      ['B1', 0, 2, 'OPERATOR'],
      ['C1', 0, 2, 'ANR'],
    ]);
    expect(res.remove[0]?.evidence).toBe('no handover attempt over 2 period(s) (2024-05-01 … 2024-05-02); createdBy OPERATOR');
  });

  it('finds the block candidates: low success rate with enough attempts', () => {
    // E1: 40/60 = 66.7 % < 90 % with 60 ≥ 50 attempts → block. F1: 10/100 but already not allowed.
    // G1: 10/40 but only 40 < 50 attempts.
    expect(res.block.map((r) => [r.target, r.attempts, r.successes, r.successRate])).toEqual([['E1', 60, 40, 40 / 60]]);
    expect(res.block[0]?.evidence).toBe('40/60 handovers succeeded (66.7% < 90.0%) over 2 period(s) (2024-05-01 … 2024-05-02)');
  });

  it('finds the add candidates: strong handovers to undefined neighbours', () => {
    // A1 → H1: 150 attempts ≥ 100, not defined; share 150 / (0+0+60+100+40+150+30) = 150/380. A1 → I1: 30 < 100.
    // Z1 → A1: 200 attempts from a source the dump does not know.
    expect(res.add.map((r) => [r.source, r.target, r.attempts, r.successes, r.share, r.sourceInDump, r.targetInDump])).toEqual([
      ['A1', 'H1', 150, 140, 150 / 380, true, true],
      ['Z1', 'A1', 200, 190, 1, false, true],
    ]);
    expect(res.periods).toEqual(['2024-05-01', '2024-05-02']);
  });

  it('honours the thresholds', () => {
    const strict = optimiseNeighbours(stats, index, { blockSuccessRate: 0.2, blockMinAttempts: 10, addMinAttempts: 20, addMinShare: 0.05 });
    // G1 10/40 = 25 % ≥ 20 %; E1 66.7 % ≥ 20 % → none blocked. I1 30/380 = 7.9 % ≥ 5 % → added.
    expect(strict.block).toEqual([]);
    expect(strict.add.map((r) => r.target)).toEqual(['H1', 'I1', 'A1']);
  });
});

describe('handover statistics rows', () => {
  it('accepts Ericsson counter names and loose headers', () => {
    expect(normaliseHoRecord({ 'Source Cell': 'A1', target_cell: 'B1', DATE: '2024-05-01', pmHoExeAtt: '12', pmHoExeSucc: 10 })).toEqual({
      source: 'A1',
      target: 'B1',
      period: '2024-05-01',
      attempts: 12,
      successes: 10,
    });
    expect(normaliseHoRecord({ source: 'A1', target: 'B1', attempts: 3, successes: 3, period: new Date('2024-05-02T00:00:00Z') }).period).toBe('2024-05-02');
  });

  it('reads relation and reference headers as the target, and the preparation counters when the execution ones are absent', () => {
    expect(normaliseHoRecord({ EUtranCellFDD: 'A1', EUtranCellRelation: '268-01-2-1', pmHoPrepAtt: 9, pmHoPrepSucc: 8 })).toEqual({
      source: 'A1',
      target: '268-01-2-1',
      period: '',
      attempts: 9,
      successes: 8,
    });
    expect(normaliseHoRecord({ 'NR Cell CU': 'N1', neighborCellRef: 'N2', pmHoExeAtt: 5, pmHoExeSucc: 5, pmHoPrepAtt: 7 }).attempts).toBe(5);
  });

  it('rejects bad rows', () => {
    expect(() => normaliseHoRecord({ source: 'A1', target: 'B1', attempts: 3, successes: 4 })).toThrow(PlanningError);
    expect(() => normaliseHoRecord({ source: 'A1', target: 'B1', attempts: 'x', successes: 0 })).toThrow(/bad attempts/);
    expect(() => normaliseHoRecord({ target: 'B1', attempts: 1, successes: 0 })).toThrow(/without source/);
  });
});
