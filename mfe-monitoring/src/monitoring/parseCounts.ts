import type { ParseCounts } from 'contracts';

/** The counts of a parse in words, e.g. '12 parsed, 1 unreachable, 2 not in inventory, 0 failed, 3 problems'. */
export function countsText(counts: ParseCounts): string {
  return `${counts.files} files: ${counts.parsed} parsed, ${counts.unreachable} unreachable, ${counts.notInInventory} not in inventory, ${counts.failed} failed, ${counts.problems} problems`;
}
