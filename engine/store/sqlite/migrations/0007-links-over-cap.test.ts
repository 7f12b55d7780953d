import BetterSqlite3 from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { migrate, MIGRATIONS } from './index';

describe('migration 0007 links-over-cap', () => {
  it('adds pages.links_over_cap, 0 for pages stored before', () => {
    const db = new BetterSqlite3(':memory:');
    migrate(db, MIGRATIONS.filter((m) => m.version < 7));
    db.exec(`INSERT INTO crawls (id, seeds_json, settings_json, status, created_at_ms) VALUES (1, '[]', '{}', 'running', 0)`);
    db.exec(`INSERT INTO urls (id, crawl_id, normalized_key, normalized, url, host, state, depth, priority, enqueued_at_ms) VALUES (1, 1, 'k', 'http://a/', 'http://a/', 'a', 'done', 0, 0, 0)`);
    db.exec(`INSERT INTO pages (url_id, crawl_id, final_url, http_status, body_bytes, fetch_ms, fetched_at_ms) VALUES (1, 1, 'http://a/', 200, 1, 1, 0)`);
    expect(migrate(db, MIGRATIONS.filter((m) => m.version <= 7))).toEqual([7]);
    expect(db.prepare(`SELECT links_over_cap FROM pages WHERE url_id = 1`).pluck().get()).toBe(0);
    db.close();
  });
});
