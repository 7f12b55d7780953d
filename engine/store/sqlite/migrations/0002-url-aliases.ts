import type { Database } from 'better-sqlite3';

/**
 * 0002: every distinct raw URL the crawl met, under the URL (normalized key) it maps to: the
 * members of a duplicate-URL group (seed 001: many raw URLs, one normalized key). Links keep one
 * row per (page, target, kind); the spellings that differ only by fragment, case or tracking
 * parameters live here once each.
 */
export const migration0002 = {
  version: 2,
  name: 'url-aliases',
  up(db: Database): void {
    db.exec(`
      CREATE TABLE url_aliases (
        url_id INTEGER NOT NULL REFERENCES urls(id) ON DELETE CASCADE,
        raw_url TEXT NOT NULL,
        first_seen_from INTEGER REFERENCES urls(id) ON DELETE SET NULL,
        PRIMARY KEY (url_id, raw_url)
      ) WITHOUT ROWID;
    `);
  },
};
