import { type Block, BlockSplitter, familyOf, parsePrompt } from './blocks';
import { type Problem } from './types';
import { forEachLine } from './text';

function split(text: string): { blocks: Block[]; problems: Problem[]; splitter: BlockSplitter } {
  const blocks: Block[] = [];
  const problems: Problem[] = [];
  const splitter = new BlockSplitter({ archive: 'a.zip', file: 'n.log' }, (b) => blocks.push(b), problems, null);
  forEachLine(text, (l, n) => splitter.push(l, n));
  splitter.end();
  return { blocks, problems, splitter };
}

describe('parsePrompt', () => {
  it.each([
    ['ERBS_12345_SOMEWHERE_K> st cell', { node: 'ERBS_12345_SOMEWHERE_K', command: 'st cell' }],
    ['LX0001> alt', { node: 'LX0001', command: 'alt' }],
    ['LX0001>', { node: 'LX0001', command: '' }],
    ['NR_LX0001-A.b> hget retsubunit a|b', { node: 'NR_LX0001-A.b', command: 'hget retsubunit a|b' }],
  ])('%s', (line, expected) => {
    expect(parsePrompt(line)).toEqual(expected);
  });

  it.each(['>>> Total: 3 Alarms', '  LX0001> alt', 'A=1> x', 'Trying password > file', 'LX0001>alt', 'x'.repeat(120) + '> alt', ''])('refuses %j', (line) => {
    expect(parsePrompt(line)).toBeNull();
  });
});

describe('familyOf', () => {
  it.each([
    ['alt', 'alt'],
    ['altk', 'alt'],
    ['ALT', 'alt'],
    ['lga', 'lga'],
    ['lgaevsrm -s 20150801', 'lga'],
    ['st cell', 'st'],
    ['lst EUtranCellFDD', 'st'],
    ['get . earfcn', 'get'],
    ['hget retsubunit electricalAntennaTilt', 'hget'],
    ['cvls', 'cvls'],
    ['lt all', 'lt'],
    ['invxrf', 'other'],
    ['lgg', 'other'],
  ])('%s → %s', (command, family) => {
    expect(familyOf(command)).toBe(family);
  });
});

describe('BlockSplitter', () => {
  it('cuts at prompts, finds headers after chatter, keeps the preamble out', () => {
    const { blocks, splitter } = split(
      [
        'Checking ip contact...OK',
        'LX0001> alt',
        '',
        'Connecting to …',
        '150819-06:02:11 10.0.0.1 10.0r M stopfile=/tmp/1',
        'row',
        'LX0001> st cell',
        'no header here',
      ].join('\n'),
    );
    expect(splitter.node).toBe('LX0001');
    expect(splitter.unreachableReason).toBeNull();
    expect(blocks.map((b) => [b.command, b.promptLine, b.headerLine, b.lastLine, b.atEof, b.lines.length])).toEqual([
      ['alt', 2, 5, 6, false, 4],
      ['st cell', 7, null, 8, true, 1],
    ]);
    expect(blocks[0]!.header!.ip).toBe('10.0.0.1');
  });

  it('does not take a header far below the prompt', () => {
    const { blocks } = split(['LX0001> get x', 'a', 'b', 'c', 'd', 'e', 'f', 'g', '150819-06:02:11 10.0.0.1 10.0r M'].join('\n'));
    expect(blocks[0]!.header).toBeNull();
  });

  it('reports one problem per run of binary lines, with the block command', () => {
    const { problems } = split(['\u0000x', 'LX0001> alt', '\u0000a', '\u0000b', 'ok', '\u0001\u0002'].join('\n'));
    expect(problems).toEqual([
      { kind: 'binary', reason: 'binary data: 1 line skipped', command: null, source: { archive: 'a.zip', file: 'n.log', line: 1 } },
      { kind: 'binary', reason: 'binary data: 2 lines skipped', command: 'alt', source: { archive: 'a.zip', file: 'n.log', line: 3 } },
      { kind: 'binary', reason: 'binary data: 1 line skipped', command: 'alt', source: { archive: 'a.zip', file: 'n.log', line: 6 } },
    ]);
  });
});
