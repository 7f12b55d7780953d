import BetterSqlite3 from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { LINK_KIND_CODES, LINK_RULE_CODES } from '../link-codes';
import { migrate, MIGRATIONS } from './index';

describe('migration 0016 compact-links', () => {
  const before16 = () => {
    const db = new BetterSqlite3(':memory:');
    db.pragma('foreign_keys = ON');
    migrate(db, MIGRATIONS.filter((m) => m.version < 16));
    db.exec(`INSERT INTO crawls (id, seeds_json, settings_json, status, created_at_ms) VALUES (1, '[]', '{}', 'running', 0)`);
    const url = db.prepare(`INSERT INTO urls (id, crawl_id, normalized_key, normalized, url, host, state, depth, priority, enqueued_at_ms) VALUES (?, 1, ?, ?, ?, 'a.test', 'done', 0, 0, 0)`);
    url.run(1, 'k1', 'http://a.test/', 'http://a.test/');
    url.run(2, 'k2', 'http://a.test/x', 'http://a.test/x');
    return db;
  };

  it('stores links as codes, the raw text only where it differs from the target URL, keeping ids and every field a reader shows', () => {
    const db = before16();
    const link = db.prepare(`INSERT INTO links (id, crawl_id, from_url_id, raw_url, to_url_id, kind, refused_by, anchor_text, element, rel) VALUES (?, 1, 1, ?, ?, ?, ?, ?, ?, ?)`);
    link.run(10, 'http://a.test/x', 2, 'a', null, 'Ex', 'a', 'nofollow');
    link.run(11, 'http://A.test/x', 2, 'canonical', null, null, 'link', null);
    link.run(12, 'mailto:me@a.test', null, 'a', 'protocol', null, 'a', null);
    link.run(13, 'http://a.test/x', 2, 'redirect', null, null, 'redirect', null);
    expect(migrate(db)).toContain(16);
    const columns = (db.pragma('table_info(links)') as { name: string }[]).map((c) => c.name);
    expect(columns).not.toContain('element');
    expect(db.prepare(`SELECT id, raw_url AS rawUrl, to_url_id AS toUrlId, kind, refused_by AS refusedBy, anchor_text AS anchorText, rel FROM links ORDER BY id`).all()).toEqual([
      { id: 10, rawUrl: null, toUrlId: 2, kind: LINK_KIND_CODES.a, refusedBy: null, anchorText: 'Ex', rel: 'nofollow' },
      { id: 11, rawUrl: 'http://A.test/x', toUrlId: 2, kind: LINK_KIND_CODES.canonical, refusedBy: null, anchorText: null, rel: null },
      { id: 12, rawUrl: 'mailto:me@a.test', toUrlId: null, kind: LINK_KIND_CODES.a, refusedBy: LINK_RULE_CODES.protocol, anchorText: null, rel: null },
      { id: 13, rawUrl: null, toUrlId: 2, kind: LINK_KIND_CODES.redirect, refusedBy: null, anchorText: null, rel: null },
    ]);
    // A link with neither a target nor a text cannot be read back: refused.
    expect(() => db.prepare(`INSERT INTO links (crawl_id, from_url_id, raw_url, to_url_id, kind) VALUES (1, 1, NULL, NULL, 1)`).run()).toThrow(/CHECK/);
    db.close();
  });

  it('folds #fragment spellings into the spelling without the fragment, counting them', () => {
    const db = before16();
    const alias = db.prepare(`INSERT INTO url_aliases (url_id, raw_url, first_seen_from) VALUES (?, ?, ?)`);
    alias.run(2, 'http://a.test/x', 1);
    alias.run(2, 'http://a.test/x#a', 1);
    alias.run(2, 'http://a.test/x#b', 1);
    alias.run(2, 'http://A.test/x#c', null);
    migrate(db);
    expect(db.prepare(`SELECT raw_url AS rawUrl, first_seen_from AS firstSeenFrom, fragment_spellings AS fragments FROM url_aliases ORDER BY raw_url`).all()).toEqual([
      { rawUrl: 'http://A.test/x', firstSeenFrom: null, fragments: 1 },
      { rawUrl: 'http://a.test/x', firstSeenFrom: 1, fragments: 2 },
    ]);
    db.close();
  });

  it('drops the indexes no query needs on every crawl, keeping the URL-seen test, the frontier, the Pages rows in id order and the links indexes', () => {
    const db = before16();
    // As 0016 left them (0027 later drops links_by_from for link ranges on URL rows).
    migrate(db, MIGRATIONS.filter((m) => m.version <= 16));
    const names = new Set(db.prepare(`SELECT name FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL`).pluck().all() as string[]);
    for (const dropped of ['urls_by_host_url', 'urls_by_host_id', 'urls_pages_by_url', 'urls_pages_by_status', 'urls_pages_by_depth', 'urls_pages_by_fetched', 'pages_by_crawl', 'pages_by_title', 'pages_by_meta_description', 'pages_by_h1', 'pages_by_canonical', 'pages_by_content_type', 'pages_by_indexability', 'pages_by_size', 'pages_by_response_time']) {
      expect(names.has(dropped), dropped).toBe(false);
    }
    for (const kept of ['urls_by_host_state', 'urls_by_state', 'urls_pages_by_id', 'links_by_from', 'links_by_to', 'pages_by_fingerprint', 'link_counts_by_inlinks']) expect(names.has(kept), kept).toBe(true);
    db.close();
  });
});
