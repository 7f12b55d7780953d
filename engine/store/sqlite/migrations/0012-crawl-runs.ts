import type { Database } from 'better-sqlite3';

/**
 * 0012: one row per run of a crawl (a start or a resume until it finishes, pauses, stops or fails),
 * so a crawl's elapsed time is the sum of its runs, not the time since the last resume (issue 11).
 * `ended_at_ms` is null while the run goes on, and stays null when its process died: readers then
 * take the run's last fetch as its end. Epoch milliseconds. Crawls made before have no rows.
 */
export const migration0012 = {
  version: 12,
  name: 'crawl-runs',
  up(db: Database): void {
    db.exec(`
      CREATE TABLE crawl_runs (
        id INTEGER PRIMARY KEY,
        crawl_id INTEGER NOT NULL REFERENCES crawls(id) ON DELETE CASCADE,
        started_at_ms INTEGER NOT NULL,
        ended_at_ms INTEGER,
        CHECK (ended_at_ms IS NULL OR ended_at_ms >= started_at_ms)
      );
      CREATE INDEX crawl_runs_by_crawl ON crawl_runs (crawl_id, started_at_ms);
    `);
  },
};
