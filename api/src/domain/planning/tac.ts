import type { Cell } from '../network/model';

export interface TacChoice {
  tac: number | null;
  /** nr: the site's kept NR cells; lte: the site's LTE cells (EN-DC); operator: the plan's fallback; none. */
  source: 'nr' | 'lte' | 'operator' | 'none';
  /** Set when the cells it follows disagree, or no TAC is known. */
  problem: string | null;
}

/** The most common value (ties: the lowest) and how many distinct values there were. */
function mostCommon(values: readonly number[]): { value: number; distinct: number[] } | null {
  const counts = new Map<number, number>();
  for (const v of values) counts.set(v, (counts.get(v) ?? 0) + 1);
  if (counts.size === 0) return null;
  const ranked = [...counts].sort((a, b) => b[1] - a[1] || a[0] - b[0]);
  return { value: (ranked[0] as [number, number])[0], distinct: [...counts.keys()].sort((a, b) => a - b) };
}

/**
 * The NR TAC of an EN-DC site follows what the site already broadcasts (issue 46): the TAC of the NR
 * cells it keeps, else the TAC of its LTE cells (the most common one; ties: the lowest), else the
 * operator plan's TAC, else none. A tracking area is the site's, not the radio's: a new radio keeps it.
 */
export function chooseNrTac(siteCells: readonly Cell[], operatorTac?: number | null, keptNrCells: readonly Cell[] = []): TacChoice {
  const nr = mostCommon(keptNrCells.flatMap((c) => c.nrTac ?? c.tac ?? []));
  if (nr) {
    const problem =
      nr.distinct.length > 1 ? `the site's kept NR cells use ${nr.distinct.length} TACs (${nr.distinct.join(', ')}); new NR cells use ${nr.value}` : null;
    return { tac: nr.value, source: 'nr', problem };
  }
  const lte = mostCommon(siteCells.flatMap((c) => ((c.tech === '4G' || c.tech === 'NB-IoT') && c.tac !== null ? [c.tac] : [])));
  if (lte) {
    const problem = lte.distinct.length > 1 ? `the site's LTE cells use ${lte.distinct.length} TACs (${lte.distinct.join(', ')}); NR uses ${lte.value}` : null;
    return { tac: lte.value, source: 'lte', problem };
  }
  if (operatorTac !== undefined && operatorTac !== null) return { tac: operatorTac, source: 'operator', problem: null };
  return { tac: null, source: 'none', problem: 'no NR or LTE TAC on the site and none in the operator plan' };
}
