import { TRACKER_FIELDS } from 'contracts';
import type { TrackerData } from './sync';

/**
 * What a tracker sync changed (issue 46, "tracker sync says what changed"): the tracker before and after,
 * site by site (`localId`). A site only the new tracker has was added, one only the old had was removed
 * (so is a second row of a site, which an imported tracker may hold); a site in both was updated when any
 * of its values changed, else unchanged. `dayCount` is left out: it ages with the clock, not with the
 * plan or the work orders, so every sync on a new day would otherwise update every site.
 */
export interface TrackerStatusMove {
  /** The site's current status before and after; null when it had (or has) none. */
  from: string | null;
  to: string | null;
  count: number;
}

export interface TrackerSyncChanges {
  added: number;
  updated: number;
  unchanged: number;
  removed: number;
  /** Sites whose current status moved, by move, most frequent first (then by name). */
  statusMoves: TrackerStatusMove[];
}

type Compared = Exclude<keyof TrackerData, 'dayCount'>;
/** Every field of a tracker row but its day count, which ages by itself: a new day is no change. */
const COMPARED: readonly Compared[] = TRACKER_FIELDS.filter((f): f is Compared => f !== 'dayCount');

/** Values as both sides may hold them: stored rows read back as text or numbers, blanks as '' or null. */
function same(a: unknown, b: unknown): boolean {
  const norm = (v: unknown) => (v === null || v === undefined || v === '' ? null : String(v));
  return norm(a) === norm(b);
}

/** The part of a row the sync compares; `previous` rows may come from an imported tracker. */
export type TrackerSyncRow = Pick<TrackerData, Compared>;

export function trackerSyncChanges(previous: readonly TrackerSyncRow[], next: readonly TrackerSyncRow[]): TrackerSyncChanges {
  const before = new Map<string, TrackerSyncRow>();
  let removed = 0;
  for (const row of previous) {
    if (before.has(row.localId)) removed += 1;
    else before.set(row.localId, row);
  }
  let added = 0;
  let updated = 0;
  let unchanged = 0;
  const moves = new Map<string, TrackerStatusMove>();
  const seen = new Set<string>();
  for (const row of next) {
    seen.add(row.localId);
    const old = before.get(row.localId);
    if (!old) {
      added += 1;
      continue;
    }
    if (COMPARED.every((field) => same(old[field], row[field]))) {
      unchanged += 1;
      continue;
    }
    updated += 1;
    if (!same(old.currentStatus, row.currentStatus)) {
      const from = old.currentStatus || null;
      const to = row.currentStatus || null;
      const key = JSON.stringify([from, to]);
      const move = moves.get(key) ?? { from, to, count: 0 };
      move.count += 1;
      moves.set(key, move);
    }
  }
  for (const localId of before.keys()) if (!seen.has(localId)) removed += 1;
  const statusMoves = [...moves.values()].sort((a, b) => b.count - a.count || moveName(a).localeCompare(moveName(b)));
  return { added, updated, unchanged, removed, statusMoves };
}

/** Moves named in the message before "and N more". */
const MOVES_SHOWN = 5;
const NO_STATUS = 'no status';

/** "Planned → On Air". */
export function moveName(move: Pick<TrackerStatusMove, 'from' | 'to'>): string {
  return `${move.from ?? NO_STATUS} → ${move.to ?? NO_STATUS}`;
}

/**
 * "Tracker synced: 120 sites: 3 added, 12 updated, 105 unchanged; 4 statuses moved (2 Planned → On Air,
 * 2 On Air → Integrated)." Removed sites are named only when there are some.
 */
export function trackerSyncMessage(sites: number, changes: TrackerSyncChanges): string {
  const counts = [`${changes.added} added`, `${changes.updated} updated`, `${changes.unchanged} unchanged`];
  if (changes.removed > 0) counts.push(`${changes.removed} removed`);
  const moved = changes.statusMoves.reduce((n, m) => n + m.count, 0);
  let statuses = 'no status moved';
  if (moved > 0) {
    const shown = changes.statusMoves.slice(0, MOVES_SHOWN).map((m) => `${m.count} ${moveName(m)}`);
    const more = changes.statusMoves.length - MOVES_SHOWN;
    statuses = `${moved} ${moved === 1 ? 'status' : 'statuses'} moved (${shown.join(', ')}${more > 0 ? `, and ${more} more` : ''})`;
  }
  return `Tracker synced: ${sites} ${sites === 1 ? 'site' : 'sites'}: ${counts.join(', ')}; ${statuses}.`;
}
