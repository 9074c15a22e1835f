import { sourceRef } from './blocks';
import { excerpt } from './context';
import { cleanLine, forEachLine, isBlank, isRule, tokens } from './text';
import { type LogSource, type MobatchEntry, type MobatchResult } from './types';

/**
 * `mobatch_result.txt`: one line per node, `<status> <duration> <node>`, where the status may be two
 * words (formats checked against public scripts that grep these files: `grep "OK  " | awk '{print $3}'`,
 * `grep 'contact.*m.*s'`):
 *
 *     OK          0m13s  ERBS_41428_KAINARFARM_K
 *     no contact  0m15s  LX0002
 *
 * Lines that are not results become problems; blank lines, rules and `#` comments are skipped.
 */
const DURATION_RE = /^(?:(\d+)h)?(\d+)m(\d+)s$/;

export function parseMobatchResult(text: string, source: LogSource = { file: 'mobatch_result.txt' }): MobatchResult {
  const entries: MobatchEntry[] = [];
  const problems: MobatchResult['problems'] = [];
  forEachLine(text, (raw, n) => {
    const line = cleanLine(raw);
    if (line === null) {
      problems.push({ kind: 'binary', reason: 'binary data: 1 line skipped', command: null, source: sourceRef(source, n) });
      return;
    }
    if (isBlank(line) || isRule(line) || line.trimStart().startsWith('#')) return;
    const tk = tokens(line);
    const at = tk.findIndex((t) => DURATION_RE.test(t));
    if (at < 1 || at + 1 >= tk.length) {
      problems.push({ kind: 'unparsed-result', reason: `not a result line: ${excerpt(line)}`, command: null, source: sourceRef(source, n) });
      return;
    }
    const d = DURATION_RE.exec(tk[at]!)!;
    const status = tk.slice(0, at).join(' ');
    const lower = status.toLowerCase();
    entries.push({
      node: tk[at + 1]!,
      status,
      ok: lower === 'ok',
      unreachable: lower.includes('contact') || lower.includes('unreachable'),
      durationText: tk[at]!,
      durationSeconds: Number(d[1] ?? 0) * 3600 + Number(d[2]) * 60 + Number(d[3]),
      source: sourceRef(source, n),
    });
  });
  return { entries, problems };
}
