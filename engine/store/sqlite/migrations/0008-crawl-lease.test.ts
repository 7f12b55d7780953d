import BetterSqlite3 from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { migrate, MIGRATIONS } from './index';

describe('migration 0008 crawl-lease', () => {
  it('adds a crawl_lease table that holds one row at most', () => {
    const db = new BetterSqlite3(':memory:');
    const before = MIGRATIONS.filter((m) => m.version < 8);
    migrate(db, before);
    expect(migrate(db, MIGRATIONS.filter((m) => m.version <= 8))).toEqual([8]);
    const insert = db.prepare(`INSERT INTO crawl_lease (id, owner_id, pid, hostname, proc_start, crawl_id, acquired_at_ms, heartbeat_ms) VALUES (?, 'o', 1, 'h', NULL, NULL, 0, 0)`);
    insert.run(1);
    expect(() => insert.run(1)).toThrow(/UNIQUE/);
    expect(() => insert.run(2)).toThrow(/CHECK/);
    db.close();
  });
});
