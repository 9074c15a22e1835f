import { parseMobatchResult } from './mobatch';

describe('parseMobatchResult', () => {
  it('reads one- and two-word statuses, durations and nodes', () => {
    const text = ['OK          0m13s  ERBS_41428_KAINARFARM_K', 'no contact  0m15s  LX0002', 'timeout     10m0s  LX0003', 'OK  1h2m3s  LX0004', ''].join(
      '\r\n',
    );
    const r = parseMobatchResult(text, { archive: 'batch.zip', file: 'mobatch_result.txt' });
    expect(r.problems).toEqual([]);
    expect(r.entries.map((e) => [e.node, e.status, e.ok, e.unreachable, e.durationText, e.durationSeconds])).toEqual([
      ['ERBS_41428_KAINARFARM_K', 'OK', true, false, '0m13s', 13],
      ['LX0002', 'no contact', false, true, '0m15s', 15],
      ['LX0003', 'timeout', false, false, '10m0s', 600],
      ['LX0004', 'OK', true, false, '1h2m3s', 3723],
    ]);
    expect(r.entries[1]!.source).toEqual({ archive: 'batch.zip', file: 'mobatch_result.txt', line: 2 });
  });

  it('reports lines that are not results, skips blank lines and comments', () => {
    const r = parseMobatchResult(['# mobatch run', '', '2024-04-30 18:00:00', 'OK 0m1s', '\u0000\u0001junk', 'OK  0m2s  LX0001'].join('\n'));
    expect(r.entries.map((e) => e.node)).toEqual(['LX0001']);
    expect(r.problems.map((p) => [p.kind, p.source.line, p.source.file])).toEqual([
      ['unparsed-result', 3, 'mobatch_result.txt'],
      ['unparsed-result', 4, 'mobatch_result.txt'],
      ['binary', 5, 'mobatch_result.txt'],
    ]);
  });
});
