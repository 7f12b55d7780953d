import BetterSqlite3 from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { migrate, MIGRATIONS } from './index';

/** A version-18 database (the migration before 0019) with URLs and rows in tables that reference urls. */
function version18(): BetterSqlite3.Database {
  const db = new BetterSqlite3(':memory:');
  db.pragma('foreign_keys = ON');
  migrate(db, MIGRATIONS.filter((m) => m.version <= 18));
  db.exec(`
    INSERT INTO crawls (id, seeds_json, settings_json, status, created_at_ms) VALUES (1, '[]', '{}', 'stopped', 0);
    INSERT INTO urls (id, crawl_id, normalized_key, normalized, url, host, state, depth, priority, enqueued_at_ms)
      VALUES (1, 1, 'k1', 'http://a.test/', 'http://a.test/', 'a.test', 'done', 0, 0, 10);
    INSERT INTO urls (id, crawl_id, normalized_key, normalized, url, host, state, depth, priority, discovered_from, enqueued_at_ms)
      VALUES (2, 1, 'k2', 'http://a.test/calendar/2031/7', 'http://a.test/calendar/2031/7', 'a.test', 'pending', 1, 1, 1, 11);
    INSERT INTO urls (id, crawl_id, normalized_key, normalized, url, host, state, depth, priority, discovered_from, enqueued_at_ms, robots_line)
      VALUES (3, 1, 'k3', 'http://a.test/private/', 'http://a.test/private/', 'a.test', 'blocked', 1, 1, 1, 12, '2: Disallow: /private/');
    INSERT INTO pages (url_id, crawl_id, final_url, http_status, body_bytes, fetch_ms, fetched_at_ms, title) VALUES (1, 1, 'http://a.test/', 200, 5, 3, 20, 'Home');
    INSERT INTO links (crawl_id, from_url_id, to_url_id, kind) VALUES (1, 1, 2, 1);
  `);
  return db;
}

describe('migration 0019 held-traps', () => {
  it('rebuilds urls with the held state and a trap_id, keeping rows, indexes and foreign keys; adds the traps table', () => {
    const db = version18();
    const urlsBefore = db.prepare(`SELECT * FROM urls ORDER BY id`).all();
    const indexesBefore = db.prepare(`SELECT name, sql FROM sqlite_schema WHERE type = 'index' AND tbl_name = 'urls' ORDER BY name`).all() as { name: string }[];
    expect(() => db.prepare(`UPDATE urls SET state = 'held' WHERE id = 2`).run()).toThrow(/CHECK/);

    expect(migrate(db, MIGRATIONS.filter((m) => m.version <= 19))).toEqual([19]);

    expect(db.prepare(`SELECT * FROM urls ORDER BY id`).all()).toEqual(urlsBefore.map((row) => ({ ...(row as object), trap_id: null })));
    const indexesAfter = db.prepare(`SELECT name, sql FROM sqlite_schema WHERE type = 'index' AND tbl_name = 'urls' ORDER BY name`).all() as { name: string }[];
    expect(indexesAfter.filter((index) => index.name !== 'urls_held_by_trap')).toEqual(indexesBefore);
    expect(indexesAfter.map((index) => index.name)).toContain('urls_held_by_trap');

    // A trap holds a URL; its held count comes from the partial index.
    db.prepare(`INSERT INTO traps (id, crawl_id, host, pattern, template, detector, evidence_json, detected_at_ms, updated_at_ms) VALUES (1, 1, 'a.test', '^x', '/calendar/{n}/{n}', 'near-identical', '{}', 5, 5)`).run();
    db.prepare(`UPDATE urls SET state = 'held', trap_id = 1 WHERE id = 2`).run();
    expect(db.prepare(`SELECT COUNT(*) FROM urls WHERE trap_id = 1 AND state = 'held'`).pluck().get()).toBe(1);
    expect(db.prepare(`EXPLAIN QUERY PLAN SELECT COUNT(*) FROM urls WHERE trap_id = 1 AND state = 'held'`).all()).toEqual([expect.objectContaining({ detail: expect.stringContaining('urls_held_by_trap') })]);
    // One pattern once per crawl; states are a closed set; an unknown URL state is still refused.
    expect(() => db.prepare(`INSERT INTO traps (crawl_id, host, pattern, template, detector, evidence_json, detected_at_ms, updated_at_ms) VALUES (1, 'a.test', '^x', 't', 'd', '{}', 0, 0)`).run()).toThrow(/UNIQUE/);
    expect(() => db.prepare(`UPDATE traps SET state = 'gone' WHERE id = 1`).run()).toThrow(/CHECK/);
    expect(() => db.prepare(`UPDATE urls SET state = 'lost' WHERE id = 3`).run()).toThrow(/CHECK/);
    // Foreign keys are on again and wired: deleting the trap frees its URLs' trap_id; deleting a URL cascades.
    expect(db.pragma('foreign_keys', { simple: true })).toBe(1);
    expect(db.pragma('foreign_key_check')).toEqual([]);
    db.prepare(`DELETE FROM traps WHERE id = 1`).run();
    expect(db.prepare(`SELECT trap_id FROM urls WHERE id = 2`).pluck().get()).toBeNull();
    db.prepare(`DELETE FROM urls WHERE id = 1`).run();
    expect(db.prepare(`SELECT COUNT(*) FROM pages`).pluck().get()).toBe(0);
    expect(db.prepare(`SELECT COUNT(*) FROM links`).pluck().get()).toBe(0);
    db.close();
  });

  it('leaves nothing changed when the urls table is not of the expected form', () => {
    const strange = new BetterSqlite3(':memory:');
    strange.exec(`CREATE TABLE urls (id INTEGER PRIMARY KEY, state TEXT)`);
    strange.pragma('user_version = 18');
    expect(() => migrate(strange)).toThrow(/no state CHECK/);
    expect(strange.pragma('user_version', { simple: true })).toBe(18);
    strange.close();
  });
});
