/** A planning input that cannot be satisfied or is malformed; the message says which cell and why. */
export class PlanningError extends Error {
  override readonly name = 'PlanningError';
}
