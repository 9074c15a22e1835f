import { CPP_LOG, LTE_LOG } from './__tests__/fixtures';
import { type Block, BlockSplitter } from './blocks';
import { forEachLine, isPlainText } from './text';
import { type Problem } from './types';

/** What a family parser can see of a block. */
function view(b: Block): unknown {
  return [
    b.node,
    b.command,
    b.family,
    b.promptLine,
    b.header,
    b.headerLine,
    b.lastLine,
    b.atEof,
    b.lines,
    b.ns,
    b.starts.map((s, k) => b.text.slice(s, b.ends[k])),
  ];
}

function cut(text: string, inPlace: boolean): { blocks: unknown[]; problems: Problem[]; node: string | null; unreachable: string | null } {
  const blocks: unknown[] = [];
  const problems: Problem[] = [];
  const splitter = new BlockSplitter({ file: 'n.log' }, (b) => blocks.push(view(b)), problems, 60);
  splitter.plain = true;
  if (inPlace) splitter.scanPlain(text);
  else {
    forEachLine(text, (l, n) => splitter.push(l, n));
    splitter.end();
  }
  return { blocks, problems, node: splitter.node, unreachable: splitter.unreachableReason };
}

describe('BlockSplitter.scanPlain', () => {
  const logs = [LTE_LOG, CPP_LOG].flatMap((log) => {
    const text = Array.isArray(log) ? log.join('\n') : String(log);
    return [
      text,
      text.replace(/\n/g, '\r\n'),
      `${text}\n`,
      text.replace(/\n/g, '\n10.1.2.3: '),
      `${text}\nLX0001> q\nUnable to connect to 10.0.0.1\n  Checking ip contact...Not OK`,
      'no prompt at all\nx > y\n',
      '',
      'LX0001>',
      'LX0001> get x\n' + 'a'.repeat(5000) + '\n>>>\nOTHER> alt\n',
    ];
  });

  it.each(logs.map((text, k) => [k, text]))('cuts plain log %i as the line-by-line splitter does', (_, text) => {
    expect(isPlainText(text)).toBe(true);
    expect(cut(text, true)).toEqual(cut(text, false));
  });
});
