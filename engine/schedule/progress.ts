/** Progress and rate: the crawl's counters, pages per second over a sliding window, housekeeping reports. */
import type { CrawlProgress, CrawlStatus } from '../../shared/types/crawl';
import type { FrontierCounts, HostState } from '../store/ports';

/** The housekeeping thread's report (IIR 20.2: wakes every few seconds to log progress). */
export interface HousekeepingStats extends CrawlProgress {
  /** URLs pending or in flight. */
  frontierSize: number;
  /** Hosts with a request in flight now. */
  activeHosts: number;
  /** Hosts this run has met. */
  knownHosts: number;
}

/** The window pages per second is measured over, ms. */
const RATE_WINDOW_MS = 5_000;

/**
 * Counters of one run that the frontier does not hold: links refused per rule, duplicates found,
 * fetches ended in the last RATE_WINDOW_MS (for the rate), and the last progress reported (so an
 * unchanged report is not sent again).
 */
export class ProgressMeter {
  /** Links refused per rule in this run (persisted per link in `links.refused_by`). */
  private readonly refusals: Record<string, number> = {};
  /** Epoch ms of fetches that ended within the rate window, oldest first. */
  private readonly completions: number[] = [];
  private lastProgressJson = '';
  /** Epoch ms the run started. */
  startedAtMs = 0;

  /** Pages found to duplicate earlier content (stored groups hold the detail), earlier runs' included. */
  private duplicates = 0;

  constructor(
    private readonly crawlId: number,
    private readonly now: () => number,
  ) {}

  countRefusal(rule: string, count = 1): void {
    this.refusals[rule] = (this.refusals[rule] ?? 0) + count;
  }

  /** `count` more pages found to duplicate earlier content (a commit's, or earlier runs' on resume). */
  countDuplicate(count = 1): void {
    this.duplicates += count;
  }

  /** A fetch ended at `nowMs` (epoch ms). */
  countCompletion(nowMs: number): void {
    this.completions.push(nowMs);
  }

  /** Current counters, from the frontier's `counts` and the run's `status`. */
  progress(counts: FrontierCounts, status: CrawlStatus): CrawlProgress {
    const now = this.now();
    while (this.completions.length > 0 && this.completions[0]! < now - RATE_WINDOW_MS) this.completions.shift();
    const windowMs = Math.min(RATE_WINDOW_MS, Math.max(1, now - this.startedAtMs));
    return {
      crawlId: this.crawlId,
      status,
      fetched: counts.done,
      queued: counts.pending,
      inFlight: counts.inFlight,
      errors: counts.error,
      blocked: counts.blocked,
      held: counts.held,
      pagesPerSecond: Math.round((this.completions.length * 1000 * 10) / windowMs) / 10,
      elapsedMs: now - this.startedAtMs,
      refusedByRule: { ...this.refusals },
      duplicates: this.duplicates,
    };
  }

  /** True when `progress` differs from the last one reported (elapsed time aside), or `force`; it becomes the last one. */
  shouldReport(progress: CrawlProgress, force: boolean): boolean {
    const json = JSON.stringify({ ...progress, elapsedMs: 0 });
    if (!force && json === this.lastProgressJson) return false;
    this.lastProgressJson = json;
    return true;
  }
}

/** The housekeeping report: progress plus frontier size and host activity. */
export function housekeepingStats(progress: CrawlProgress, hosts: readonly HostState[]): HousekeepingStats {
  return {
    ...progress,
    frontierSize: progress.queued + progress.inFlight,
    activeHosts: hosts.filter((host) => host.inFlight > 0).length,
    knownHosts: hosts.length,
  };
}
