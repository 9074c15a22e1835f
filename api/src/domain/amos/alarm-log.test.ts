import { HEADER_NO_ZONE, blockOf } from './__tests__/helpers';
import { parseAlarmLogBlock } from './alarm-log';

describe('parseAlarmLogBlock', () => {
  it('reads the Type/Sev/Description layout, a cease and a long specific problem', () => {
    const { block, ctx } = blockOf('lga', [
      HEADER_NO_ZONE,
      '='.repeat(102),
      'Timestamp (UTC)     Type Sev    Description',
      '='.repeat(102),
      '2025-11-11 10:39:09 AL   C      License Key File Fault              Lm=1  (Key file fault in Managed Element)',
      '2025-11-11 14:44:27 AL   m      Calendar Clock All NTP Servers Unavailable SysM=1  (No NTP server configured)',
      '2025-11-11 14:50:00 AL   *      Calendar Clock All NTP Servers Unavailable SysM=1  (No NTP server configured)',
      '2025-11-11 15:00:00 EV         SomeEvent                           ManagedElement=1',
    ]);
    const log = parseAlarmLogBlock(block, ctx);
    expect(ctx.problems).toEqual([]);
    expect(log.map((e) => [e.severity, e.ceased, e.specificProblem, e.mo, e.additionalInfo])).toEqual([
      ['Critical', false, 'License Key File Fault', 'Lm=1', 'Key file fault in Managed Element'],
      ['Minor', false, 'Calendar Clock All NTP Servers Unavailable', 'SysM=1', 'No NTP server configured'],
      [null, true, 'Calendar Clock All NTP Servers Unavailable', 'SysM=1', 'No NTP server configured'],
    ]);
    expect(log[0]).toMatchObject({ type: 'AL', timeBasis: 'UTC', at: new Date('2025-11-11T10:39:09Z'), source: { file: 'LX0001.log', line: 6 } });
  });

  it('reads logs without a Type column', () => {
    const { block, ctx } = blockOf('lga 2', [
      HEADER_NO_ZONE,
      'Timestamp (UTC)     S Specific Problem                    MO (Cause/AdditionalInfo)',
      '2019-04-10 07:48:32 M Link Failure                        NodeBFunction=1,Iub=1 (down)',
      '2019-04-10 07:49:01 * Link Failure                        NodeBFunction=1,Iub=1 (down)',
    ]);
    expect(parseAlarmLogBlock(block, ctx).map((e) => [e.type, e.severity, e.ceased])).toEqual([
      [null, 'Major', false],
      [null, null, true],
    ]);
  });

  it('reports an AL row without severity and a block without table', () => {
    const { block, ctx } = blockOf('lga', [HEADER_NO_ZONE, 'Timestamp (UTC)     Type Sev    Description', '2025-11-11 10:39:09 AL   Q      Odd']);
    expect(parseAlarmLogBlock(block, ctx)).toEqual([]);
    expect(ctx.problems.map((p) => p.kind)).toEqual(['unparsed-line']);
    const none = blockOf('lga', [HEADER_NO_ZONE]);
    parseAlarmLogBlock(none.block, none.ctx);
    expect(none.ctx.problems.map((p) => p.kind)).toEqual(['truncated']);
  });
});
