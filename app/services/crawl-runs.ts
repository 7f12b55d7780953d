import type { WritableDB } from '../../engine';

/** Bounds of the pages/s history of a crawl: at most this many samples. */
export const RATE_HISTORY_SAMPLES = 240;
/** Narrowest bucket of the stored pages/s history, ms (a crawl shorter than 4 minutes gets 1 s buckets). */
const MIN_BUCKET_MS = 1000;

/**
 * A crawl's runs (table crawl_runs, migration 0012) and what is derived from its stored data
 * rather than from one run's memory: elapsed time over every run and the pages/s history.
 */
export class CrawlRuns {
  constructor(private readonly db: WritableDB) {}

  /** Records the start of a run. @returns the run's id */
  begin(crawlId: number, startedAtMs: number): number {
    return Number(this.db.prepare(`INSERT INTO crawl_runs (crawl_id, started_at_ms) VALUES (?, ?)`).run(crawlId, startedAtMs).lastInsertRowid);
  }

  /** Records a whole run after the fact (a crawl from before migration 0012: its time so far as one run). */
  record(crawlId: number, startedAtMs: number, endedAtMs: number): void {
    this.db.prepare(`INSERT INTO crawl_runs (crawl_id, started_at_ms, ended_at_ms) VALUES (?, ?, ?)`).run(crawlId, startedAtMs, Math.max(startedAtMs, endedAtMs));
  }

  /** Records the end of run `runId` (epoch ms; never before its start). */
  end(runId: number, endedAtMs: number): void {
    this.db.prepare(`UPDATE crawl_runs SET ended_at_ms = MAX(started_at_ms, ?) WHERE id = ?`).run(endedAtMs, runId);
  }

  /**
   * Milliseconds the crawl has run, summed over its ended runs; a run whose process died (no end)
   * counts until its last fetch before the next run began. Null when the crawl has no runs
   * recorded (made before migration 0012): the caller falls back to its creation and finish times.
   */
  elapsedMs(crawlId: number): number | null {
    const row = this.db
      .prepare(
        `SELECT COUNT(*) AS runs, COALESCE(SUM(COALESCE(r.ended_at_ms, (
           SELECT MAX(u.fetched_at_ms) FROM urls u
           WHERE u.crawl_id = r.crawl_id AND u.fetched_at_ms >= r.started_at_ms
             AND u.fetched_at_ms < COALESCE((SELECT MIN(n.started_at_ms) FROM crawl_runs n WHERE n.crawl_id = r.crawl_id AND n.started_at_ms > r.started_at_ms), 9e18)
         ), r.started_at_ms) - r.started_at_ms), 0) AS ms
         FROM crawl_runs r WHERE r.crawl_id = ?`,
      )
      .get(crawlId) as { runs: number; ms: number };
    return row.runs === 0 ? null : Math.max(0, row.ms);
  }

  /**
   * Pages per second over the whole crawl, from the stored fetch times: the span from its first to
   * its last fetch cut into at most `samples` equal buckets (at least 1 s each), oldest first;
   * each value is fetches in the bucket per second, one decimal. Empty before the first fetch.
   * @example 30 fetches spread evenly over 10 s → 10 samples of 3
   */
  rateHistory(crawlId: number, samples = RATE_HISTORY_SAMPLES): number[] {
    const span = this.db.prepare(`SELECT MIN(fetched_at_ms) AS first, MAX(fetched_at_ms) AS last FROM urls WHERE crawl_id = ? AND fetched_at_ms IS NOT NULL`).get(crawlId) as {
      first: number | null;
      last: number | null;
    };
    if (span.first === null || span.last === null) return [];
    const bucketMs = Math.max(MIN_BUCKET_MS, Math.ceil((span.last - span.first + 1) / samples));
    const buckets = Math.min(samples, Math.floor((span.last - span.first) / bucketMs) + 1);
    const counts = new Array<number>(buckets).fill(0);
    const rows = this.db
      .prepare(`SELECT (fetched_at_ms - ?) / ? AS bucket, COUNT(*) AS n FROM urls WHERE crawl_id = ? AND fetched_at_ms IS NOT NULL GROUP BY bucket`)
      .all(span.first, bucketMs, crawlId) as { bucket: number; n: number }[];
    for (const row of rows) counts[Math.min(buckets - 1, Math.floor(row.bucket))]! += row.n;
    return counts.map((n) => Math.round((n * 10_000) / bucketMs) / 10);
  }

  /** The crawl's seeds that failed or robots.txt blocked (depth 0), with the error code and message stored for each. */
  seedFailures(crawlId: number): { url: string; errorCode: string | null; errorReason: string | null }[] {
    return this.db
      .prepare(`SELECT url, error_code AS errorCode, error_reason AS errorReason FROM urls WHERE crawl_id = ? AND depth = 0 AND state IN ('error', 'blocked') ORDER BY id LIMIT 20`)
      .all(crawlId) as { url: string; errorCode: string | null; errorReason: string | null }[];
  }
}
