import type { Database } from 'better-sqlite3';

/**
 * 0023: stored bodies (issue 14 part 1). Each fetched body, compressed (engine/bodies/stored-body.ts),
 * in a table of its own beside page_texts, never read by the frontier's queries: a row per page
 * keyed by the URL's id (its rowid, so a lookup is one B-tree probe), the body in a BLOB that
 * SQLite keeps in overflow pages, away from the frontier's hot pages. `raw_bytes` is the body's size
 * before compression, `truncated` 1 when it was cut (fetch or store cap), `payload_digest` the
 * `sha1:BASE32` digest a WARC response record names (WARC/1.1 §5.9).
 */
export const migration0023 = {
  version: 23,
  name: 'page-bodies',
  up(db: Database): void {
    db.exec(`
      CREATE TABLE page_bodies (
        url_id INTEGER PRIMARY KEY REFERENCES urls(id) ON DELETE CASCADE,
        encoding TEXT NOT NULL,
        raw_bytes INTEGER NOT NULL,
        truncated INTEGER NOT NULL,
        payload_digest TEXT NOT NULL,
        body BLOB NOT NULL
      );
    `);
  },
};
