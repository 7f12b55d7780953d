import BetterSqlite3 from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { migrate, MIGRATIONS } from './index';

/** A version-9 database with two crawls' URLs and rows in every table that references urls. */
function version9(): BetterSqlite3.Database {
  const db = new BetterSqlite3(':memory:');
  db.pragma('foreign_keys = ON');
  migrate(db, MIGRATIONS.filter((m) => m.version <= 9));
  db.exec(`
    INSERT INTO crawls (id, seeds_json, settings_json, status, created_at_ms) VALUES (1, '[]', '{}', 'stopped', 0);
    INSERT INTO urls (id, crawl_id, normalized_key, normalized, url, host, state, depth, priority, enqueued_at_ms, error_code, error_reason, attempts, redirect_hops)
      VALUES (1, 1, 'k1', 'http://a.test/', 'http://a.test/', 'a.test', 'done', 0, 0, 10, NULL, NULL, 1, 0);
    INSERT INTO urls (id, crawl_id, normalized_key, normalized, url, host, state, depth, priority, discovered_from, enqueued_at_ms, error_code, error_reason, attempts, redirect_hops)
      VALUES (2, 1, 'k2', 'http://a.test/private/', 'http://a.test/private/', 'a.test', 'error', 1, 1, 1, 11, 'ROBOTS_DISALLOWED', 'robots.txt disallows it', 1, 0);
    INSERT INTO urls (id, crawl_id, normalized_key, normalized, url, host, state, depth, priority, discovered_from, enqueued_at_ms, redirect_hops)
      VALUES (3, 1, 'k3', 'http://a.test/next', 'http://a.test/next', 'a.test', 'pending', 1, 1, 1, 12, 2);
    INSERT INTO pages (url_id, crawl_id, final_url, http_status, body_bytes, fetch_ms, fetched_at_ms, title) VALUES (1, 1, 'http://a.test/', 200, 5, 3, 20, 'Home');
    INSERT INTO links (crawl_id, from_url_id, raw_url, to_url_id, kind) VALUES (1, 1, '/private/', 2, 'a');
    INSERT INTO url_aliases (url_id, raw_url, first_seen_from) VALUES (2, 'http://a.test/private/', 1);
    INSERT INTO page_texts (url_id, text) VALUES (1, 'home');
  `);
  return db;
}

describe('migration 0010 blocked-state', () => {
  it('rebuilds urls with the blocked state: rows, ids, indexes, foreign keys and the URL-seen key survive', () => {
    const db = version9();
    const urlsBefore = db.prepare(`SELECT * FROM urls ORDER BY id`).all();
    const indexesBefore = db.prepare(`SELECT name, sql FROM sqlite_schema WHERE type = 'index' AND tbl_name = 'urls' ORDER BY name`).all();
    expect(indexesBefore.length).toBeGreaterThanOrEqual(4);
    expect(() => db.prepare(`UPDATE urls SET state = 'blocked' WHERE id = 2`).run()).toThrow(/CHECK/);

    expect(migrate(db, MIGRATIONS.filter((m) => m.version <= 10))).toEqual([10]);

    // Every row with its id and values, and the new column null.
    expect(db.prepare(`SELECT * FROM urls ORDER BY id`).all()).toEqual(urlsBefore.map((row) => ({ ...(row as object), robots_line: null })));
    // The same indexes, by name and definition (the UNIQUE clause's autoindex included).
    expect(db.prepare(`SELECT name, sql FROM sqlite_schema WHERE type = 'index' AND tbl_name = 'urls' ORDER BY name`).all()).toEqual(indexesBefore);
    expect(db.prepare(`EXPLAIN QUERY PLAN SELECT id FROM urls WHERE crawl_id = 1 AND host = 'a.test' AND state = 'pending' ORDER BY priority, id`).all()).toEqual([
      expect.objectContaining({ detail: expect.stringContaining('urls_by_host_state') }),
    ]);
    // The URL-seen key is still unique per crawl.
    expect(() =>
      db.prepare(`INSERT INTO urls (crawl_id, normalized_key, normalized, url, host, depth, priority, enqueued_at_ms) VALUES (1, 'k1', 'x', 'x', 'a.test', 0, 0, 0)`).run(),
    ).toThrow(/UNIQUE/);
    // blocked is accepted with its robots line; an unknown state is still refused.
    db.prepare(`UPDATE urls SET state = 'blocked', robots_line = '2: Disallow: /private/' WHERE id = 2`).run();
    expect(() => db.prepare(`UPDATE urls SET state = 'lost' WHERE id = 3`).run()).toThrow(/CHECK/);
    // Foreign keys are on again and still wired to urls: nothing dangles, a delete cascades.
    expect(db.pragma('foreign_keys', { simple: true })).toBe(1);
    expect(db.pragma('foreign_key_check')).toEqual([]);
    expect(() => db.prepare(`INSERT INTO pages (url_id, crawl_id, final_url, http_status, body_bytes, fetch_ms, fetched_at_ms) VALUES (99, 1, 'x', 200, 0, 0, 0)`).run()).toThrow(
      /FOREIGN KEY/,
    );
    db.prepare(`DELETE FROM urls WHERE id = 1`).run();
    expect(db.prepare(`SELECT COUNT(*) FROM pages`).pluck().get()).toBe(0);
    expect(db.prepare(`SELECT COUNT(*) FROM links`).pluck().get()).toBe(0);
    expect(db.prepare(`SELECT COUNT(*) FROM page_texts`).pluck().get()).toBe(0);
    // discovered_from still references urls (ON DELETE SET NULL).
    expect(db.prepare(`SELECT discovered_from FROM urls WHERE id = 3`).pluck().get()).toBeNull();
    db.close();
  });

  it('keeps the referencing rows whole while it runs (no cascade from dropping the old table)', () => {
    const db = version9();
    migrate(db);
    expect(db.prepare(`SELECT COUNT(*) FROM pages`).pluck().get()).toBe(1);
    expect(db.prepare(`SELECT to_url_id FROM links`).pluck().get()).toBe(2);
    expect(db.prepare(`SELECT first_seen_from FROM url_aliases`).pluck().get()).toBe(1);
    db.close();
  });

  it('leaves nothing changed when the urls table is not of the expected form', () => {
    const strange = new BetterSqlite3(':memory:');
    strange.exec(`CREATE TABLE urls (id INTEGER PRIMARY KEY, state TEXT)`);
    strange.pragma('user_version = 9');
    expect(() => migrate(strange)).toThrow(/no state CHECK/);
    expect(strange.pragma('user_version', { simple: true })).toBe(9);
    expect(strange.prepare(`SELECT sql FROM sqlite_schema WHERE name = 'urls'`).pluck().get()).toBe('CREATE TABLE urls (id INTEGER PRIMARY KEY, state TEXT)');
    strange.close();
  });
});
