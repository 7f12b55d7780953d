import BetterSqlite3 from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { migrate, MIGRATIONS } from './index';

describe('migration 0004 content-duplicates', () => {
  it('adds fingerprint columns to existing pages and allows one exact group per fingerprint', () => {
    const db = new BetterSqlite3(':memory:');
    migrate(db, MIGRATIONS.slice(0, 3));
    db.prepare(`INSERT INTO crawls (seeds_json, settings_json, status, created_at_ms) VALUES ('[]', '{}', 'running', 1)`).run();
    db.prepare(`INSERT INTO urls (crawl_id, normalized_key, normalized, url, host, depth, priority, enqueued_at_ms) VALUES (1, 'k', 'n', 'http://a/', 'a', 0, 0, 1)`).run();
    db.prepare(`INSERT INTO pages (url_id, crawl_id, final_url, http_status, body_bytes, fetch_ms, fetched_at_ms) VALUES (1, 1, 'http://a/', 200, 1, 1, 1)`).run();
    expect(migrate(db, MIGRATIONS.slice(0, 4))).toEqual([4]);
    expect(db.prepare(`SELECT fingerprint, noindex FROM pages`).get()).toEqual({ fingerprint: null, noindex: 0 });
    const group = db.prepare(`INSERT INTO content_groups (crawl_id, kind, fingerprint, first_url_id, created_at_ms) VALUES (1, ?, ?, 1, 1)`);
    group.run('exact', 'f');
    expect(() => group.run('exact', 'f')).toThrow(/UNIQUE/);
    group.run('near', null);
    group.run('near', null);
    db.close();
  });
});
