/**
 * Deterministic randomness for the demo data: one independent stream per (seed, item, purpose), so the
 * content of a site or a node never depends on how many others were generated or in which order, and
 * the same options give the same bytes.
 */

/** Mulberry32: a 32-bit state, fast, and good enough for plausible demo values (not for secrets). */
export function mulberry32(a: number): () => number {
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The stream of `(seed, index, salt)`: the three mixed by FNV-1a into Mulberry32's state. */
export function rngFor(seed: number, index: number, salt: number): () => number {
  let h = 2166136261 ^ seed;
  for (const v of [index, salt]) {
    h = Math.imul(h ^ (v & 0xffff), 16777619);
    h = Math.imul(h ^ (v >>> 16), 16777619);
  }
  return mulberry32(h >>> 0);
}

export const pick = <T>(r: () => number, items: readonly T[]): T => items[Math.floor(r() * items.length)] as T;
export const int = (r: () => number, min: number, max: number): number => min + Math.floor(r() * (max - min + 1));
