import { HEADER, blockOf } from './__tests__/helpers';
import { cutHgetRow, parseGetBlock, parseHgetBlock } from './attributes';

const RULE = '='.repeat(113);
const pad = (s: string, n: number): string => s.padEnd(n);

describe('parseGetBlock', () => {
  it('reads MO Attribute Value rows, [n] = arrays and struct members', () => {
    const { block, ctx } = blockOf('get . reservedBy|ueMeasControl', [
      HEADER,
      RULE,
      `${pad('MO', 56)}${pad('Attribute', 18)}Value`,
      RULE,
      `${pad('Router=LTE,InterfaceIPv4=LTE,AddressIPv4=1', 56)}${pad('reservedBy', 18)}[2] = `,
      '>>> reservedBy = ENodeBFunction=1',
      '>>> reservedBy = Transport=1,SctpEndpoint=LTE',
      `${pad('ENodeBFunction=1,EUtranCellFDD=A', 56)}${pad('ueMeasControl', 18)}Struct{2}`,
      '>>> 1.a1a2SearchThresholdRsrp = -134',
      '>>> 2.ueMeasurementsActive = true',
      `${pad('ENodeBFunction=1,EUtranCellFDD=A', 56)}${pad('userLabel', 18)}`,
      RULE,
      'Total: 2 MOs',
    ]);
    const attrs = parseGetBlock(block, ctx);
    expect(ctx.problems).toEqual([]);
    expect(attrs.map((a) => [a.mo, a.attribute, a.value, a.declaredItems, a.items])).toEqual([
      [
        'Router=LTE,InterfaceIPv4=LTE,AddressIPv4=1',
        'reservedBy',
        '[2] =',
        2,
        [
          { name: 'reservedBy', value: 'ENodeBFunction=1' },
          { name: 'reservedBy', value: 'Transport=1,SctpEndpoint=LTE' },
        ],
      ],
      [
        'ENodeBFunction=1,EUtranCellFDD=A',
        'ueMeasControl',
        'Struct{2}',
        null,
        [
          { name: '1.a1a2SearchThresholdRsrp', value: '-134' },
          { name: '2.ueMeasurementsActive', value: 'true' },
        ],
      ],
      ['ENodeBFunction=1,EUtranCellFDD=A', 'userLabel', '', null, []],
    ]);
    expect(attrs[1]).toMatchObject({ tech: '4G', cell: 'A', moClass: 'EUtranCellFDD', source: { line: 9 } });
  });

  it('reads the one-MO form: <proxy> <MO> between rules, then attribute value rows', () => {
    const { block, ctx } = blockOf('get ENodeBFunction=1', [
      HEADER,
      RULE,
      '382  ENodeBFunction=1',
      RULE,
      'ENodeBFunctionId                     1',
      'alignTtiBundWUlTrigSinr              0 (OFF)',
      'eNBId                                142198',
      RULE,
      'Total: 1 MOs',
    ]);
    const attrs = parseGetBlock(block, ctx);
    expect(ctx.problems).toEqual([]);
    expect(attrs.map((a) => [a.mo, a.attribute, a.value])).toEqual([
      ['ENodeBFunction=1', 'ENodeBFunctionId', '1'],
      ['ENodeBFunction=1', 'alignTtiBundWUlTrigSinr', '0 (OFF)'],
      ['ENodeBFunction=1', 'eNBId', '142198'],
    ]);
  });

  it('reports [n] that disagrees with the >>> lines, a Total that disagrees, and a cut-off table', () => {
    const { block, ctx } = blockOf('get . reservedBy', [
      HEADER,
      `${pad('MO', 56)}${pad('Attribute', 18)}Value`,
      `${pad('A=1', 56)}${pad('reservedBy', 18)}[3] = `,
      '>>> reservedBy = B=1',
      `${pad('C=1', 56)}${pad('reservedBy', 18)}[0] = `,
      'Total: 3 MOs',
      '',
      `${pad('MO', 56)}${pad('Attribute', 18)}Value`,
      `${pad('D=1', 56)}${pad('x', 18)}1`,
    ]);
    expect(parseGetBlock(block, ctx)).toHaveLength(3);
    expect(ctx.problems.map((p) => [p.kind, p.reason, p.source.line])).toEqual([
      ['count-mismatch', 'reservedBy of A=1 says [3], items read: 1', 4],
      ['count-mismatch', 'footer says 3 MOs, MOs read: 2', 7],
      ['truncated', 'attribute table without its Total: N MOs footer: the log ends after line 10', 1],
    ]);
  });
});

