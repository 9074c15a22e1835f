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

  // A whole file of a real AMOS 23 run, as mobatch writes it: settings, progress, results, trailer, stamp.
  const REAL_RUN = [
    'Full command = /opt/ericsson/amos/moshell/mobatch -p 20 -t 30 sites_4G.txt cmd_4G.mos logs_4G',
    'Sitefile = sites_4G.txt     Number of sites = 3',
    'Commandfile = cmd_4G.mos',
    'Logdir = /home/shared/ops1/logs_4G',
    '',
    '>>>>> ERBS_41428_KAINARFARM_K (23171) started  2024-04-30 18:00:02',
    '>>>>> tel_aviv (23172) started  2024-04-30 18:00:02',
    '>>>>> KFAR_SABA (23173) started  2024-04-30 18:00:03',
    '** ERBS_41428_KAINARFARM_K (OK)',
    '** tel_aviv (OK)',
    '** KFAR_SABA (no contact)',
    '=============================================================',
    'OK          0m13s  ERBS_41428_KAINARFARM_K',
    'OK          0m21s  tel_aviv',
    'no contact  0m15s  KFAR_SABA',
    '=============================================================',
    'Total mobatch duration: 0m24s',
    'Average duration per site : 0m16s',
    'Tue Apr 30 18:00:26 CEST 2024',
    '',
  ];

  it.each([
    ['LF', '\n'],
    ['CRLF', '\r\n'],
  ])('reads a real run file (%s): the run lines are not problems, only result lines count', (_name, eol) => {
    const r = parseMobatchResult(REAL_RUN.join(eol));
    expect(r.problems).toEqual([]);
    expect(r.entries.map((e) => [e.node, e.status, e.ok, e.unreachable, e.source.line])).toEqual([
      ['ERBS_41428_KAINARFARM_K', 'OK', true, false, 13],
      ['tel_aviv', 'OK', true, false, 14],
      ['KFAR_SABA', 'no contact', false, true, 15],
    ]);
  });

  it('still reports a date outside the trailer, and junk inside a real run', () => {
    const lines = [...REAL_RUN];
    lines.splice(13, 0, 'Tue Apr 30 18:00:26 CEST 2024', 'OK 0m1s');
    lines.push('\u0000\u0001\u0002garbage');
    const r = parseMobatchResult(lines.join('\n'));
    expect(r.entries).toHaveLength(3);
    expect(r.problems.map((p) => [p.kind, p.source.line])).toEqual([
      ['unparsed-result', 14],
      ['unparsed-result', 15],
      ['binary', 23],
    ]);
  });

  it("takes a date appended as the file's last line as its stamp (scripts run `date >> mobatch_result.txt`)", () => {
    const r = parseMobatchResult(['OK          0m13s  ERBS_41428_KAINARFARM_K', 'no contact  0m15s  KFAR_SABA', '2024-04-30 18:00:26', ''].join('\r\n'));
    expect(r.problems).toEqual([]);
    expect(r.entries.map((e) => e.node)).toEqual(['ERBS_41428_KAINARFARM_K', 'KFAR_SABA']);
  });
});
