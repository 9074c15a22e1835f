import type { Cell } from '../network/model';

export interface TacChoice {
  tac: number | null;
  source: 'operator' | 'lte' | 'none';
  /** Set when the site's LTE cells disagree or no TAC is known. */
  problem: string | null;
}

/**
 * The NR TAC of an EN-DC site: the operator plan's TAC when given, otherwise the TAC of the site's LTE cells
 * (the most common one; ties: the lowest), otherwise none.
 */
export function chooseNrTac(siteCells: readonly Cell[], operatorTac?: number | null): TacChoice {
  if (operatorTac !== undefined && operatorTac !== null) return { tac: operatorTac, source: 'operator', problem: null };
  const counts = new Map<number, number>();
  for (const c of siteCells) if ((c.tech === '4G' || c.tech === 'NB-IoT') && c.tac !== null) counts.set(c.tac, (counts.get(c.tac) ?? 0) + 1);
  if (counts.size === 0) return { tac: null, source: 'none', problem: 'no LTE TAC on the site and none in the operator plan' };
  const ranked = [...counts].sort((a, b) => b[1] - a[1] || a[0] - b[0]);
  const tac = (ranked[0] as [number, number])[0];
  const problem =
    counts.size > 1 ? `the site's LTE cells use ${counts.size} TACs (${[...counts.keys()].sort((a, b) => a - b).join(', ')}); NR uses ${tac}` : null;
  return { tac, source: 'lte', problem };
}