describe('parseHgetBlock', () => {
  const HEAD = `${pad('MO', 50)}electricalAntennaTilt operationalState userLabel`;
  const row = (mo: string, tilt: string, op: string, label: string): string => `${pad(mo, 50)}${pad(tilt, 22)}${pad(op, 17)}${label}`;

  it('cuts rows at the header columns, values with spaces included', () => {
    const { block, ctx } = blockOf('hget retsubunit electricalAntennaTilt|operationalState|userLabel', [
      HEADER,
      RULE,
      HEAD,
      RULE,
      row('AntennaUnitGroup=1,AntennaNearUnit=1,RetSubUnit=1', '30', '1 (ENABLED)', 'S1 RET A'),
      row('AntennaUnitGroup=2,AntennaNearUnit=1,RetSubUnit=1', '', '0 (DISABLED)', ''),
      RULE,
      'Total: 2 MOs',
    ]);
    const attrs = parseHgetBlock(block, ctx);
    expect(ctx.problems).toEqual([]);
    expect(attrs.map((a) => [a.mo.slice(0, 18), a.attribute, a.value])).toEqual([
      ['AntennaUnitGroup=1', 'electricalAntennaTilt', '30'],
      ['AntennaUnitGroup=1', 'operationalState', '1 (ENABLED)'],
      ['AntennaUnitGroup=1', 'userLabel', 'S1 RET A'],
      ['AntennaUnitGroup=2', 'electricalAntennaTilt', ''],
      ['AntennaUnitGroup=2', 'operationalState', '0 (DISABLED)'],
      ['AntennaUnitGroup=2', 'userLabel', ''],
    ]);
  });

  it('moves a cut past a value that overflows its column', () => {
    const cols = { names: ['a', 'b'], starts: [0, 10, 15] };
    expect(cutHgetRow('X=1       123456789 z', cols)).toEqual({ mo: 'X=1', values: ['123456789', 'z'] });
    expect(cutHgetRow('VeryLongMo=12345 7    z', cols)).toEqual({ mo: 'VeryLongMo=12345', values: ['7', 'z'] });
  });

  it('reports a Total that disagrees and a missing footer', () => {
    const { block, ctx } = blockOf('hget retsubunit electricalAntennaTilt', [
      HEADER,
      `${pad('MO', 50)}electricalAntennaTilt`,
      `${pad('RetSubUnit=1', 50)}30`,
      'Total: 2 MOs',
      `${pad('MO', 50)}x`,
    ]);
    expect(parseHgetBlock(block, ctx)).toHaveLength(1);
    expect(ctx.problems.map((p) => p.kind)).toEqual(['count-mismatch', 'truncated']);
  });
});

describe('empty answers', () => {
  it('take a bare Total: 0 MOs as complete, for get and hget', () => {
    const get = blockOf('get . nosuchattr', [HEADER, 'Total: 0 MOs']);
    expect(parseGetBlock(get.block, get.ctx)).toEqual([]);
    const hget = blockOf('hget nosuchmo x', [HEADER, 'Total: 0 MOs']);
    expect(parseHgetBlock(hget.block, hget.ctx)).toEqual([]);
    expect([...get.ctx.problems, ...hget.ctx.problems]).toEqual([]);
  });
});
