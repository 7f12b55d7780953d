import BetterSqlite3 from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { migrate, MIGRATIONS } from './index';

describe('migration 0017 minhash-bands-clustered', () => {
  it('keeps every band row once, in one B-tree the bucket lookup reads as a range', () => {
    const db = new BetterSqlite3(':memory:');
    migrate(db, MIGRATIONS.filter((m) => m.version < 17));
    db.exec(`INSERT INTO crawls (id, seeds_json, settings_json, status, created_at_ms) VALUES (1, '[]', '{}', 'running', 0)`);
    for (const id of [1, 2]) db.exec(`INSERT INTO urls (id, crawl_id, normalized_key, normalized, url, host, state, depth, priority, enqueued_at_ms) VALUES (${id}, 1, 'k${id}', 'http://a/${id}', 'http://a/${id}', 'a', 'done', 0, 0, 0)`);
    // Page 1 fetched twice before this migration: its band rows were written twice.
    db.exec(`INSERT INTO minhash_bands (crawl_id, band, bucket, url_id) VALUES (1, 0, 7, 1), (1, 0, 7, 1), (1, 0, 7, 2), (1, 1, 9, 2)`);
    expect(migrate(db, MIGRATIONS.filter((m) => m.version <= 17))).toEqual(expect.arrayContaining([17]));
    expect(db.prepare(`SELECT band, bucket, url_id AS urlId FROM minhash_bands ORDER BY band, url_id`).all()).toEqual([
      { band: 0, bucket: 7, urlId: 1 },
      { band: 0, bucket: 7, urlId: 2 },
      { band: 1, bucket: 9, urlId: 2 },
    ]);
    expect(db.prepare(`SELECT COUNT(*) FROM sqlite_master WHERE tbl_name = 'minhash_bands' AND type = 'index' AND sql IS NOT NULL`).pluck().get()).toBe(0);
    const plan = db.prepare(`EXPLAIN QUERY PLAN SELECT url_id FROM minhash_bands WHERE crawl_id = ? AND band = ? AND bucket = ? AND url_id != ?`).all(1, 0, 7, 1) as { detail: string }[];
    expect(plan.map((row) => row.detail).join('\n')).toMatch(/SEARCH minhash_bands USING PRIMARY KEY \(crawl_id=\? AND band=\? AND bucket=\?\)/);
    db.close();
  });
});
