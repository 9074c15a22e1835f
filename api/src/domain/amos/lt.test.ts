import { HEADER, blockOf } from './__tests__/helpers';
import { parseLtBlock } from './lt';

describe('parseLtBlock', () => {
  it('keeps the last MO count and the lines', () => {
    const { block, ctx } = blockOf('lt all', ['', HEADER, 'Fetching MO tree.....Done.', 'Last MO: 3312. Loaded 3312 MOs. Total: 3313 MOs.', '']);
    expect(parseLtBlock(block, ctx)).toEqual({
      node: 'LX0001',
      command: 'lt all',
      mos: 3313,
      lines: ['Fetching MO tree.....Done.', 'Last MO: 3312. Loaded 3312 MOs. Total: 3313 MOs.'],
      source: { file: 'LX0001.log', line: 1 },
    });
  });

  it('gives mos = null when no count is printed', () => {
    const { block, ctx } = blockOf('lt all', [HEADER, 'Connection lost']);
    expect(parseLtBlock(block, ctx).mos).toBeNull();
  });
});
