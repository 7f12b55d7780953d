import type { Database } from 'better-sqlite3';

/**
 * 0008: the crawl lease, one row at most (id = 1): which process crawls this database now. A
 * process takes it in a `BEGIN IMMEDIATE` transaction before it starts or resumes a crawl, renews
 * `heartbeat_ms` every few seconds and deletes the row when its last crawl ends; another process
 * may take it over only when the owner is dead (see db/crawl-lease.ts).
 *
 * Columns: `owner_id` a random id per process; `pid`, `hostname` and `proc_start` (Linux:
 * `<boot id>:<start time in clock ticks>` from /proc, else null) identify the process even after
 * its pid is reused; `crawl_id` the crawl it runs (null while it creates one); times in epoch ms.
 */
export const migration0008 = {
  version: 8,
  name: 'crawl-lease',
  up(db: Database): void {
    db.exec(`
      CREATE TABLE crawl_lease (
        id INTEGER PRIMARY KEY CHECK (id = 1),
        owner_id TEXT NOT NULL,
        pid INTEGER NOT NULL,
        hostname TEXT NOT NULL,
        proc_start TEXT,
        crawl_id INTEGER,
        acquired_at_ms INTEGER NOT NULL,
        heartbeat_ms INTEGER NOT NULL
      );
    `);
  },
};
