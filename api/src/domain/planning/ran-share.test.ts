import type { Cell } from '../network/model';
import { cell, external, relation } from './__tests__/fixtures';
import { NetworkIndex } from './network-index';
import { validateMocn, validateMoran } from './ran-share';

const c = (name: string, siteId: string, plmns: string[], azimuth: number | null = 0): Cell =>
  cell({ name, siteId, tech: '4G', band: 'L800', channel: 6300, plmns, azimuth });
const rels = (source: Cell, ...targets: Cell[]) => targets.map((t) => relation({ sourceCellDn: source.dn, targetRef: t.dn }));

describe('MOCN', () => {
  it('flags a target that does not broadcast every PLMN of the source', () => {
    const m1 = c('M1', 'M', ['268-03', '268-01']);
    const m2 = c('M2', 'M', ['268-01', '268-03'], 120);
    const n1 = c('N1', 'N', ['268-01', '268-03']);
    const p1 = c('P1', 'P', ['268-01']);
    const proxy = external({ dn: 'ME=M,ExternalEUtranCellFDD=Q1', name: 'Q1', kind: '4G', globalId: '268-01-99-1' });
    const index = new NetworkIndex({
      cells: [m1, m2, n1, p1],
      externalCells: [proxy],
      relations: [...rels(m1, n1, p1), relation({ sourceCellDn: m1.dn, targetRef: proxy.dn }), ...rels(m2, m1)],
    });
    expect(validateMocn(index, 'M').map((r) => [r.source, r.target, r.verdict, r.missingPlmns])).toEqual([
      ['M1', 'N1', 'OK', []],
      ['M1', 'P1', 'MISSING_PLMN', ['268-03']],
      ['M1', 'Q1', 'UNRESOLVED', []],
      ['M2', 'M1', 'OK', []],
    ]);
    const missing = validateMocn(index, 'M').find((r) => r.verdict === 'MISSING_PLMN');
    expect(missing).toMatchObject({ sourcePlmns: ['268-01', '268-03'], targetPlmns: ['268-01'], reason: 'P1 does not broadcast 268-03 served by M1' });
  });
});

describe('MORAN', () => {
  const host1 = c('R_L800_1', 'R', ['268-01'], 0);
  const host2 = c('R_L800_2', 'R', ['268-01'], 120);
  const own1 = c('R3_L800_1', 'R', ['268-03'], 0);
  const own2 = c('R3_L800_2', 'R', ['268-03'], 120);
  const t = c('T_L800_1', 'T', ['268-01']);
  const t3 = c('T3_L800_1', 'T', ['268-03']);
  const u = c('U_L800_1', 'U', ['268-01']); // not shared: 268-03 needs no relation to it
  const v = c('V_1', 'V', ['268-01', '268-03']); // MOCN cell: 268-03 relates to it directly
  const index = new NetworkIndex({
    cells: [host1, host2, own1, own2, t, t3, u, v],
    externalCells: [],
    relations: [...rels(host1, host2, t, u, v), ...rels(host2, host1), ...rels(own1, own2, v)],
  });

  it("requires each sharing operator's layer to mirror the host layer's relations", () => {
    expect(validateMoran(index, 'R').map((r) => [r.plmn, r.hostSource, r.hostTarget, r.source, r.expectedTarget, r.verdict])).toEqual([
      ['268-03', 'R_L800_1', 'R_L800_2', 'R3_L800_1', 'R3_L800_2', 'OK'],
      ['268-03', 'R_L800_1', 'T_L800_1', 'R3_L800_1', 'T3_L800_1', 'MISSING'],
      ['268-03', 'R_L800_1', 'V_1', 'R3_L800_1', 'V_1', 'OK'],
      ['268-03', 'R_L800_2', 'R_L800_1', 'R3_L800_2', 'R3_L800_1', 'MISSING'],
    ]);
  });

  it('reports an operator without a layer in a sector', () => {
    const rows = validateMoran(index, 'R', { hostPlmn: '268-01', sharingPlmns: ['268-05'] });
    expect(rows.map((r) => [r.hostSource, r.verdict, r.reason])).toEqual([
      ['R_L800_1', 'NO_LAYER', '268-05 has no 4G layer in the sector of R_L800_1'],
      ['R_L800_2', 'NO_LAYER', '268-05 has no 4G layer in the sector of R_L800_2'],
    ]);
  });
});
