/**
 * Notifications the hub has sent but whose write has not ended yet, by user. The console fetches its
 * list (and may mark the new one read) as soon as a notification arrives, so every read of a user's
 * notifications first waits for that user's pending writes: what was shown is always there to read.
 */
export class PendingStores {
  private readonly byUser = new Map<number, Set<Promise<void>>>();
  /** Writes announced by another instance, by batch id, until that instance says they ended. */
  private readonly remote = new Map<string, { settle: () => void; timer: ReturnType<typeof setTimeout> }>();

  /** `done` must never reject: it only says when to read. */
  track(userIds: readonly number[], done: Promise<void>): void {
    for (const userId of userIds) {
      let mine = this.byUser.get(userId);
      if (!mine) this.byUser.set(userId, (mine = new Set()));
      mine.add(done);
    }
    void done.then(() => {
      for (const userId of userIds) {
        const mine = this.byUser.get(userId);
        mine?.delete(done);
        if (mine?.size === 0) this.byUser.delete(userId);
      }
    });
  }

  /**
   * Another instance sent these users notifications it is still writing; it announces the end of the
   * write with `settleRemote(batch)`. Should that never come (the instance died), reads go on after
   * `timeoutMs` rather than hang.
   */
  trackRemote(batch: string, userIds: readonly number[], timeoutMs: number): void {
    if (this.remote.has(batch)) return;
    const done = new Promise<void>((resolve) => {
      const timer = setTimeout(() => this.settleRemote(batch), timeoutMs);
      timer.unref();
      this.remote.set(batch, { settle: resolve, timer });
    });
    this.track(userIds, done);
  }

  settleRemote(batch: string): void {
    const entry = this.remote.get(batch);
    if (!entry) return;
    this.remote.delete(batch);
    clearTimeout(entry.timer);
    entry.settle();
  }

  /** Resolves once every write of this user's notifications that was pending when asked has ended. */
  async settled(userId: number): Promise<void> {
    const mine = this.byUser.get(userId);
    if (mine) await Promise.all([...mine]);
  }

  /** Lets every waiting read go on (shutdown). */
  close(): void {
    for (const batch of [...this.remote.keys()]) this.settleRemote(batch);
  }
}
