/**
 * One event, one toast. A page that starts a job and shows its outcome itself (the import dialog's
 * toast or problem list, a run's result card, a parse's counts, a downloaded export) claims that
 * outcome while its call is pending and for a moment after. The hub's notification of the same job
 * still lands in the bell, but the shell does not toast it a second time.
 *
 * A notification names its job by its key, which begins with the job's kind in the kind's own words
 * (`tracking.import` → `tracking-import-commissioningPlan`, `validation.healthChecks` →
 * `validation-health-checks`); api/test/notification-keys.test.ts holds every kind to it.
 *
 * Module state on purpose: shared-ui is one instance for the shell and every remote (a federation
 * singleton), so a remote's claim is seen by the shell's hub connection.
 */

/** The job's notification can reach the browser a little after the call's answer (another connection). */
export const OUTCOME_GRACE_MS = 5000;

export interface OutcomeClaim {
  /** The page's call has answered: the claim lasts `OUTCOME_GRACE_MS` more, then lapses. */
  settle: () => void;
  /** The page no longer shows the outcome (it went away): the notification toasts as usual. */
  release: () => void;
}

interface Claim {
  words: string;
  timer: ReturnType<typeof setTimeout> | undefined;
}

const claims: Claim[] = [];

/** 'validation.healthChecks' and 'validation-health-checks' both read 'validationhealthchecks'. */
function wordsOf(text: string): string {
  return text.toLowerCase().replace(/[^a-z0-9]/g, '');
}

function drop(claim: Claim): void {
  clearTimeout(claim.timer);
  const index = claims.indexOf(claim);
  if (index >= 0) claims.splice(index, 1);
}

/** Claims the outcome of the job of `kind` the page is about to start (one claim covers one notification). */
export function claimJobOutcome(kind: string): OutcomeClaim {
  const claim: Claim = { words: wordsOf(kind), timer: undefined };
  // A kind without words would match every key.
  if (claim.words !== '') claims.push(claim);
  return {
    settle: () => {
      clearTimeout(claim.timer);
      if (claims.includes(claim)) claim.timer = setTimeout(() => drop(claim), OUTCOME_GRACE_MS);
    },
    release: () => drop(claim),
  };
}

/**
 * Asked by the shell for each hub notification: true when a page already shows this job's outcome, so
 * the notification is not toasted; the claim is used up.
 */
export function takeShownOutcome(notificationKey: string): boolean {
  // What the hub sends is data from the network: a payload without a key is toasted, never thrown on.
  if (typeof notificationKey !== 'string') return false;
  const key = wordsOf(notificationKey);
  const claim = claims.find((c) => key.startsWith(c.words));
  if (!claim) return false;
  drop(claim);
  return true;
}
