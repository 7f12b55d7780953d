import BetterSqlite3 from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { urlSourcesOf } from '../../../../shared/types/url-sources';
import { LINK_KIND_CODES } from '../link-codes';
import { migrate, MIGRATIONS } from './index';

describe('migration 0018 url-sources-sitemaps', () => {
  it('fills urls.sources from what was stored: seeds, link targets, redirect targets', () => {
    const db = new BetterSqlite3(':memory:');
    db.pragma('foreign_keys = ON');
    migrate(db, MIGRATIONS.filter((m) => m.version < 18));
    db.exec(`INSERT INTO crawls (id, seeds_json, settings_json, status, created_at_ms) VALUES (1, '[]', '{}', 'finished', 0)`);
    const url = db.prepare(`INSERT INTO urls (id, crawl_id, normalized_key, normalized, url, host, state, depth, priority, discovered_from, enqueued_at_ms, redirect_hops) VALUES (?, 1, ?, ?, ?, 'a.test', 'done', ?, ?, ?, 0, ?)`);
    url.run(1, 'k1', 'http://a.test/', 'http://a.test/', 0, 0, null, 0); // seed, linked back from 2
    url.run(2, 'k2', 'http://a.test/b', 'http://a.test/b', 1, 1, 1, 0); // linked
    url.run(3, 'k3', 'http://a.test/c', 'http://a.test/c', 1, 1, 2, 1); // a redirect target
    url.run(4, 'k4', 'http://a.test/d', 'http://a.test/d', 0, 0, 1, 1); // a seed's redirect target (depth 0, one hop)
    const link = db.prepare(`INSERT INTO links (crawl_id, from_url_id, to_url_id, kind) VALUES (1, ?, ?, ?)`);
    link.run(1, 2, LINK_KIND_CODES.a);
    link.run(2, 1, LINK_KIND_CODES.a);
    link.run(2, 3, LINK_KIND_CODES.redirect);
    link.run(1, 4, LINK_KIND_CODES.redirect);
    expect(migrate(db)).toContain(18);
    const sources = db.prepare(`SELECT id, sources FROM urls ORDER BY id`).all() as { id: number; sources: number }[];
    expect(sources.map((row) => [row.id, urlSourcesOf(row.sources)])).toEqual([
      [1, ['seed', 'link']],
      [2, ['link']],
      [3, ['redirect']],
      [4, ['redirect']],
    ]);
    db.close();
  });

  it('adds sitemaps (one row per crawl and URL) and sitemap_urls (dropped with their sitemap, URL or crawl)', () => {
    const db = new BetterSqlite3(':memory:');
    db.pragma('foreign_keys = ON');
    migrate(db);
    db.exec(`INSERT INTO crawls (id, seeds_json, settings_json, status, created_at_ms) VALUES (1, '[]', '{}', 'running', 0)`);
    db.exec(`INSERT INTO urls (id, crawl_id, normalized_key, normalized, url, host, depth, priority, enqueued_at_ms) VALUES (1, 1, 'k', 'n', 'http://a.test/x', 'a.test', 1, 1, 0)`);
    const sitemap = db.prepare(`INSERT INTO sitemaps (crawl_id, url, found_via, fetch_ms, fetched_at_ms, error_code, error_message) VALUES (1, ?, ?, 0, 0, ?, ?)`);
    const id = Number(sitemap.run('http://a.test/sitemap.xml', 'probe', null, null).lastInsertRowid);
    expect(() => sitemap.run('http://a.test/sitemap.xml', 'probe', null, null)).toThrow(/UNIQUE/);
    expect(() => sitemap.run('http://a.test/s2.xml', 'guess', null, null)).toThrow(/CHECK/);
    expect(() => sitemap.run('http://a.test/s3.xml', 'robots', null, 'a message without a code')).toThrow(/CHECK/);
    db.prepare(`INSERT INTO sitemap_urls (url_id, sitemap_id, lastmod) VALUES (1, ?, '2026-11-01')`).run(id);
    const plan = db.prepare(`EXPLAIN QUERY PLAN SELECT 1 FROM sitemap_urls WHERE url_id = ?`).all(1) as { detail: string }[];
    expect(plan.map((row) => row.detail).join('\n')).toMatch(/USING PRIMARY KEY \(url_id=\?\)/);
    db.exec(`DELETE FROM crawls WHERE id = 1`);
    expect(db.prepare(`SELECT COUNT(*) FROM sitemap_urls`).pluck().get()).toBe(0);
    expect(db.prepare(`SELECT COUNT(*) FROM sitemaps`).pluck().get()).toBe(0);
    db.close();
  });
});
