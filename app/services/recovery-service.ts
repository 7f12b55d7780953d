import type { RecoveryOffer } from '../../shared/ipc/views';
import type { CrawlRepository } from '../../engine';

/**
 * The "Resume crawl?" offer after an unclean exit: the crawls this process found still marked
 * `running` at startup (their process died; createAppServices marked them `interrupted`). A crawl
 * is offered until it runs again or the user discards the offer; Discard keeps its data and its
 * `interrupted` status (it can still be resumed from the Crawls view).
 */
export class RecoveryService {
  private readonly dismissed = new Set<number>();

  constructor(private readonly interruptedAtStartup: readonly number[]) {}

  /** The first crawl still to offer, with its pages done and queued, or null. */
  offer(repository: CrawlRepository, isRunning: (crawlId: number) => boolean): RecoveryOffer | null {
    for (const crawlId of this.interruptedAtStartup) {
      if (this.dismissed.has(crawlId) || isRunning(crawlId)) continue;
      let summary;
      try {
        summary = repository.getCrawl(crawlId);
      } catch {
        continue;
      }
      if (summary.status !== 'interrupted') continue;
      return { crawlId, seeds: summary.seeds, pagesDone: summary.fetched, queued: summary.queued, errors: summary.errors, createdAtMs: summary.createdAtMs };
    }
    return null;
  }

  /** Stops offering a crawl (Discard, or it was resumed). @returns false when it was not on offer */
  dismiss(crawlId: number): boolean {
    if (!this.interruptedAtStartup.includes(crawlId) || this.dismissed.has(crawlId)) return false;
    this.dismissed.add(crawlId);
    return true;
  }
}
