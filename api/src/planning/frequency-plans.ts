import type { Kysely } from 'kysely';
import { LTE_BAND_NAMES, type FrequencyPlan, type SaveFrequencyPlanRequest } from 'contracts';
import type { Database } from '../db/schema';
import {
  EUTRA_BANDS,
  isOnN78ChannelRaster,
  LTE_BAND_NUMBERS,
  N78,
  nrArfcnToKHz,
  NR_MAX_RB,
  type LteBandLabel,
  type OperatorFrequencyPlan,
} from '../domain/planning';

/**
 * The operators' frequency plans (docs/engines/planning.md#parameter-planning-5g-nr-en-dc): which n78 block and which LTE carriers each operator
 * owns. Administrators edit them (Parameters/SaveFrequencyPlan); a parameter planning run uses the plan
 * of the caller's current operator.
 */

type Db = Kysely<Database>;

/** The n78 carriers of the console are 30 kHz SCS (the n78 SSB numerology): the 30 kHz channel raster applies. */
export const NR_SCS_KHZ = 30;

export type LteCarriers = FrequencyPlan['lteCarriers'];

/**
 * Demo values, not real licences: each demo operator gets its own block of n78 (3300–3800 MHz) and one
 * DL EARFCN per LTE band inside the TS 36.101 Table 5.7.3-1 range. Vodafone PT's carriers are those of
 * the demo network (api/src/demo/network/identities.ts), so its runs plan without EARFCN warnings.
 * - Vodafone PT: 3600–3700 MHz (100 MHz, centre 3650.01 MHz = NR-ARFCN 643334);
 * - NOS: 3500–3600 MHz (100 MHz, centre 3549.99 MHz = NR-ARFCN 636666);
 * - MEO: 3400–3480 MHz (80 MHz, centre 3440.01 MHz = NR-ARFCN 629334).
 */
export const DEMO_FREQUENCY_PLANS: Readonly<Record<string, Omit<SaveFrequencyPlanRequest, 'operatorId'>>> = {
  'Vodafone PT': { nrArfcn: 643334, nrBandwidthMhz: 100, lteCarriers: { L700: 9360, L800: 6300, L1800: 1850, L2100: 100 } },
  NOS: { nrArfcn: 636666, nrBandwidthMhz: 100, lteCarriers: { L700: 9310, L800: 6200, L1800: 1450, L2100: 300 } },
  MEO: { nrArfcn: 629334, nrBandwidthMhz: 80, lteCarriers: { L700: 9460, L800: 6400, L1800: 1675, L2100: 500 } },
};

export const FREQUENCY_PLAN_MESSAGES = {
  saved: (operator: string) => `Frequency plan of ${operator} saved.`,
  unknownOperator: 'Operator not found.',
  noPlan: (operator: string) =>
    `${operator} has no frequency plan: an Administrator must set it (Frequency plans, on Parameter Planning) before a parameter planning can run.`,
  noOperator: 'You have no current operator: choose one in Settings.',
} as const;

/**
 * What is wrong with a plan, in words (empty: nothing). The NR-ARFCN must be on the n78 channel raster
 * of 30 kHz SCS (TS 38.104 Table 5.4.2.3-1: 620000–653332, step 2), the bandwidth one of the 30 kHz
 * channel bandwidths (Table 5.3.2-1), the whole block inside n78, and each EARFCN a DL EARFCN of its band
 * (TS 36.101 Table 5.7.3-1).
 */
export function frequencyPlanProblems(plan: Omit<SaveFrequencyPlanRequest, 'operatorId'>): string[] {
  const problems: string[] = [];
  if (!isOnN78ChannelRaster(plan.nrArfcn, NR_SCS_KHZ)) {
    problems.push(`NR-ARFCN ${plan.nrArfcn} is not on the n78 channel raster (30 kHz SCS: 620000–653332, even numbers).`);
  }
  const bandwidths = Object.keys(NR_MAX_RB[NR_SCS_KHZ]).map(Number);
  if (!bandwidths.includes(plan.nrBandwidthMhz)) {
    problems.push(`${plan.nrBandwidthMhz} MHz is not an NR channel bandwidth with 30 kHz SCS (${bandwidths.join(', ')} MHz).`);
  } else if (problems.length === 0) {
    const centre = nrArfcnToKHz(plan.nrArfcn);
    const half = (plan.nrBandwidthMhz * 1000) / 2;
    if (centre - half < N78.fromMHz * 1000 || centre + half > N78.toMHz * 1000) {
      problems.push(`A ${plan.nrBandwidthMhz} MHz carrier centred on ${centre / 1000} MHz does not fit in n78 (3300–3800 MHz).`);
    }
  }
  for (const band of LTE_BAND_NAMES) {
    const earfcn = plan.lteCarriers[band];
    if (earfcn === undefined) continue;
    const range = EUTRA_BANDS[LTE_BAND_NUMBERS[band]];
    if (!Number.isInteger(earfcn) || earfcn < range.nDlMin || earfcn > range.nDlMax) {
      problems.push(`EARFCN ${earfcn} is not a ${band} (band ${range.band}) downlink EARFCN (${range.nDlMin}–${range.nDlMax}).`);
    }
  }
  return problems;
}

