import { HEADER_NO_ZONE, blockOf } from './__tests__/helpers';
import { parseCvBlock } from './cv';

describe('parseCvBlock', () => {
  it('reports a CV total that disagrees with the rows', () => {
    const { block, ctx } = blockOf('cvls', [
      HEADER_NO_ZONE,
      'Executing:              CV_A        CXP1/1   L15B',
      ' 1 CV_A                                   2015-05-09 08:43 CXP1/1  L15B     standard    admin        none',
      ">>> Total: 2 CV's, 1 UP's",
    ]);
    const cv = parseCvBlock(block, ctx)!;
    expect(cv.summary).toEqual({ Executing: 'CV_A        CXP1/1   L15B' });
    expect(cv.entries).toEqual([
      { id: 1, name: 'CV_A', created: '2015-05-09 08:43', details: 'CXP1/1  L15B     standard    admin        none', source: { file: 'LX0001.log', line: 4 } },
    ]);
    expect(ctx.problems.map((p) => [p.kind, p.reason])).toEqual([['count-mismatch', 'footer says 2 CVs, rows read: 1']]);
  });

  it('returns null when nothing is recognised (the caller keeps the block raw)', () => {
    const { block, ctx } = blockOf('cvls', [HEADER_NO_ZONE, 'no such command']);
    expect(parseCvBlock(block, ctx)).toBeNull();
  });
});
