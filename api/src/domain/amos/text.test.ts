import { cleanLine, forEachLine, isBinary, isRule, tokens, toSignedInt } from './text';

function linesOf(text: string): Array<[string, number]> {
  const out: Array<[string, number]> = [];
  forEachLine(text, (l, n) => out.push([l, n]));
  return out;
}

describe('forEachLine', () => {
  it('numbers LF, CRLF and a last line without newline alike', () => {
    expect(linesOf('a\r\nb\n\r\nc')).toEqual([
      ['a', 1],
      ['b', 2],
      ['', 3],
      ['c', 4],
    ]);
    expect(linesOf('a\n')).toEqual([['a', 1]]);
    expect(linesOf('')).toEqual([]);
  });
});

describe('cleanLine', () => {
  it('drops the <ip>: prefix of multi-node output, blank prefixed lines included', () => {
    expect(cleanLine('10.170.109.202: LX0001> st cell')).toBe('LX0001> st cell');
    expect(cleanLine('10.170.109.202: ')).toBe('');
    expect(cleanLine('10.170.109.202:   854  1 (UNLOCKED)')).toBe('  854  1 (UNLOCKED)');
  });

  it('leaves header and alarm lines that start with digits alone', () => {
    expect(cleanLine('240430-15:40:33-0500 11.135.248.170 24.0c M')).toBe('240430-15:40:33-0500 11.135.248.170 24.0c M');
    expect(cleanLine('2024-04-30 18:02:11 C Service Unavailable')).toBe('2024-04-30 18:02:11 C Service Unavailable');
  });

  it('strips a BOM and terminal escapes', () => {
    expect(cleanLine('\ufeffLX0001> alt')).toBe('LX0001> alt');
    expect(cleanLine('\u001b[1;31mDISABLED\u001b[0m')).toBe('DISABLED');
  });

  it('returns null for binary junk but keeps a long line with one bad byte', () => {
    expect(cleanLine('PK\u0003\u0004\u0014\u0000')).toBeNull();
    expect(isBinary('\ufffd\ufffd\u0007ab')).toBe(true);
    expect(isBinary(`userLabel Stra\ufffde ${'x'.repeat(40)}`)).toBe(false);
    expect(isBinary('tab\tseparated')).toBe(false);
  });
});

describe('small helpers', () => {
  it('recognise rules, split tokens, read signed integers', () => {
    expect(isRule('==========')).toBe(true);
    expect(isRule('   ===============   ')).toBe(true);
    expect(isRule('=== Total')).toBe(false);
    expect(tokens('  a  b\tc ')).toEqual(['a', 'b', 'c']);
    expect(toSignedInt('-20')).toBe(-20);
    expect(toSignedInt(' 140 ')).toBe(140);
    expect(toSignedInt('1.5')).toBeNull();
    expect(toSignedInt('')).toBeNull();
  });
});