/** The engine's view of a stored plan: the n78 block by its centre and width, one owned EARFCN per band. */
export function enginePlanOf(plan: FrequencyPlan): OperatorFrequencyPlan {
  const lte: Partial<Record<LteBandLabel, readonly number[]>> = {};
  for (const band of LTE_BAND_NAMES) {
    const earfcn = plan.lteCarriers[band];
    if (earfcn !== undefined) lte[band] = [earfcn];
  }
  return { operator: plan.operatorName, nr: { centreMHz: nrArfcnToKHz(plan.nrArfcn) / 1000, bandwidthMHz: plan.nrBandwidthMhz, scsKHz: NR_SCS_KHZ }, lte };
}

function carriersOf(json: string): LteCarriers {
  try {
    const parsed = JSON.parse(json) as Record<string, unknown>;
    const out: LteCarriers = {};
    for (const band of LTE_BAND_NAMES) if (typeof parsed[band] === 'number') out[band] = parsed[band];
    return out;
  } catch {
    return {};
  }
}

const planQuery = (db: Db) =>
  db
    .selectFrom('frequency_plans as p')
    .innerJoin('operators as o', 'o.id', 'p.operator_id')
    .select(['p.operator_id', 'o.name', 'p.nr_arfcn', 'p.nr_bandwidth_mhz', 'p.lte_carriers', 'p.updated_at']);

type PlanRow = Awaited<ReturnType<ReturnType<typeof planQuery>['executeTakeFirstOrThrow']>>;

const planOfRow = (r: PlanRow): FrequencyPlan => ({
  operatorId: r.operator_id,
  operatorName: r.name,
  nrArfcn: r.nr_arfcn,
  nrBandwidthMhz: r.nr_bandwidth_mhz,
  lteCarriers: carriersOf(r.lte_carriers),
  updatedAt: r.updated_at,
});

/** Every operator's plan, by operator name. */
export async function listFrequencyPlans(db: Db): Promise<FrequencyPlan[]> {
  return (await planQuery(db).orderBy('o.name').orderBy('p.operator_id').execute()).map(planOfRow);
}

export async function frequencyPlanOf(db: Db, operatorId: number): Promise<FrequencyPlan | null> {
  const row = await planQuery(db).where('p.operator_id', '=', operatorId).executeTakeFirst();
  return row ? planOfRow(row) : null;
}

/** Creates or replaces an operator's plan (checked by the caller); null when the operator does not exist. */
export async function saveFrequencyPlan(db: Db, request: SaveFrequencyPlanRequest, userId: number, now = new Date()): Promise<FrequencyPlan | null> {
  const operator = await db.selectFrom('operators').select('id').where('id', '=', request.operatorId).executeTakeFirst();
  if (!operator) return null;
  const values = {
    nr_arfcn: request.nrArfcn,
    nr_bandwidth_mhz: request.nrBandwidthMhz,
    lte_carriers: JSON.stringify(request.lteCarriers),
    updated_by: userId,
    updated_at: now.toISOString(),
  };
  await db
    .insertInto('frequency_plans')
    .values({ operator_id: request.operatorId, ...values })
    .onConflict((oc) => oc.column('operator_id').doUpdateSet(values))
    .execute();
  return frequencyPlanOf(db, request.operatorId);
}

/**
 * Seeds the demo operators' plans into an empty table (reference data for the demo: an Administrator
 * edits them later). Operators that do not exist (DEMO_DATA=0) are skipped. Answers how many were added.
 */
export async function seedFrequencyPlans(db: Db, now = new Date()): Promise<number> {
  const any = await db.selectFrom('frequency_plans').select('operator_id').limit(1).executeTakeFirst();
  if (any) return 0;
  const operators = await db.selectFrom('operators').select(['id', 'name']).where('name', 'in', Object.keys(DEMO_FREQUENCY_PLANS)).execute();
  if (operators.length === 0) return 0;
  const updatedAt = now.toISOString();
  await db
    .insertInto('frequency_plans')
    .values(
      operators.map((o) => {
        const plan = DEMO_FREQUENCY_PLANS[o.name] as Omit<SaveFrequencyPlanRequest, 'operatorId'>;
        return {
          operator_id: o.id,
          nr_arfcn: plan.nrArfcn,
          nr_bandwidth_mhz: plan.nrBandwidthMhz,
          lte_carriers: JSON.stringify(plan.lteCarriers),
          updated_by: null,
          updated_at: updatedAt,
        };
      }),
    )
    // Two instances starting at once: the second one's rows are the same, so they are simply skipped.
    .onConflict((oc) => oc.column('operator_id').doNothing())
    .execute();
  return operators.length;
}
