/** Milliseconds since the epoch. Injected so tests can cross lockout windows and token lifetimes without waiting. */
export type Clock = () => number;

export const systemClock: Clock = () => Date.now();

/** JWT NumericDate: whole seconds. */
export function epochSeconds(ms: number): number {
  return Math.floor(ms / 1000);
}

/** How points in time are stored (fixed-width, so text order is time order). */
export function isoTime(ms: number): string {
  return new Date(ms).toISOString();
}
