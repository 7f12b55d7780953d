import type { Database } from 'better-sqlite3';

/**
 * 0013: what the URL inspector's Timeline reads (issue 11 part 3) beyond discovery
 * (`enqueued_at_ms`, `discovered_from`, `depth`) and the fetch's end (`fetched_at_ms`):
 * `claimed_at_ms`, when the URL was last handed out for fetching (epoch ms; the wait in the
 * frontier is claimed − enqueued); `committed_at_ms`, when its last outcome was written (epoch
 * ms); `retry_reason`, the error of the last try that sent it back to pending ("TIMEOUT: …"),
 * kept after a later success so the inspector can say why it was fetched more than once.
 * Null for rows written before.
 */
export const migration0013 = {
  version: 13,
  name: 'url-timeline',
  up(db: Database): void {
    db.exec(`
      ALTER TABLE urls ADD COLUMN claimed_at_ms INTEGER;
      ALTER TABLE urls ADD COLUMN committed_at_ms INTEGER;
      ALTER TABLE urls ADD COLUMN retry_reason TEXT;
    `);
  },
};
