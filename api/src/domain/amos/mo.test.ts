import { linkOf, looksLikeMo, moFacts, rdns, sharedMoFacts, techOfClass } from './mo';

describe('techOfClass', () => {
  it.each([
    ['EUtranCellFDD', '4G'],
    ['EUtranCellTDD', '4G'],
    ['NbIotCell', 'NB-IoT'],
    ['NRCellDU', '5G'],
    ['NRCellCU', '5G'],
    ['UtranCell', '3G'],
    ['NodeBLocalCell', '3G'],
    ['GsmSector', '2G'],
    ['Trx', '2G'],
    ['GeranCell', '2G'],
    ['ExternalEUtranCellFDD', null],
    ['NodeBLocalCellGroup', null],
    ['FieldReplaceableUnit', null],
    ['EUtranCel', null],
    ['EUtraNetwork', null],
    ['NbIotCel', null],
    ['NRCel', null],
    ['NRNetwork', null],
    ['NodeBLocalCel', null],
    ['UtranCellX', null],
    ['GsmSectors', null],
    ['GeranCel', null],
    ['GeranCellRelation', '2G'],
    ['Trxs', null],
    ['Tr', null],
    ['E', null],
    ['', null],
  ])('%s → %s', (cls, tech) => {
    expect(techOfClass(cls)).toBe(tech);
  });
});

describe('moFacts', () => {
  it('takes class of the last RDN and tech/cell of the outermost cell RDN', () => {
    expect(moFacts('ENodeBFunction=1,EUtranCellFDD=LX0001_1,EUtranFreqRelation=6300,EUtranCellRelation=x')).toEqual({
      mo: 'ENodeBFunction=1,EUtranCellFDD=LX0001_1,EUtranFreqRelation=6300,EUtranCellRelation=x',
      moClass: 'EUtranCellRelation',
      tech: '4G',
      cell: 'LX0001_1',
    });
    expect(moFacts('BtsFunction=1,GsmSector=12,Trx=2')).toMatchObject({ tech: '2G', cell: '12', moClass: 'Trx' });
    expect(moFacts('Equipment=1,FieldReplaceableUnit=BB-1')).toMatchObject({ tech: 'site', cell: null, moClass: 'FieldReplaceableUnit' });
    expect(moFacts('')).toEqual({ mo: '', moClass: null, tech: 'site', cell: null });
  });

  it('reads RDNs up to the first part that is not Class=id', () => {
    expect(rdns('A=1,B=x=y,not an rdn,C=3')).toEqual([
      ['A', '1'],
      ['B', 'x=y'],
    ]);
    expect(looksLikeMo('SysM=1')).toBe(true);
    expect(looksLikeMo('Unavailable')).toBe(false);
    expect(looksLikeMo('(a=b)')).toBe(false);
  });
});

describe('linkOf', () => {
  it.each([
    ['ENodeBFunction=1,TermPointToMme=MME_1', 'S1'],
    ['ENodeBFunction=1,EUtraNetwork=1,ExternalENodeBFunction=x,TermPointToENB=x', 'X2'],
    ['ENodeBFunction=1,GUtraNetwork=1,ExternalGNodeBFunction=1,TermPointToGNB=1', 'X2'],
    ['GNBCUCPFunction=1,EUtraNetwork=1,ExternalENodeBFunction=a,TermPointToENodeB=a', 'X2'],
    ['GNBCUCPFunction=1,NRNetwork=1,ExternalGNBCUCPFunction=a,TermPointToGNodeB=1', 'Xn'],
    ['GNBCUCPFunction=1,TermPointToAmf=AMF1', 'NG'],
    ['RncFunction=1,IubLink=Iub_ADGUBR', 'Iub'],
    ['NodeBFunction=1,Iub=1', 'Iub'],
    ['ENodeBFunction=1,EUtranCellFDD=A', null],
  ])('%s → %s', (mo, link) => {
    expect(linkOf(mo)).toBe(link);
  });
});

describe('link of the MO facts', () => {
  // The facts tell link classes apart character by character: they must agree with linkOf.
  const classes = [
    'TermPointToMme',
    'TermPointToENB',
    'TermPointToGNB',
    'TermPointToENodeB',
    'TermPointToGNodeB',
    'TermPointToAmf',
    'TermPointToGNBDU',
    'TermPointToGNBCUCP',
    'IubLink',
    'Iub',
    'AbisIp',
  ];
  const nearMisses = [
    'TermPointTo',
    'TermPointToMm',
    'TermPointToMmeX',
    'TermPointToENodeBX',
    'TermPointToGNBD',
    'TermPointToGNBCU',
    'TermPointToX2',
    'TermPointToAmfs',
    'Iu',
    'IubLinks',
    'IubLin',
    'Abis',
    'AbisIps',
    'Transport',
    'AntennaUnitGroup',
    'Ib',
  ];
  it.each([...classes, ...nearMisses])('%s', (cls) => {
    for (const mo of [`${cls}=1`, `ENodeBFunction=1,${cls}=a`, `A=1,${cls}=2,Other=3`, `${cls}=1,IubLink=x`]) {
      expect(sharedMoFacts(mo).link).toBe(linkOf(mo));
    }
  });
});
