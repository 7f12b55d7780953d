import BetterSqlite3 from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { migrate, MIGRATIONS } from './index';

describe('migration 0006 redirect-hops', () => {
  it('upgrades a version-5 database: existing URLs get 0 redirect hops, existing pages no Location', () => {
    const db = new BetterSqlite3(':memory:');
    migrate(db, MIGRATIONS.slice(0, 5));
    db.exec(`INSERT INTO crawls (id, seeds_json, settings_json, status, created_at_ms) VALUES (1, '[]', '{}', 'finished', 0)`);
    db.exec(`INSERT INTO urls (id, crawl_id, normalized_key, normalized, url, host, depth, priority, enqueued_at_ms) VALUES (1, 1, 'k', 'n', 'http://a.test/', 'a.test', 0, 0, 0)`);
    db.exec(`INSERT INTO pages (url_id, crawl_id, final_url, http_status, body_bytes, fetch_ms, fetched_at_ms) VALUES (1, 1, 'http://a.test/', 200, 0, 1, 0)`);
    expect(migrate(db, MIGRATIONS.slice(0, 6))).toEqual([6]);
    expect(db.prepare(`SELECT redirect_hops FROM urls WHERE id = 1`).pluck().get()).toBe(0);
    expect(db.prepare(`SELECT location FROM pages WHERE url_id = 1`).pluck().get()).toBeNull();
    db.close();
  });
});
