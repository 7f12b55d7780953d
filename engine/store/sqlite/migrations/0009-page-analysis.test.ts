import BetterSqlite3 from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { migrate, MIGRATIONS } from './index';

describe('migration 0009 page-analysis', () => {
  it('adds the analysis columns to pages and links, null for rows stored before', () => {
    const db = new BetterSqlite3(':memory:');
    migrate(db, MIGRATIONS.filter((m) => m.version < 9));
    db.exec(`INSERT INTO crawls (id, seeds_json, settings_json, status, created_at_ms) VALUES (1, '[]', '{}', 'running', 0)`);
    db.exec(`INSERT INTO urls (id, crawl_id, normalized_key, normalized, url, host, state, depth, priority, enqueued_at_ms) VALUES (1, 1, 'k', 'http://a/', 'http://a/', 'a', 'done', 0, 0, 0)`);
    db.exec(`INSERT INTO pages (url_id, crawl_id, final_url, http_status, body_bytes, fetch_ms, fetched_at_ms) VALUES (1, 1, 'http://a/', 200, 1, 1, 0)`);
    db.exec(`INSERT INTO links (crawl_id, from_url_id, raw_url, to_url_id, kind) VALUES (1, 1, '/x', 1, 'a')`);
    expect(migrate(db, MIGRATIONS.filter((m) => m.version <= 9))).toEqual([9]);
    expect(db.prepare(`SELECT meta_description, h1, canonical_url, robots_directives, indexability, word_count, lang, response_headers_json FROM pages`).get()).toEqual({
      meta_description: null,
      h1: null,
      canonical_url: null,
      robots_directives: null,
      indexability: null,
      word_count: null,
      lang: null,
      response_headers_json: null,
    });
    expect(db.prepare(`SELECT anchor_text, element, rel FROM links`).get()).toEqual({ anchor_text: null, element: null, rel: null });
    db.close();
  });
});
