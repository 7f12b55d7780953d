import BetterSqlite3 from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { migrate, MIGRATIONS } from './index';

describe('migration 0028 exact-fingerprints-in-memory', () => {
  it('drops the fingerprint index of an older file and keeps its pages', () => {
    const db = new BetterSqlite3(':memory:');
    db.pragma('foreign_keys = ON');
    migrate(db, MIGRATIONS.filter((m) => m.version < 28));
    const indexes = () => db.prepare(`SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'pages'`).pluck().all();
    expect(indexes()).toContain('pages_by_fingerprint');
    db.exec(`INSERT INTO crawls (id, seeds_json, settings_json, status, created_at_ms) VALUES (1, '[]', '{}', 'running', 0)`);
    db.exec(`INSERT INTO urls (id, crawl_id, normalized_key, normalized, url, host, state, depth, priority, enqueued_at_ms) VALUES (1, 1, 'k', 'http://a.test/', 'http://a.test/', 'a.test', 'done', 0, 0, 0)`);
    db.exec(`INSERT INTO pages (url_id, crawl_id, final_url, http_status, body_bytes, fetch_ms, fetched_at_ms, fingerprint) VALUES (1, 1, 'x', 200, 1, 1, 1, 'f')`);
    expect(migrate(db)).toContain(28);
    expect(indexes()).not.toContain('pages_by_fingerprint');
    expect(db.prepare(`SELECT fingerprint FROM pages WHERE url_id = 1`).pluck().get()).toBe('f');
    db.close();
  });
});
