import BetterSqlite3 from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { migrate, MIGRATIONS } from './index';

describe('migration 0014 site-tree-index', () => {
  it('adds urls_by_host_url, and a URL-range query under one host uses it', () => {
    const db = new BetterSqlite3(':memory:');
    migrate(db, MIGRATIONS.filter((m) => m.version < 14));
    db.exec(`INSERT INTO crawls (id, seeds_json, settings_json, status, created_at_ms) VALUES (1, '[]', '{}', 'running', 0)`);
    db.exec(`INSERT INTO urls (crawl_id, normalized_key, normalized, url, host, state, depth, priority, enqueued_at_ms) VALUES (1, 'k', 'http://a/', 'http://a/', 'a', 'done', 0, 0, 0)`);
    expect(migrate(db, MIGRATIONS.filter((m) => m.version <= 14))).toEqual([14]);
    const columns = (db.pragma(`index_info(urls_by_host_url)`) as { name: string }[]).map((c) => c.name);
    expect(columns).toEqual(['crawl_id', 'host', 'url']);
    const plan = db
      .prepare(`EXPLAIN QUERY PLAN SELECT id FROM urls WHERE crawl_id = ? AND host = ? AND url >= ? AND url < ?`)
      .all(1, 'a', 'http://a/docs/', 'http://a/docs0') as { detail: string }[];
    expect(plan.map((row) => row.detail).join('\n')).toMatch(/urls_by_host_url \(crawl_id=\? AND host=\? AND url>\? AND url<\?\)/);
    db.close();
  });
});
