import type { Cell, ExternalCell, Relation } from '../network/model';
import { cell, external, relation } from './__tests__/fixtures';
import { validateNeighbourRelations } from './neighbour-validation';
import { NetworkIndex } from './network-index';

const lte = (name: string, siteId: string, enb: number, pci: number): Cell =>
  cell({ name, siteId, tech: '4G', channel: 6300, pci, tac: 100, ownerId: enb, cellId: 1, globalId: `268-01-${enb}-1` });
const ext = (name: string, globalId: string, pci: number): ExternalCell =>
  external({ dn: `ME=A,EUtraNetwork=1,ExternalEUtranCellFDD=${name}`, name, kind: '4G', pci, tac: 100, channel: 6300, globalId });

function dump(): NetworkIndex {
  const a1 = lte('A1', 'A', 1, 10);
  const a2 = cell({ ...lte('A2', 'A', 1, 11), cellId: 2, globalId: '268-01-1-2' });
  const cells = [a1, a2, lte('B1', 'B', 2, 20), lte('C1', 'C', 3, 30), lte('E1', 'E', 5, 50), lte('G1', 'G', 7, 70), lte('H1', 'H', 8, 80)];
  const externals = [
    ext('B1', '268-01-2-1', 20), // agrees with B1
    ext('C1', '268-01-3-1', 31), // stale PCI: C1 has 30
    ext('D1', '268-01-9-1', 40), // stands for a cell the dump does not have
    ext('E1', '268-01-5-1', 50),
    ext('F1', '268-01-7-1', 70), // named F1 but its global id is G1's
  ];
  const rel = (target: string, extra: Partial<Relation> = {}) => relation({ sourceCellDn: a1.dn, targetRef: target, ...extra });
  const relations = [
    rel(externals[0]!.dn),
    rel(externals[1]!.dn),
    rel(externals[2]!.dn),
    rel(a2.dn, { name: 'A2' }),
    rel(externals[3]!.dn, { createdBy: 'ANR', isRemoveAllowed: false }),
    rel(externals[4]!.dn),
  ];
  return new NetworkIndex({ cells, externalCells: externals, relations });
}

describe('neighbour relations validation', () => {
  it('gives OK, MISSING, EXTRA and WRONG', () => {
    const planned = [
      { source: 'A1', target: 'B1' },
      { source: 'A1', target: 'C1' },
      { source: 'A1', target: 'D1' },
      { source: 'A1', target: 'A2' },
      { source: 'A1', target: 'H1' },
      { source: 'A1', target: 'F1' },
      { source: 'A1', target: 'B1' }, // duplicate line in the workbook
      { source: 'Z9', target: 'B1' },
    ];
    const rows = validateNeighbourRelations(planned, dump());
    expect(rows.map((r) => [r.source, r.target, r.verdict, r.reason])).toEqual([
      ['A1', 'A2', 'OK', 'OK'],
      ['A1', 'B1', 'OK', 'OK'],
      ['A1', 'C1', 'WRONG', 'external cell C1 is stale: PCI 31 on the external cell, 30 on C1'],
      ['A1', 'D1', 'WRONG', 'the relation for D1 does not resolve to any cell in the dump'],
      ['A1', 'F1', 'WRONG', 'the relation for F1 resolves to G1'],
      ['A1', 'H1', 'MISSING', 'no relation from A1 to H1'],
      ['Z9', 'B1', 'MISSING', 'source cell Z9 is not in the dump'],
      ['A1', 'E1', 'EXTRA', 'not planned; createdBy ANR, removal not allowed'],
    ]);
    const extra = rows.find((r) => r.verdict === 'EXTRA');
    expect(extra).toMatchObject({ createdBy: 'ANR', isRemoveAllowed: false, isHoAllowed: true, kind: 'LTE-LTE', resolvedTarget: 'E1' });
    expect(rows.find((r) => r.target === 'F1')?.resolvedTarget).toBe('G1');
    expect(rows.find((r) => r.target === 'H1')?.relationDn).toBeNull();
  });

  it('reports every relation of a source in scope that is not planned', () => {
    const rows = validateNeighbourRelations([{ source: 'A1', target: 'B1' }], dump(), { sourceCells: ['A1'] });
    expect(rows.filter((r) => r.verdict === 'EXTRA').map((r) => r.target)).toEqual(['A2', 'C1', 'D1', 'E1', 'G1']);
  });
});
