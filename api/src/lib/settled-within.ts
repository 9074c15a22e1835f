/**
 * Waits for `promise` to settle, but no longer than `ms`: true when it settled in time (fulfilled or
 * rejected alike), false when the wait ran out. Never rejects. For waits on another service (Redis,
 * closing sockets) that must not hold the caller back when that service does not answer.
 */
export async function settledWithin(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    return await Promise.race([
      promise.then(
        () => true,
        () => true,
      ),
      new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), ms))),
    ]);
  } finally {
    clearTimeout(timer);
  }
}
