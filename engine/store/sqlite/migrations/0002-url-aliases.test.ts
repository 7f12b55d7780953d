import BetterSqlite3 from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { migrate, MIGRATIONS } from './index';

describe('migration 0002 url-aliases', () => {
  it('upgrades a version-1 database and keeps its rows', () => {
    const db = new BetterSqlite3(':memory:');
    migrate(db, MIGRATIONS.slice(0, 1));
    db.prepare(`INSERT INTO crawls (seeds_json, settings_json, status, created_at_ms) VALUES ('[]', '{}', 'running', 1)`).run();
    db.prepare(`INSERT INTO urls (crawl_id, normalized_key, normalized, url, host, depth, priority, enqueued_at_ms) VALUES (1, 'k', 'n', 'http://a/', 'a', 0, 0, 1)`).run();
    expect(migrate(db, MIGRATIONS.slice(0, 2))).toEqual([2]);
    expect(db.pragma('user_version', { simple: true })).toBe(2);
    expect(db.prepare(`SELECT url FROM urls`).pluck().all()).toEqual(['http://a/']);
    db.close();
  });

  it('keeps one row per (url, raw spelling)', () => {
    const db = new BetterSqlite3(':memory:');
    migrate(db, MIGRATIONS.slice(0, 2));
    db.prepare(`INSERT INTO crawls (seeds_json, settings_json, status, created_at_ms) VALUES ('[]', '{}', 'running', 1)`).run();
    db.prepare(`INSERT INTO urls (crawl_id, normalized_key, normalized, url, host, depth, priority, enqueued_at_ms) VALUES (1, 'k', 'n', 'http://a/', 'a', 0, 0, 1)`).run();
    const insert = db.prepare(`INSERT OR IGNORE INTO url_aliases (url_id, raw_url) VALUES (1, ?)`);
    for (const raw of ['http://a/#x', 'http://a/#x', 'HTTP://A/']) insert.run(raw);
    expect(db.prepare(`SELECT raw_url FROM url_aliases ORDER BY raw_url`).pluck().all()).toEqual(['HTTP://A/', 'http://a/#x']);
    db.close();
  });
});
