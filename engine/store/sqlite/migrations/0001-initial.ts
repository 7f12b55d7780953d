import type { Database } from 'better-sqlite3';

/**
 * 0001: crawls, the URL frontier (every URL a row with its state, seed 004's page states),
 * fetched pages, discovered links and settings.
 *
 * The UNIQUE (crawl_id, normalized_key) constraint is the exact URL-seen test (IIR 20.2,
 * seed 003): no Bloom filter, so no false positives.
 */
export const migration0001 = {
  version: 1,
  name: 'initial',
  up(db: Database): void {
    db.exec(`
      CREATE TABLE crawls (
        id INTEGER PRIMARY KEY,
        seeds_json TEXT NOT NULL,
        settings_json TEXT NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('running', 'paused', 'stopped', 'finished', 'interrupted')),
        created_at_ms INTEGER NOT NULL,
        finished_at_ms INTEGER
      );

      CREATE TABLE urls (
        id INTEGER PRIMARY KEY,
        crawl_id INTEGER NOT NULL REFERENCES crawls(id) ON DELETE CASCADE,
        normalized_key TEXT NOT NULL,
        normalized TEXT NOT NULL,
        url TEXT NOT NULL,
        host TEXT NOT NULL,
        registrable_domain TEXT,
        state TEXT NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'in_flight', 'done', 'error')),
        depth INTEGER NOT NULL,
        priority INTEGER NOT NULL,
        discovered_from INTEGER REFERENCES urls(id) ON DELETE SET NULL,
        enqueued_at_ms INTEGER NOT NULL,
        fetched_at_ms INTEGER,
        http_status INTEGER,
        error_code TEXT,
        error_reason TEXT,
        attempts INTEGER NOT NULL DEFAULT 0,
        UNIQUE (crawl_id, normalized_key)
      );
      CREATE INDEX urls_by_host_state ON urls (crawl_id, host, state, priority, id);
      CREATE INDEX urls_by_state ON urls (crawl_id, state, id);

      CREATE TABLE pages (
        url_id INTEGER PRIMARY KEY REFERENCES urls(id) ON DELETE CASCADE,
        crawl_id INTEGER NOT NULL REFERENCES crawls(id) ON DELETE CASCADE,
        final_url TEXT NOT NULL,
        http_status INTEGER NOT NULL,
        content_type TEXT,
        body_bytes INTEGER NOT NULL,
        truncated INTEGER NOT NULL DEFAULT 0,
        fetch_ms INTEGER NOT NULL,
        title TEXT,
        redirect_chain_json TEXT,
        fetched_at_ms INTEGER NOT NULL
      );
      CREATE INDEX pages_by_crawl ON pages (crawl_id, url_id);

      CREATE TABLE links (
        id INTEGER PRIMARY KEY,
        crawl_id INTEGER NOT NULL REFERENCES crawls(id) ON DELETE CASCADE,
        from_url_id INTEGER NOT NULL REFERENCES urls(id) ON DELETE CASCADE,
        raw_url TEXT NOT NULL,
        to_url_id INTEGER REFERENCES urls(id) ON DELETE CASCADE,
        kind TEXT NOT NULL,
        refused_by TEXT
      );
      CREATE INDEX links_by_from ON links (crawl_id, from_url_id);
      CREATE INDEX links_by_to ON links (crawl_id, to_url_id);

      CREATE TABLE settings (
        key TEXT PRIMARY KEY,
        value_json TEXT NOT NULL,
        updated_at_ms INTEGER NOT NULL
      );
    `);
  },
};
