/**
 * The per-crawl cap on stored bodies (CrawlSettings.maxStoredBodiesBytes): compressed bytes kept
 * so far, and whether the next body still fits. One per store writer; seeded from the bytes the
 * crawl's store holds when a run opens, so the cap spans runs. Where several processes write one
 * crawl (PostgreSQL), each counts from what was stored when it opened plus its own bodies: the
 * cap can be passed by at most one batch per process.
 */
export class BodyBudget {
  private stored: number;
  private refusedCount = 0;

  /**
   * @param limitBytes the cap, compressed bytes (0 keeps none)
   * @param storedBytes compressed bytes the crawl already keeps
   */
  constructor(
    private readonly limitBytes: number,
    storedBytes: number,
  ) {
    this.stored = storedBytes;
  }

  /** True, and counted, when a body of `bytes` compressed bytes still fits; false (counted as refused) when it does not. */
  admit(bytes: number): boolean {
    if (this.stored + bytes > this.limitBytes) {
      this.refusedCount += 1;
      return false;
    }
    this.stored += bytes;
    return true;
  }

  /** Compressed bytes kept, this run's included. */
  get storedBytes(): number {
    return this.stored;
  }

  /** Bodies this writer did not keep because the cap was reached. */
  get refused(): number {
    return this.refusedCount;
  }
}
