import type { WorkOrderStatusRow } from 'contracts';
import { buildTracker, type PlanData, type TrackerData } from './sync';
import { trackerSyncChanges, trackerSyncMessage, type TrackerSyncChanges } from './sync-changes';

const plan = (localId: string, commDate: string | null, extra: Partial<PlanData> = {}): PlanData => ({
  localId,
  technology: 'NR',
  equipCode: null,
  equipName: `eq ${localId}`,
  supplier: 'Ericsson',
  workType: null,
  commDate,
  week: null,
  mkOwner: null,
  impOwner: null,
  btsArea: null,
  btsTech: null,
  project: 'Rollout 5G',
  comments: null,
  statResponse: null,
  bssTech: null,
  workOrder: null,
  localType: null,
  LastUpdate: '2024-05-01T00:00:00Z',
  ...extra,
});
const wo = (siteId: string, wowStatus: string, extra: Partial<WorkOrderStatusRow> = {}): WorkOrderStatusRow => ({
  siteId,
  woType: 'Install',
  woId: `${siteId}-Install`,
  wowStatus,
  wowCloseDate: null,
  wowLastChange: '2024-05-10T00:00:00Z',
  wowLastUpdate: null,
  ...extra,
});

const none: TrackerSyncChanges = { added: 0, updated: 0, unchanged: 0, removed: 0, statusMoves: [] };

describe('what a tracker sync changed', () => {
  const monday = new Date('2024-06-03T08:00:00Z');
  const entries = (rows: readonly TrackerData[]) => new Map(rows.map((r) => [r.localId, r.dateEntry]));

  // The plan of five sites and their work orders, as the first sync built the tracker from them.
  const firstPlan = [
    plan('LX0001', '2024-07-01T00:00:00Z'),
    plan('LX0002', '2024-07-01T00:00:00Z'),
    plan('LX0003', '2024-07-08T00:00:00Z'),
    plan('LX0004', null),
    plan('LX0005', null),
  ];
  const firstOrders = [wo('LX0001', 'Planned'), wo('LX0002', 'Planned'), wo('LX0003', 'On Air'), wo('LX0005', 'Planned')];
  const first = buildTracker(firstPlan, firstOrders, new Map(), monday);

  it('a first sync into an empty tracker adds every site', () => {
    expect(trackerSyncChanges([], first)).toEqual({ ...none, added: 5 });
  });

  it('a sync a day later with nothing new changes nothing (the day count ages, it is not a change)', () => {
    const tuesday = buildTracker(firstPlan, firstOrders, entries(first), new Date('2024-06-04T08:00:00Z'));
    expect(tuesday.map((r) => r.dayCount)).not.toEqual(first.map((r) => r.dayCount));
    expect(trackerSyncChanges(first, tuesday)).toEqual({ ...none, unchanged: 5 });
  });

  it('counts sites added, updated, unchanged and removed, and the status moves by move', () => {
    const plan2 = [
      plan('LX0001', '2024-07-01T00:00:00Z'),
      plan('LX0002', '2024-07-01T00:00:00Z'),
      plan('LX0003', '2024-07-08T00:00:00Z', { comments: 'crane booked' }), // updated, status kept
      plan('LX0004', null),
      // LX0005 left the plan: removed
      plan('LX0006', '2024-08-01T00:00:00Z'), // added
    ];
    const orders2 = [
      wo('LX0001', 'On Air', { wowLastChange: '2024-06-01T00:00:00Z' }), // Planned → On Air
      wo('LX0002', 'On Air', { wowLastChange: '2024-06-01T00:00:00Z' }), // Planned → On Air
      wo('LX0003', 'On Air'),
      wo('LX0004', 'Planned'), // no status → Planned
    ];
    const second = buildTracker(plan2, orders2, entries(first), monday);
    const changes = trackerSyncChanges(first, second);
    expect(changes).toEqual({
      added: 1,
      updated: 4,
      unchanged: 0,
      removed: 1,
      statusMoves: [
        { from: 'Planned', to: 'On Air', count: 2 },
        { from: null, to: 'Planned', count: 1 },
      ],
    });
    expect(trackerSyncMessage(second.length, changes)).toBe(
      'Tracker synced: 5 sites: 1 added, 4 updated, 0 unchanged, 1 removed; 3 statuses moved (2 Planned → On Air, 1 no status → Planned).',
    );
  });

  it('reads an imported tracker as stored: blanks as blanks, numbers as text, a second row of a site as removed', () => {
    const stored = first.map((r) => ({ ...r, week: r.week === null ? null : (String(r.week) as unknown as number), comments: '' as string | null }));
    const twice = [...stored, { ...stored[0]! }];
    expect(trackerSyncChanges(twice, first)).toEqual({ ...none, unchanged: 5, removed: 1 });
  });

  it('says when no status moved, and names at most five moves', () => {
    expect(trackerSyncMessage(1, { ...none, unchanged: 1 })).toBe('Tracker synced: 1 site: 0 added, 0 updated, 1 unchanged; no status moved.');
    const statusMoves = ['A', 'B', 'C', 'D', 'E', 'F', 'G'].map((s, i) => ({ from: s, to: 'Z', count: 7 - i }));
    expect(trackerSyncMessage(40, { ...none, updated: 28, unchanged: 12, statusMoves })).toBe(
      'Tracker synced: 40 sites: 0 added, 28 updated, 12 unchanged; 28 statuses moved (7 A → Z, 6 B → Z, 5 C → Z, 4 D → Z, 3 E → Z, and 2 more).',
    );
  });
});
