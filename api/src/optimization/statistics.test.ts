import { hoHeaderProblem, matchHoHeaders, sourceCellName, targetCellName } from './statistics';

describe('handover statistics headers', () => {
  // exceljs rows are 1-based: index 0 is empty.
  const row = (...headers: string[]) => [undefined, ...headers];

  it('matches plain names without case or spaces, and Ericsson names', () => {
    const plain = matchHoHeaders(row(' source cell ', 'TARGET_CELL', 'Period', 'Attempts', 'successes'));
    expect(Object.fromEntries(plain.columns)).toEqual({ source: 1, target: 2, period: 3, attempts: 4, successes: 5 });
    const ericsson = matchHoHeaders(row('EUtranCellFDD', 'neighborCellRef', 'pmHoPrepAtt', 'pmHoExeAtt', 'pmHoExeSucc', 'DATE'));
    // The execution counters win over the preparation ones.
    expect(Object.fromEntries(ericsson.columns)).toEqual({ source: 1, target: 2, period: 6, attempts: 4, successes: 5 });
    expect(ericsson.missing).toEqual([]);
  });

  it('names the missing columns and the file; period is optional', () => {
    const match = matchHoHeaders(row('Cell', 'Neighbour', 'HO Attempts'));
    expect(match.missing).toEqual(['successes']);
    expect(hoHeaderProblem('pm.xlsx', match)).toBe('File pm.xlsx lacks the column Successes (Successes, HO Successes, pmHoExeSucc, pmHoPrepSucc).');
    expect(hoHeaderProblem('pm.xlsx', matchHoHeaders(row('Source', 'Target', 'Attempts', 'Successes')))).toBeNull();
  });

  it('refuses a field named twice', () => {
    const match = matchHoHeaders(row('Source', 'Target', 'Attempts', 'attempts', 'Successes'));
    expect(hoHeaderProblem('x.xlsx', match)).toBe('File x.xlsx names Attempts in more than one column.');
  });
});

describe('cell names from DNs', () => {
  it('takes the source cell from a cell or relation DN', () => {
    expect(sourceCellName('LX0001_1')).toBe('LX0001_1');
    expect(
      sourceCellName('SubNetwork=1,MeContext=LX0001,ManagedElement=1,ENodeBFunction=1,EUtranCellFDD=LX0001_1,EUtranFreqRelation=6300,EUtranCellRelation=7'),
    ).toBe('LX0001_1');
  });

  it('takes the target from the last RDN of a reference', () => {
    expect(targetCellName('ENodeBFunction=1,EUtraNetwork=1,ExternalENodeBFunction=3,ExternalEUtranCellFDD=268-01-3-1')).toBe('268-01-3-1');
    expect(targetCellName('LX0002_1')).toBe('LX0002_1');
  });
});
