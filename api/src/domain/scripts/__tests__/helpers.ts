/** The lines of a script from the comment naming `finding` to the next blank line: one finding's commands. */
export function block(script: string, finding: string): string[] {
  const lines = script.split('\n');
  const start = lines.findIndex((l) => l.startsWith('#') && l.includes(finding));
  if (start < 0) throw new Error(`no comment naming ${finding} in:\n${script}`);
  const end = lines.indexOf('', start);
  return lines.slice(start, end < 0 ? undefined : end);
}
