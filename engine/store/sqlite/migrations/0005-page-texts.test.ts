import BetterSqlite3 from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { migrate, MIGRATIONS } from './index';

describe('migration 0005 page-texts', () => {
  it('upgrades a version-4 database with a page_texts table and the host/id index', () => {
    const db = new BetterSqlite3(':memory:');
    migrate(db, MIGRATIONS.slice(0, 4));
    expect(migrate(db, MIGRATIONS.slice(0, 5))).toEqual([5]);
    expect(db.prepare(`SELECT name FROM sqlite_master WHERE name IN ('page_texts', 'urls_by_host_id') ORDER BY name`).pluck().all()).toEqual(['page_texts', 'urls_by_host_id']);
    const plan = db.prepare(`EXPLAIN QUERY PLAN SELECT id FROM urls WHERE crawl_id = 1 AND host = 'a' ORDER BY id LIMIT 10`).all() as { detail: string }[];
    expect(plan.map((row) => row.detail).join(' ')).not.toContain('TEMP B-TREE');
    db.close();
  });
});
