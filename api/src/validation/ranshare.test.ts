import type { Cell, Relation } from '../domain/network/model';
import { cell, relation } from '../domain/planning/__tests__/fixtures';
import { NetworkIndex } from '../domain/planning';
import { ranShareResult, shareKnowledgeOf, sharingOf } from './ranshare';
import { operatorOfPlmn } from './ranshare-operators';

const lte = (name: string, siteId: string, plmns: string[]): Cell => cell({ name, siteId, tech: '4G', band: 'L800', channel: 6300, plmns });

function networkOf(siteId: string, cells: Cell[], relations: Relation[] = []) {
  const index = new NetworkIndex({ cells, externalCells: [], relations });
  return { site: { id: siteId, name: siteId }, cells: cells.filter((c) => c.siteId === siteId), relations, index };
}

describe('which sites are shared, and with whom', () => {
  it('a site whose cells all serve one PLMN is not shared: no run', () => {
    const network = networkOf('A', [lte('A1', 'A', ['268-01']), lte('A2', 'A', ['268-01'])]);
    expect(sharingOf(network).modes).toEqual([]);
    expect(ranShareResult(network, 'A')).toBeNull();
  });

  it('MOCN (a cell serving several PLMNs) and MORAN (layers of different primary PLMNs) on one site, operators by PLMN', () => {
    const network = networkOf('B', [lte('B1', 'B', ['268-01', '268-03']), lte('B2', 'B', ['268-01']), lte('B6', 'B', ['268-06'])]);
    expect(sharingOf(network)).toEqual({
      modes: ['MOCN', 'MORAN'],
      host: '268-01',
      plmns: [
        { plmn: '268-01', operator: 'Vodafone PT', role: 'Host', layerCells: 2, mocnCells: 0, neighbourExternals: 0 },
        { plmn: '268-03', operator: 'NOS', role: 'Sharing', layerCells: 0, mocnCells: 1, neighbourExternals: 0 },
        { plmn: '268-06', operator: 'MEO', role: 'Sharing', layerCells: 1, mocnCells: 0, neighbourExternals: 0 },
      ],
    });
    const result = ranShareResult(network, 'B')!;
    expect(result.sheets.map((s) => s.name)).toEqual(['Sharing', 'MOCN', 'MORAN']);
    expect(result.message).toBe('RAN-share validation of B (MOCN + MORAN, Vodafone PT shared with NOS, MEO): MOCN 0 OK; MORAN 0 OK.');
  });

  it('a MOCN target missing a PLMN comes first, with the operator it leaves out', () => {
    const m1 = lte('M1', 'M', ['268-01', '268-03']);
    const m2 = lte('M2', 'M', ['268-01', '268-03']);
    const p1 = lte('P1', 'P', ['268-01']);
    const network = networkOf('M', [m1, m2, p1], [relation({ sourceCellDn: m1.dn, targetRef: m2.dn }), relation({ sourceCellDn: m1.dn, targetRef: p1.dn })]);
    const result = ranShareResult(network, 'M')!;
    expect(result.main.rows.map((r) => [r.target, r.verdict, r.missingOperators])).toEqual([
      ['P1', 'MISSING_PLMN', 'NOS'],
      ['M2', 'OK', ''],
    ]);
    expect(result.summary).toEqual([
      { label: 'MOCN OK', count: 1, tone: 'ok' },
      { label: 'MOCN MISSING_PLMN', count: 1, tone: 'error' },
    ]);
  });

  it("a MOCN share: the layer's cells of the shared technologies must broadcast the partner's PLMN; single-PLMN GSM is left alone", () => {
    const l1 = lte('S1', 'S', ['268-01', '268-03']);
    const l2 = lte('S2', 'S', ['268-01']);
    const g1 = cell({ name: 'SG1', siteId: 'S', tech: '2G', band: 'G900', channel: 60, plmns: ['268-01'] });
    const network = networkOf('S', [l1, l2, g1]);
    const share = { siteId: 'S', ownerId: 1, ownerName: 'Owner Co', partnerId: 2, partnerName: 'NOS', mode: 'MOCN' as const };
    const known = shareKnowledgeOf(network, [share], new Set(), 1)!;
    expect([known.host, known.mocnPlmns, known.owner, known.partners]).toEqual(['268-01', ['268-03'], 'Owner Co', ['NOS']]);
    const result = ranShareResult(network, 'S', known)!;
    expect(result.main.rows.map((r) => [r.source, r.target, r.verdict, r.missingOperators])).toEqual([['S2', null, 'MISSING_PLMN', 'NOS']]);
    // The share table's names, not the PLMN map's, for the owner.
    expect(result.message).toBe('RAN-share validation of S (MOCN, Owner Co shared with NOS): MOCN 0 OK, 1 MISSING_PLMN.');
    expect(result.sheets[0]!.rows.map((r) => [r.plmn, r.operator, r.role])).toEqual([
      ['268-01', 'Owner Co', 'Host'],
      ['268-03', 'NOS', 'Sharing'],
    ]);
  });

  it('a PLMN nobody mapped still reads', () => {
    expect(operatorOfPlmn('268-99')).toBe('PLMN 268-99');
  });
});
