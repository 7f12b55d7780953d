import type { Database } from 'better-sqlite3';

/**
 * 0015: each origin's robots.txt per crawl, so a resumed crawl reuses it within its cache lifetime
 * instead of asking every host again (issue 15: 500 robots.txt requests per restart at 500 hosts).
 * One row per (crawl, origin), replaced on each fetch: the HTTP status (null with `error_code` when
 * a redirect failure made it "unavailable"), the body text (capped at ROBOTS_PARSE_LIMIT_BYTES,
 * RFC 9309 §2.5), and when it was fetched and expires (epoch ms; RFC 9309 §2.4: the crawl's
 * robotsCacheTtlMs, 24 h by default). A rowid table, not WITHOUT ROWID: a body may be 500 KiB.
 */
export const migration0015 = {
  version: 15,
  name: 'robots-txt',
  up(db: Database): void {
    db.exec(`
      CREATE TABLE robots_txt (
        id INTEGER PRIMARY KEY,
        crawl_id INTEGER NOT NULL REFERENCES crawls(id) ON DELETE CASCADE,
        origin TEXT NOT NULL,
        status INTEGER,
        error_code TEXT,
        body TEXT NOT NULL,
        fetched_at_ms INTEGER NOT NULL,
        expires_at_ms INTEGER NOT NULL,
        UNIQUE (crawl_id, origin),
        CHECK (status IS NOT NULL OR error_code IS NOT NULL),
        CHECK (expires_at_ms >= fetched_at_ms)
      );
    `);
  },
};
