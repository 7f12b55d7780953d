import BetterSqlite3 from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { migrate, MIGRATIONS } from './index';

describe('migration 0013 url-timeline', () => {
  it('adds claimed_at_ms, committed_at_ms and retry_reason to urls, null for rows stored before', () => {
    const db = new BetterSqlite3(':memory:');
    migrate(db, MIGRATIONS.filter((m) => m.version < 13));
    db.exec(`INSERT INTO crawls (id, seeds_json, settings_json, status, created_at_ms) VALUES (1, '[]', '{}', 'running', 0)`);
    db.exec(`INSERT INTO urls (id, crawl_id, normalized_key, normalized, url, host, state, depth, priority, enqueued_at_ms) VALUES (1, 1, 'k', 'http://a/', 'http://a/', 'a', 'done', 0, 0, 0)`);
    expect(migrate(db, MIGRATIONS.filter((m) => m.version <= 13))).toEqual([13]);
    expect(db.prepare(`SELECT claimed_at_ms, committed_at_ms, retry_reason FROM urls`).get()).toEqual({ claimed_at_ms: null, committed_at_ms: null, retry_reason: null });
    db.close();
  });
});
