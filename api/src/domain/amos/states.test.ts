import { HEADER, blockOf } from './__tests__/helpers';
import { parseStateBlock, parseStateRow } from './states';

const RULE = '='.repeat(83);
const HEAD = 'Proxy  Adm State     Op. State     MO';

describe('parseStateRow', () => {
  it('reads right-aligned proxies, long proxies and a blank Adm State', () => {
    expect(parseStateRow('  854  1 (UNLOCKED)  1 (ENABLED)   GNBDUFunction=1,NRCellDU=X_111')).toMatchObject({
      proxy: 854,
      admState: 'UNLOCKED',
      admCode: 1,
      opState: 'ENABLED',
      opCode: 1,
      tech: '5G',
      cell: 'X_111',
    });
    expect(parseStateRow('101137  0 (LOCKED)    0 (DISABLED)  RncFunction=1,IubLink=Iub_ADGUBR')).toMatchObject({
      proxy: 101137,
      admState: 'LOCKED',
      opState: 'DISABLED',
      link: 'Iub',
    });
    expect(parseStateRow('  679                1 (ENABLED)   ENodeBFunction=1,EranInterMeLink=1')).toMatchObject({
      proxy: 679,
      admState: null,
      admCode: null,
      opState: 'ENABLED',
    });
    expect(parseStateRow('  680  1 (UNLOCKED)                ENodeBFunction=1,Foo=1')).toMatchObject({ admState: 'UNLOCKED', opState: null });
  });

  it('reads rows without proxy and states it does not know by position', () => {
    expect(parseStateRow('1 (ENABLED)   Transport=1,IkePeer=1')).toMatchObject({ proxy: null, opState: 'ENABLED', mo: 'Transport=1,IkePeer=1' });
    expect(parseStateRow('  12  2 (SHUTTINGDOWN)  1 (ENABLED)   A=1')).toMatchObject({ admState: 'SHUTTINGDOWN', admCode: 2 });
    expect(parseStateRow('  12  3 (ODD)  4 (STRANGE)   A=1')).toMatchObject({ admState: 'ODD', opState: 'STRANGE' });
  });

  it('refuses lines that are not rows', () => {
    expect(parseStateRow('  854')).toBeNull();
    expect(parseStateRow('  854  1 (UNLOCKED)  1 (ENABLED)')).toBeNull();
    expect(parseStateRow('Total: 3 MOs and more')).toBeNull();
  });
});

describe('parseStateBlock', () => {
  it('reads st mme with <ip>: prefixes and checks Total', () => {
    const lines = [
      '',
      HEADER,
      RULE,
      HEAD,
      RULE,
      '  1041  1 (UNLOCKED)  1 (ENABLED)   ENodeBFunction=1,TermPointToMme=MME1',
      '  1048  1 (UNLOCKED)  0 (DISABLED)  ENodeBFunction=1,TermPointToMme=MME2',
      RULE,
      'Total: 2 MOs',
    ].map((l) => `10.1.2.3: ${l}`);
    const { block, ctx } = blockOf('st mme', lines);
    const states = parseStateBlock(block, ctx);
    expect(ctx.problems).toEqual([]);
    expect(states.map((s) => [s.mo, s.opState, s.link, s.source.line])).toEqual([
      ['ENodeBFunction=1,TermPointToMme=MME1', 'ENABLED', 'S1', 7],
      ['ENodeBFunction=1,TermPointToMme=MME2', 'DISABLED', 'S1', 8],
    ]);
  });

  it('reports a Total that disagrees, an unreadable row and a missing footer', () => {
    const bad = blockOf('st cell', [HEADER, HEAD, '  854  1 (UNLOCKED)  1 (ENABLED)   EUtranCellFDD=A', 'Total: 2 MOs']);
    expect(parseStateBlock(bad.block, bad.ctx)).toHaveLength(1);
    expect(bad.ctx.problems.map((p) => [p.kind, p.reason])).toEqual([['count-mismatch', 'footer says 2 MOs, rows read: 1']]);

    const odd = blockOf('st cell', [HEADER, HEAD, 'this is not a row', '  854  1 (UNLOCKED)  1 (ENABLED)   EUtranCellFDD=A']);
    expect(parseStateBlock(odd.block, odd.ctx)).toHaveLength(1);
    expect(odd.ctx.problems.map((p) => [p.kind, p.source.line])).toEqual([
      ['unparsed-line', 4],
      ['truncated', 1],
    ]);
  });
});

describe('empty answers', () => {
  it('take a bare Total: 0 MOs as complete', () => {
    const { block, ctx } = blockOf('st mme', [HEADER, 'Total: 0 MOs']);
    expect(parseStateBlock(block, ctx)).toEqual([]);
    expect(ctx.problems).toEqual([]);
  });
});
