import type { Database } from 'better-sqlite3';

/**
 * 0003: named checkpoints of a crawl (seed 003, IIR 20.2: the crawler periodically checkpoints
 * its state). Each row describes one consistent snapshot file made with SQLite's online backup.
 */
export const migration0003 = {
  version: 3,
  name: 'checkpoints',
  up(db: Database): void {
    db.exec(`
      CREATE TABLE checkpoints (
        id INTEGER PRIMARY KEY,
        crawl_id INTEGER NOT NULL REFERENCES crawls(id) ON DELETE CASCADE,
        name TEXT NOT NULL,
        created_at_ms INTEGER NOT NULL,
        pages_done INTEGER NOT NULL,
        frontier_size INTEGER NOT NULL,
        settings_hash TEXT NOT NULL,
        file TEXT NOT NULL,
        UNIQUE (crawl_id, name)
      );
    `);
  },
};
