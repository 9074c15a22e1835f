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
 * A real run's file wraps the results in what mobatch says about the run (AMOS 23, 18 nodes):
 *
 *     Full command = mobatch -p 20 -t 30 sites_4G.txt cmd_4G.mos logs_4G
 *     Sitefile = sites_4G.txt     Number of sites = 18
 *     >>>>> ERBS_41428_KAINARFARM_K (23171) started
 *     ** ERBS_41428_KAINARFARM_K (OK)
 *     …results…
 *     Total mobatch duration: 2m41s
 *     Average duration per site: 0m23s
 *     Tue Apr 30 18:02:41 CEST 2024
 *
 * Those lines are the run's, not results, and are skipped; the timestamp only where it stands: after
 * the duration trailer, or as the file's last line (scripts append `date` to the file after the run).
 * A date anywhere else is not a result. Lines that are not results become
 * problems; blank lines, rules and `#` comments are skipped.
 */
const DURATION_RE = /^(?:(\d+)h)?(\d+)m(\d+)s$/;

/**
 * What mobatch prints about the run around its results: `Key = value` settings (`Full command`,
 * `Sitefile … Number of sites`, `Logdir`, `Parallel`, `Timeout`…), the progress lines of each node
 * (`>>>>> node (pid) …` as it starts, `** node (status)` as it ends) and the trailer's totals.
 */
const RUN_LINE_RE = /^(?:>>>>>\s|\*\*\s|[A-Za-z][A-Za-z ._-]{0,40}\s=\s|Total mobatch duration\b|Average duration per site\b)/;
/** The first line of the trailer: after it, a line with a date is the run's end stamp. */
const TRAILER_RE = /^(?:Total mobatch duration|Average duration per site)\b/;
/** `Tue Apr 30 18:02:41 CEST 2024` (date(1)) or `2024-04-30 18:02:41`. */
const STAMP_RE = /^(?:[A-Z][a-z]{2}\s+[A-Z][a-z]{2}\s+\d{1,2}\s+\d\d:\d\d:\d\d(?:\s+\S+)?\s+\d{4}|\d{4}-\d\d-\d\d[ T]\d\d:\d\d(?::\d\d)?)\s*$/;

export function parseMobatchResult(text: string, source: LogSource = { file: 'mobatch_result.txt' }): MobatchResult {
  const entries: MobatchEntry[] = [];
  const problems: MobatchResult['problems'] = [];
  let inTrailer = false;
  // A date outside the trailer is a stamp only when nothing follows it (scripts append `date` to the file).
  let pendingStamp: MobatchResult['problems'][number] | null = null;
  forEachLine(text, (raw, n) => {
    const line = cleanLine(raw);
    if (line !== null && (isBlank(line) || isRule(line) || line.trimStart().startsWith('#'))) return;
    if (pendingStamp) {
      problems.push(pendingStamp);
      pendingStamp = null;
    }
    if (line === null) {
      problems.push({ kind: 'binary', reason: 'binary data: 1 line skipped', command: null, source: sourceRef(source, n) });
      return;
    }
    const trimmed = line.trim();
    if (TRAILER_RE.test(trimmed)) inTrailer = true;
    if (RUN_LINE_RE.test(trimmed) || (inTrailer && STAMP_RE.test(trimmed))) return;
    if (STAMP_RE.test(trimmed)) {
      pendingStamp = { kind: 'unparsed-result', reason: `not a result line: ${excerpt(line)}`, command: null, source: sourceRef(source, n) };
      return;
    }
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
