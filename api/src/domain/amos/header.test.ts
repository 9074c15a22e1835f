import { parseHeaderLine, tableInstant, wallTime } from './header';

describe('parseHeaderLine', () => {
  it('reads an ENM AMOS header with a zone offset', () => {
    expect(parseHeaderLine('240430-15:40:33-0500 11.135.248.170 24.0c MSRBS_NODE_MODEL_23.Q4_643.28133.125_0bc9 stopfile=/tmp/2309857')).toEqual({
      at: new Date('2024-04-30T20:40:33Z'),
      local: '2024-04-30 15:40:33',
      zone: '-0500',
      ip: '11.135.248.170',
      version: '24.0c',
      model: 'MSRBS_NODE_MODEL_23.Q4_643.28133.125_0bc9',
      stopfile: '/tmp/2309857',
    });
    expect(parseHeaderLine('240101-00:30:00+0530 10.0.0.1 23.0b M stopfile=/tmp/1')!.at).toEqual(new Date('2023-12-31T19:00:00Z'));
  });

  it('reads a moshell header without zone as UTC wall time, or at the default offset', () => {
    const h = parseHeaderLine('150819-06:05:01 10.128.163.8 10.0r MGW_NODE_MODEL_C_1_12 stopfile=/tmp/16315');
    expect(h).toMatchObject({ zone: null, at: new Date('2015-08-19T06:05:01Z'), version: '10.0r', model: 'MGW_NODE_MODEL_C_1_12', stopfile: '/tmp/16315' });
    expect(parseHeaderLine('150819-06:05:01 10.128.163.8 10.0r M stopfile=/tmp/1', -60)!.at).toEqual(new Date('2015-08-19T07:05:01Z'));
  });

  it('accepts a header without model or stopfile, and refuses other lines', () => {
    expect(parseHeaderLine('150819-06:05:01 10.128.163.8 stopfile=/tmp/1')).toMatchObject({
      ip: '10.128.163.8',
      version: null,
      model: null,
      stopfile: '/tmp/1',
    });
    expect(parseHeaderLine('2015-08-19 06:05:01 M Link Failure')).toBeNull();
    expect(parseHeaderLine('150819-06:05:01')).toBeNull();
    expect(parseHeaderLine('150819-06:05:01 stopfile=/tmp/1')).toBeNull();
  });

  it('gives at = null for a date that does not exist', () => {
    expect(parseHeaderLine('240231-10:00:00 1.2.3.4 v m')!.at).toBeNull();
    expect(wallTime(2024, 13, 1, 0, 0, 0, null)).toBeNull();
  });
});

describe('tableInstant', () => {
  const header = parseHeaderLine('240430-15:40:33-0500 1.2.3.4 v m');
  it('reads UTC columns as UTC and Local columns at the block zone', () => {
    expect(tableInstant('2024-04-30 18:02:11', 'UTC', header, null)).toEqual(new Date('2024-04-30T18:02:11Z'));
    expect(tableInstant('2024-04-30 18:02:11', 'Local', header, null)).toEqual(new Date('2024-04-30T23:02:11Z'));
    expect(tableInstant('2024-04-30 18:02:11', 'Local', null, 60)).toEqual(new Date('2024-04-30T17:02:11Z'));
    expect(tableInstant('not a time', 'UTC', null, null)).toBeNull();
  });
});
