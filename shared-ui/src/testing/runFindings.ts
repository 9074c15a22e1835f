import type { RunFindingRow, RunFindingsPage, RunSheetInfo, RunView } from 'contracts';

/**
 * A run kind's findings route, answered from rows given per sheet in the order the server lists them
 * (worst first): the sheet asked for (the first by default), one page of it. Test-only.
 */
export function fakeRunFindings(run: RunView, rowsBySheet: Record<string, RunFindingRow[]>) {
  return (params: Record<string, unknown>): RunFindingsPage => {
    const sheet = typeof params.sheet === 'string' ? params.sheet : (run.sheets[0]?.name ?? '');
    const rows = rowsBySheet[sheet] ?? [];
    const size = Number(params.size ?? 10);
    const page = Number(params.page ?? 1);
    return { run, sheet, rows: rows.slice((page - 1) * size, page * size), total: rows.length };
  };
}

/** A sheet's description with text columns, for a fake run. */
export function fakeSheet(name: string, keys: readonly string[], total: number, worst: string | null, verdictKey: string | null = 'verdict'): RunSheetInfo {
  return { name, columns: keys.map((key) => ({ key, label: key[0]!.toUpperCase() + key.slice(1), kind: 'text' as const })), total, verdictKey, worst };
}
