import { HEADER, HEADER_NO_ZONE, blockOf } from './__tests__/helpers';
import { parseAlarmBlock, splitAlarmText } from './alarms';

const RULE = '='.repeat(116);
const UTC_HEAD = 'Date & Time (UTC)   S Specific Problem                    MO (Cause/AdditionalInfo)';
const LOCAL_HEAD = 'Date & Time (Local) S Specific Problem                    MO (Cause/AdditionalInfo)';
const ACK_HEAD = 'Date & Time (Local) S Specific Problem                    MO (Cause/AdditionalInfo) Operator';

describe('splitAlarmText', () => {
  const row = '2024-04-30 18:02:11 C Service Unavailable                 ENodeBFunction=1,EUtranCellFDD=A (cell down (no RF))';
  it('uses the MO column of the header', () => {
    expect(splitAlarmText(row, 22, 58, false)).toEqual({
      specificProblem: 'Service Unavailable',
      mo: 'ENodeBFunction=1,EUtranCellFDD=A',
      additionalInfo: 'cell down (no RF)',
      operator: null,
    });
  });

  it('finds the MO after a specific problem that runs into the MO column', () => {
    const long = '2024-04-27 12:00:00 w Calendar Clock All NTP Servers Unavailable SysM=1 (No NTP server)';
    expect(splitAlarmText(long, 22, 58, false)).toMatchObject({
      specificProblem: 'Calendar Clock All NTP Servers Unavailable',
      mo: 'SysM=1',
      additionalInfo: 'No NTP server',
    });
  });

  it('takes the operator after the last parenthesis of an acknowledged row', () => {
    const ack = '2015-05-28 02:39:37 w MTP3b Link Out of Service           Mtp3bSpItu=0-16173,Mtp3bSlItu=C_1 (C_1 (SLC1) down) dell';
    expect(splitAlarmText(ack, 22, 58, true)).toEqual({
      specificProblem: 'MTP3b Link Out of Service',
      mo: 'Mtp3bSpItu=0-16173,Mtp3bSlItu=C_1',
      additionalInfo: 'C_1 (SLC1) down',
      operator: 'dell',
    });
    expect(splitAlarmText('2015-05-28 02:39:37 w Heartbeat Failure                   ManagedElement=1 dell', 22, 58, true)).toMatchObject({
      mo: 'ManagedElement=1',
      operator: 'dell',
      additionalInfo: '',
    });
  });

  it('keeps an unclosed additional info as it is, and a row without MO as problem text', () => {
    expect(splitAlarmText('2024-04-30 18:02:11 M Link Failure   A=1 (cut off her', 22, null, false)).toMatchObject({
      mo: 'A=1',
      additionalInfo: 'cut off her',
    });
    expect(splitAlarmText('2024-04-30 18:02:11 M Link Fail', 22, 58, false)).toEqual({
      specificProblem: 'Link Fail',
      mo: '',
      additionalInfo: '',
      operator: null,
    });
  });
});

describe('parseAlarmBlock', () => {
  it('reads an empty alt', () => {
    const { block, ctx } = blockOf('alt', ['', HEADER, RULE, UTC_HEAD, RULE, '>>> Total: 0 Alarms (0 Critical, 0 Major)']);
    expect(parseAlarmBlock(block, ctx)).toEqual([]);
    expect(ctx.problems).toEqual([]);
  });

  it('reports a footer that disagrees with the rows, and still returns them', () => {
    const { block, ctx } = blockOf('alt', [
      HEADER,
      UTC_HEAD,
      '2024-04-30 18:02:11 C Service Unavailable                 ENodeBFunction=1,EUtranCellFDD=A (x)',
      '2024-04-30 18:03:11 m Link Degraded                       ENodeBFunction=1,EUtranCellFDD=B (y)',
      '>>> Total: 3 Alarms (1 Critical, 1 Major)',
    ]);
    expect(parseAlarmBlock(block, ctx)).toHaveLength(2);
    expect(ctx.problems).toEqual([
      {
        kind: 'count-mismatch',
        reason: 'footer says 3 (1 Critical, 1 Major) alarms, rows read: 2 (1 Critical, 0 Major)',
        command: 'alt',
        source: { file: 'LX0001.log', line: 6 },
      },
    ]);
  });

  it('checks the UNACKNOWLEDGED/ACKNOWLEDGED counts too', () => {
    const { block, ctx } = blockOf('altk', [
      HEADER_NO_ZONE,
      'UNACKNOWLEDGED ALARMS: 2',
      LOCAL_HEAD,
      '2015-08-18 22:10:05 M Heartbeat Failure                   ManagedElement=1 (lost)',
      '',
      'ACKNOWLEDGED ALARMS: 0',
      ACK_HEAD,
      '>>> Total: 1 Alarms (0 Critical, 1 Major)',
    ]);
    const alarms = parseAlarmBlock(block, ctx);
    expect(alarms.map((a) => [a.timeBasis, a.acknowledged])).toEqual([['Local', false]]);
    expect(ctx.problems.map((p) => [p.kind, p.reason, p.source.line])).toEqual([['count-mismatch', 'UNACKNOWLEDGED ALARMS says 2, rows read: 1', 3]]);
  });

  it('joins rows whose MO or additional info runs onto the next line', () => {
    const { block, ctx } = blockOf('alt', [
      HEADER,
      UTC_HEAD,
      '2024-04-30 18:02:11 M Resource Configuration Failure      ENodeBFunction=1,SectorCarrier=1,Equipment',
      'Ref=1 (wrapped by the terminal)',
      '2024-04-30 18:03:00 m Link Degraded                       ENodeBFunction=1,EUtranCellFDD=B (first part',
      '                                                          and the indented rest)',
      '>>> Total: 2 Alarms (0 Critical, 1 Major)',
    ]);
    const alarms = parseAlarmBlock(block, ctx);
    expect(ctx.problems).toEqual([]);
    expect(alarms.map((a) => [a.mo, a.additionalInfo, a.source.line])).toEqual([
      ['ENodeBFunction=1,SectorCarrier=1,EquipmentRef=1', 'wrapped by the terminal', 4],
      ['ENodeBFunction=1,EUtranCellFDD=B', 'first part and the indented rest', 6],
    ]);
    expect(alarms[1]!.tech).toBe('4G');
  });

  it('reports rows it cannot read and a missing table or footer', () => {
    const { block, ctx } = blockOf('alt', [HEADER, UTC_HEAD, '2024-04-30 18:02:11 X Unknown severity  A=1 (x)', 'garbage in the table']);
    expect(parseAlarmBlock(block, ctx)).toEqual([]);
    expect(ctx.problems.map((p) => p.kind)).toEqual(['unparsed-line', 'unparsed-line', 'truncated']);

    const none = blockOf('alt', [HEADER, 'Connecting to 1.2.3.4 ...']);
    parseAlarmBlock(none.block, none.ctx);
    expect(none.ctx.problems.map((p) => p.reason)).toEqual(['no alarm table: the log ends after line 3']);
  });
});

describe('empty answers', () => {
  it('take a bare >>> Total: 0 Alarms as complete', () => {
    const { block, ctx } = blockOf('alt', [HEADER, '>>> Total: 0 Alarms (0 Critical, 0 Major)']);
    expect(parseAlarmBlock(block, ctx)).toEqual([]);
    expect(ctx.problems).toEqual([]);
  });
});
