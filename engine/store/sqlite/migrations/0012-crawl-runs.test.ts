import BetterSqlite3 from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { migrate, MIGRATIONS } from './index';

describe('migration 0012 crawl-runs', () => {
  it('adds crawl_runs, one row per run of a crawl, whose end may be unknown but never before its start', () => {
    const db = new BetterSqlite3(':memory:');
    migrate(db, MIGRATIONS.filter((m) => m.version < 12));
    expect(migrate(db)).toContain(12);
    db.prepare(`INSERT INTO crawls (id, seeds_json, settings_json, status, created_at_ms) VALUES (1, '[]', '{}', 'running', 0)`).run();
    const insert = db.prepare(`INSERT INTO crawl_runs (crawl_id, started_at_ms, ended_at_ms) VALUES (1, ?, ?)`);
    insert.run(1000, 5000);
    insert.run(9000, null);
    expect(() => insert.run(9000, 8000)).toThrow(/CHECK/);
    expect(db.prepare(`SELECT COUNT(*) FROM crawl_runs WHERE crawl_id = 1`).pluck().get()).toBe(2);
    db.close();
  });
});
