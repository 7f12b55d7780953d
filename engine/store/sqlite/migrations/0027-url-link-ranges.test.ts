import BetterSqlite3 from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import type { ReadableDB } from '../database';
import { LINK_KIND_CODES } from '../link-codes';
import { InspectorQueries } from '../queries/inspector-queries';
import { watchPrepare } from '../queries/test-rows';
import { migrate, MIGRATIONS } from './index';

describe('migration 0027 url-link-ranges', () => {
  it('gives each source URL the range of its link ids, drops links_by_from, and the inspector reads outlinks by range without a scan', () => {
    const db = new BetterSqlite3(':memory:');
    db.pragma('foreign_keys = ON');
    migrate(db, MIGRATIONS.filter((m) => m.version < 27));
    db.exec(`INSERT INTO crawls (id, seeds_json, settings_json, status, created_at_ms) VALUES (1, '[]', '{}', 'running', 0)`);
    const url = db.prepare(`INSERT INTO urls (id, crawl_id, normalized_key, normalized, url, host, state, depth, priority, enqueued_at_ms) VALUES (?, 1, ?, ?, ?, 'a.test', 'done', 0, 0, 0)`);
    for (const id of [1, 2, 3, 4]) url.run(id, `k${id}`, `http://a.test/${id}`, `http://a.test/${id}`);
    const link = db.prepare(`INSERT INTO links (crawl_id, from_url_id, to_url_id, kind) VALUES (1, ?, ?, ${LINK_KIND_CODES.a})`);
    // URL 1's links interleaved with URL 2's (rows an older writer or a copy left so): the range spans both, reads still tell them apart.
    for (const [from, to] of [[1, 2], [2, 3], [1, 3], [1, 4], [3, 1]]) link.run(from, to);
    expect(migrate(db)).toContain(27);
    const ranges = db.prepare(`SELECT id, first_link_id AS first, last_link_id AS last FROM urls ORDER BY id`).all();
    expect(ranges).toEqual([
      { id: 1, first: 1, last: 4 },
      { id: 2, first: 2, last: 2 },
      { id: 3, first: 5, last: 5 },
      { id: 4, first: null, last: null },
    ]);
    expect(db.prepare(`SELECT COUNT(*) FROM sqlite_master WHERE type = 'index' AND name = 'links_by_from'`).pluck().get()).toBe(0);

    const captured: string[] = [];
    const prepare = watchPrepare(db, (sql) => captured.push(sql));
    const outlinks = new InspectorQueries(db as ReadableDB).outlinks(1, 1, { offset: 0, limit: 10 });
    expect(outlinks.rows.map((row) => row.toUrlId)).toEqual([2, 3, 4]);
    expect(outlinks.total).toBe(3);
    const byRange = captured.filter((text) => /JOIN links l ON l\.id BETWEEN/.test(text));
    // The count and the page of rows.
    expect(byRange).toHaveLength(2);
    for (const sql of byRange) {
      const statement = prepare(`EXPLAIN QUERY PLAN ${sql}`);
      const plan = (statement.all(...[1, 1, 10, 0].slice(0, (sql.match(/\?/g) ?? []).length)) as { detail: string }[]).map((step) => step.detail).join(' | ');
      expect(plan).toMatch(/SEARCH l USING INTEGER PRIMARY KEY \(rowid>\? AND rowid<\?\)/);
      expect(plan).not.toMatch(/SCAN l\b/);
    }
    db.close();
  });
});
