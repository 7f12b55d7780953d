import BetterSqlite3 from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { migrate, MIGRATIONS } from './index';

describe('migration 0003 checkpoints', () => {
  it('upgrades a version-2 database, and names are unique per crawl', () => {
    const db = new BetterSqlite3(':memory:');
    migrate(db, MIGRATIONS.slice(0, 2));
    expect(migrate(db, MIGRATIONS.slice(0, 3))).toEqual([3]);
    db.prepare(`INSERT INTO crawls (seeds_json, settings_json, status, created_at_ms) VALUES ('[]', '{}', 'running', 1)`).run();
    const insert = db.prepare(`INSERT INTO checkpoints (crawl_id, name, created_at_ms, pages_done, frontier_size, settings_hash, file) VALUES (1, ?, 1, 0, 0, 'h', 'f')`);
    insert.run('a');
    expect(() => insert.run('a')).toThrow(/UNIQUE/);
    db.close();
  });
});
