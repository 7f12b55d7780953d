import BetterSqlite3 from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { migrate, MIGRATIONS } from './index';

describe('migration 0011 pages-table', () => {
  it('adds the sort indexes and empty link counts, keeping the rows stored before', () => {
    const db = new BetterSqlite3(':memory:');
    migrate(db, MIGRATIONS.filter((m) => m.version < 11));
    db.exec(`INSERT INTO crawls (id, seeds_json, settings_json, status, created_at_ms) VALUES (1, '[]', '{}', 'running', 0)`);
    db.exec(`INSERT INTO urls (id, crawl_id, normalized_key, normalized, url, host, state, depth, priority, enqueued_at_ms) VALUES (1, 1, 'k', 'http://a/', 'http://a/', 'a', 'done', 0, 0, 0)`);
    db.exec(`INSERT INTO links (crawl_id, from_url_id, raw_url, to_url_id, kind) VALUES (1, 1, '/x', 1, 'a')`);
    const indexNames = () => new Set(db.prepare(`SELECT name FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL`).pluck().all() as string[]);
    const before = indexNames();
    expect(migrate(db, MIGRATIONS.filter((m) => m.version <= 11))).toEqual([11]);
    const added = [...indexNames()].filter((name) => !before.has(name));
    // One per sortable column of urls (and its id order), of pages, and the two link counts.
    expect(added.filter((name) => name.startsWith('urls_pages_by_'))).toHaveLength(5);
    expect(added.filter((name) => name.startsWith('pages_by_'))).toHaveLength(8);
    expect(added.filter((name) => name.startsWith('link_counts_by_'))).toHaveLength(2);
    expect(db.prepare(`SELECT COUNT(*) FROM link_counts`).pluck().get()).toBe(0);
    expect(db.prepare(`SELECT COUNT(*) FROM links`).pluck().get()).toBe(1);
    // The partial indexes hold Pages rows only.
    db.exec(`INSERT INTO urls (id, crawl_id, normalized_key, normalized, url, host, state, depth, priority, enqueued_at_ms) VALUES (2, 1, 'k2', 'http://a/2', 'http://a/2', 'a', 'pending', 1, 0, 0)`);
    expect(db.prepare(`SELECT COUNT(*) FROM urls INDEXED BY urls_pages_by_url WHERE crawl_id = 1 AND state IN ('done', 'error', 'blocked')`).pluck().get()).toBe(1);
    db.close();
  });
});
