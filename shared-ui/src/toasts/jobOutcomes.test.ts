import { claimJobOutcome, OUTCOME_GRACE_MS, takeShownOutcome } from './jobOutcomes';

afterEach(() => jest.useRealTimers());

describe('job outcomes shown by a page', () => {
  test("a claim covers one notification of its kind, told by the key's words", () => {
    const claim = claimJobOutcome('validation.healthChecks');
    expect(takeShownOutcome('validation-cpich')).toBe(false);
    expect(takeShownOutcome('validation-health-checks')).toBe(true);
    // Used up: the next one is toasted.
    expect(takeShownOutcome('validation-health-checks')).toBe(false);
    claim.release();
  });

  test('keys that name what the job produced still belong to their kind', () => {
    claimJobOutcome('monitoring.parse');
    claimJobOutcome('tracking.import');
    expect(takeShownOutcome('tracking-sync')).toBe(false);
    expect(takeShownOutcome('monitoring-parse-12')).toBe(true);
    expect(takeShownOutcome('tracking-import-workOrderStatus')).toBe(true);
  });

  test('released at once when the page goes; lapses after the grace once settled', () => {
    claimJobOutcome('tracking.sync').release();
    expect(takeShownOutcome('tracking-sync')).toBe(false);

    jest.useFakeTimers();
    const claim = claimJobOutcome('tracking.sync');
    claim.settle();
    jest.advanceTimersByTime(OUTCOME_GRACE_MS - 1);
    expect(takeShownOutcome('tracking-sync')).toBe(true);

    claimJobOutcome('tracking.sync').settle();
    jest.advanceTimersByTime(OUTCOME_GRACE_MS + 1);
    expect(takeShownOutcome('tracking-sync')).toBe(false);
  });

  test('an empty kind claims nothing; a payload without a key is not matched', () => {
    claimJobOutcome('');
    expect(takeShownOutcome('anything')).toBe(false);
    const claim = claimJobOutcome('tracking.import');
    expect(takeShownOutcome(undefined as unknown as string)).toBe(false);
    claim.release();
  });
});
