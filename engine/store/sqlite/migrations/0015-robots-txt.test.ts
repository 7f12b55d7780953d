import BetterSqlite3 from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import type { WritableDB } from '../database';
import { SqliteRobotsStore } from '../robots-store';
import { migrate, MIGRATIONS } from './index';

describe('migration 0015 robots-txt', () => {
  it('adds robots_txt, one row per crawl and origin, dropped with its crawl', () => {
    const db = new BetterSqlite3(':memory:');
    db.pragma('foreign_keys = ON');
    migrate(db, MIGRATIONS.filter((m) => m.version < 15));
    db.exec(`INSERT INTO crawls (id, seeds_json, settings_json, status, created_at_ms) VALUES (1, '[]', '{}', 'running', 0), (2, '[]', '{}', 'running', 0)`);
    expect(migrate(db, MIGRATIONS.filter((m) => m.version <= 15))).toEqual([15]);
    const insert = db.prepare(`INSERT INTO robots_txt (crawl_id, origin, status, error_code, body, fetched_at_ms, expires_at_ms) VALUES (?, ?, ?, ?, '', 0, 1)`);
    insert.run(1, 'http://a.test', 200, null);
    insert.run(2, 'http://a.test', 404, null);
    expect(() => insert.run(1, 'http://a.test', 200, null)).toThrow(/UNIQUE/);
    // Neither a status nor an error: nothing that could decide rules.
    expect(() => insert.run(1, 'http://b.test', null, null)).toThrow(/CHECK/);
    db.exec(`DELETE FROM crawls WHERE id = 1`);
    expect(db.prepare(`SELECT crawl_id FROM robots_txt`).pluck().all()).toEqual([2]);
    db.close();
  });

  it('SqliteRobotsStore reads past one statement\'s origins, through the (crawl_id, origin) index (its behaviour: store/contract/robots-store.contract.ts)', async () => {
    const db = new BetterSqlite3(':memory:') as unknown as WritableDB;
    migrate(db);
    db.exec(`INSERT INTO crawls (id, seeds_json, settings_json, status, created_at_ms) VALUES (1, '[]', '{}', 'running', 0)`);
    const store = new SqliteRobotsStore(db, 1);
    const many = Array.from({ length: 1_200 }, (_, i) => `http://h${i}.test`);
    for (const origin of [many[0]!, many[700]!, many[1_199]!]) await store.save({ origin, status: 404, errorCode: null, body: '', fetchedAtMs: 0, expiresAtMs: 100 });
    expect((await store.load(many, 0)).map((entry) => entry.origin).sort()).toEqual(['http://h0.test', 'http://h1199.test', 'http://h700.test']);
    const plan = db.prepare(`EXPLAIN QUERY PLAN SELECT body FROM robots_txt WHERE crawl_id = ? AND expires_at_ms > ? AND origin IN (?)`).all(1, 0, 'x') as { detail: string }[];
    expect(plan.map((row) => row.detail).join('\n')).toMatch(/USING INDEX sqlite_autoindex_robots_txt_1 \(crawl_id=\? AND origin=\?\)/);
    db.close();
  });
});
