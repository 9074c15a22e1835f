import { PostgresAdapter, sql, type Kysely } from 'kysely';
import { requireOperatorId } from '../db/operator-scope';
import type { Database } from '../db/schema';
import type { ReservedCell } from '../domain/planning';

/**
 * Reservations of planned NR cells (issue 46, migration 0017): a parameter planning run reserves every NR
 * cell it plans, so the next plans choose their PCIs and PRACH roots around it. A reservation lasts until
 * a network dump shows its cell as planned — the planning read drops those (a dump import never has to
 * know about plans) — or its plan is discarded, or a later plan of the same site supersedes it.
 *
 * Reading the reservations, planning and reserving is one transaction per operator at a time (SQLite's
 * BEGIN IMMEDIATE; an advisory lock on PostgreSQL), so two planners working on neighbouring sites at the
 * same moment cannot both take the same PCI. The run is recorded after (its own transaction, runs/): the
 * reservations carry the job's plan key until then, and a plan key whose run was never recorded (a
 * crash in between) stops counting after RESERVATION_GRACE_MS.
 */

type Db = Kysely<Database>;

/** Arbitrary but fixed: with the operator, serialises an operator's planning runs across API instances on PostgreSQL. */
const PLANNING_LOCK_KEY = 46_017;
export const RESERVATION_GRACE_MS = 60 * 60 * 1000;

export interface NewReservation {
  siteId: string;
  cellName: string;
  nrArfcn: number;
  pci: number;
  prachRoot: number | null;
  tac: number | null;
  lat: number;
  lon: number;
  azimuth: number | null;
}

export interface ReservationPlan<T> {
  result: T;
  /** Sites the plan covers: their earlier reservations (of any plan) are superseded. */
  sites: readonly string[];
  cells: readonly NewReservation[];
}

/**
 * Drops what no longer holds: reservations whose cell the inventory now shows as planned (same name,
 * NR-ARFCN and PCI: a replanned cell keeps its old name, and its old self in the dump is not the plan),
 * and reservations of runs never recorded.
 */
async function prune(db: Db, now: Date): Promise<void> {
  await db
    .deleteFrom('planned_cells')
    .where((eb) =>
      eb.exists(
        eb
          .selectFrom('network_cells as c')
          .select('c.name')
          .where('c.tech', '=', '5G')
          .whereRef('c.name', '=', 'planned_cells.cell_name')
          .whereRef('c.channel', '=', 'planned_cells.nr_arfcn')
          .whereRef('c.pci', '=', 'planned_cells.pci'),
      ),
    )
    .execute();
  await db
    .deleteFrom('planned_cells')
    .where('run_id', 'is', null)
    .where('created_at', '<', new Date(now.getTime() - RESERVATION_GRACE_MS).toISOString())
    .execute();
}

/** The operator's live reservations, as the planner places them. */
export async function readReservations(db: Db): Promise<ReservedCell[]> {
  const rows = await db.selectFrom('planned_cells').selectAll().orderBy('cell_name').execute();
  return rows.map((r) => ({
    name: r.cell_name,
    siteId: r.site_id,
    tech: '5G',
    lat: r.lat,
    lon: r.lon,
    azimuth: r.azimuth,
    channel: r.nr_arfcn,
    pci: r.pci,
    rachRootSequence: r.prach_root,
    runId: r.run_id ?? 0,
  }));
}

/**
 * Prunes, reads the reservations, plans with them (`plan`, synchronous: the engine is pure) and reserves
 * what it planned under `planKey`, in one transaction. Answers the plan's result.
 */
export async function reservePlan<T>(db: Db, planKey: string, plan: (reserved: ReservedCell[]) => ReservationPlan<T>, now = new Date()): Promise<T> {
  return db.transaction().execute(async (trx) => {
    if (trx.getExecutor().adapter instanceof PostgresAdapter)
      await sql`select pg_advisory_xact_lock(${PLANNING_LOCK_KEY}, ${requireOperatorId()})`.execute(trx);
    await prune(trx, now);
    const planned = plan(await readReservations(trx));
    if (planned.sites.length > 0)
      await trx
        .deleteFrom('planned_cells')
        .where('site_id', 'in', [...planned.sites])
        .execute();
    if (planned.cells.length > 0) {
      await trx
        .insertInto('planned_cells')
        .values(
          planned.cells.map((c) => ({
            plan_key: planKey,
            run_id: null,
            site_id: c.siteId,
            cell_name: c.cellName,
            nr_arfcn: c.nrArfcn,
            pci: c.pci,
            prach_root: c.prachRoot,
            tac: c.tac,
            lat: c.lat,
            lon: c.lon,
            azimuth: c.azimuth,
            created_at: now.toISOString(),
          })),
        )
        .execute();
    }
    return planned.result;
  });
}

/** The run is recorded: its reservations name it (discarding it frees them). */
export async function attachRun(db: Db, planKey: string, runId: number): Promise<void> {
  await db.updateTable('planned_cells').set({ run_id: runId }).where('plan_key', '=', planKey).execute();
}

/** The run could not be recorded: what it reserved is freed. */
export async function dropPlan(db: Db, planKey: string): Promise<void> {
  await db.deleteFrom('planned_cells').where('plan_key', '=', planKey).execute();
}

/** Frees a run's reservations; answers how many cells were freed. */
export async function freeRun(db: Db, runId: number): Promise<number> {
  const result = await db.deleteFrom('planned_cells').where('run_id', '=', runId).executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** How many cells each run still holds. */
export async function reservedCounts(db: Db, runIds: readonly number[]): Promise<Map<number, number>> {
  if (runIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('planned_cells')
    .select(['run_id', (eb) => eb.fn.countAll<number | string>().as('n')])
    .where('run_id', 'in', [...runIds])
    .groupBy('run_id')
    .execute();
  return new Map(rows.map((r) => [Number(r.run_id), Number(r.n)]));
}
