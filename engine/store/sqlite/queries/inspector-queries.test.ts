import type { WritableDB } from '../database';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../connection';
import { InspectorQueries } from './inspector-queries';
import { insertCrawl } from './test-rows';
import { insertLink } from './test-rows';

let db: WritableDB;
beforeEach(() => {
  db = openDatabase(':memory:');
});
afterEach(() => db.close());

function page(crawlId: number, urlId: number, fields: { status?: number; location?: string | null; headers?: string | null; canonical?: string | null; fetchMs?: number } = {}): void {
  db.prepare(
    `INSERT INTO pages (url_id, crawl_id, final_url, http_status, content_type, body_bytes, fetch_ms, fetched_at_ms, location, response_headers_json, canonical_url)
     VALUES (?, ?, 'x', ?, 'text/html', 1234, ?, 1700000000000, ?, ?, ?)`,
  ).run(urlId, crawlId, fields.status ?? 200, fields.fetchMs ?? 12, fields.location ?? null, fields.headers ?? null, fields.canonical ?? null);
}

function link(crawlId: number, from: number, raw: string, to: number | null, fields: { kind?: string; refusedBy?: string; anchor?: string; rel?: string } = {}): void {
  insertLink(db, crawlId, { fromUrlId: from, rawUrl: raw, toUrlId: to, kind: fields.kind ?? 'a', refusedBy: fields.refusedBy ?? null, anchorText: fields.anchor ?? null, rel: fields.rel ?? null });
}

describe('InspectorQueries', () => {
  it('reads the URL row with the page it was discovered on, and undefined for another crawl’s id', () => {
    const { crawlId, ids } = insertCrawl(db, [{ url: 'http://a.test/' }, { url: 'http://a.test/x', from: 1, depth: 1, state: 'error' }]);
    db.prepare(`UPDATE urls SET error_code = 'ROBOTS_DISALLOWED', error_reason = 'robots.txt disallows /x', attempts = 2 WHERE id = ?`).run(ids[1]);
    const queries = new InspectorQueries(db);
    expect(queries.url(crawlId, ids[1]!)).toMatchObject({
      urlId: ids[1],
      url: 'http://a.test/x',
      state: 'error',
      depth: 1,
      discoveredFromId: ids[0],
      discoveredFromUrl: 'http://a.test/',
      errorCode: 'ROBOTS_DISALLOWED',
      errorReason: 'robots.txt disallows /x',
      attempts: 2,
    });
    const other = insertCrawl(db, [{ url: 'http://b.test/' }]);
    expect(queries.url(other.crawlId, ids[1]!)).toBeUndefined();
  });

  it('reads the page with its headers and canonical, and none for a URL never answered', () => {
    const { crawlId, ids } = insertCrawl(db, [{ url: 'http://a.test/' }, { url: 'http://a.test/p', state: 'pending' }]);
    page(crawlId, ids[0]!, { headers: '{"content-type":"text/html"}', canonical: 'http://a.test/', fetchMs: 33 });
    const queries = new InspectorQueries(db);
    expect(queries.page(ids[0]!)).toMatchObject({ httpStatus: 200, bodyBytes: 1234, fetchMs: 33, truncated: false, responseHeadersJson: '{"content-type":"text/html"}', canonicalUrl: 'http://a.test/' });
    expect(queries.page(ids[1]!)).toBeUndefined();
  });

  it('lists spellings with the page each was first met on, and how many #fragment spellings each stands for', () => {
    const { ids } = insertCrawl(db, [{ url: 'http://a.test/' }, { url: 'http://a.test/item', from: 1, aliases: ['http://a.test/item?sid=1'] }]);
    db.prepare(`UPDATE url_aliases SET fragment_spellings = 3 WHERE raw_url = 'http://a.test/item'`).run();
    expect(new InspectorQueries(db).aliases(ids[1]!)).toEqual([
      { rawUrl: 'http://a.test/item', firstSeenFromId: ids[0], firstSeenFromUrl: 'http://a.test/', fragmentSpellings: 3 },
      { rawUrl: 'http://a.test/item?sid=1', firstSeenFromId: ids[0], firstSeenFromUrl: 'http://a.test/', fragmentSpellings: 0 },
    ]);
  });

  it('pages inlinks with anchor text and outlinks with refusals, counting all of them', () => {
    const { crawlId, ids } = insertCrawl(db, [{ url: 'http://a.test/' }, { url: 'http://a.test/b' }, { url: 'http://a.test/c' }]);
    const [home, b, c] = ids as [number, number, number];
    link(crawlId, home, 'http://a.test/b', b, { anchor: 'Bee' });
    link(crawlId, c, 'http://a.test/b', b, { anchor: 'Bee again', rel: 'nofollow' });
    link(crawlId, home, 'mailto:x@a.test', null, { refusedBy: 'protocol' });
    link(crawlId, home, 'http://other.test/', null, { refusedBy: 'scope' });
    link(crawlId, home, 'http://a.test/c', c);
    const queries = new InspectorQueries(db);
    const inlinks = queries.inlinks(crawlId, b, { offset: 0, limit: 1 });
    expect(inlinks.total).toBe(2);
    expect(inlinks.rows).toEqual([{ fromUrlId: home, fromUrl: 'http://a.test/', rawUrl: 'http://a.test/b', kind: 'a', anchorText: 'Bee', element: 'a', rel: null }]);
    expect(queries.inlinks(crawlId, b, { offset: 1, limit: 10 }).rows.map((row) => [row.fromUrl, row.anchorText, row.rel])).toEqual([['http://a.test/c', 'Bee again', 'nofollow']]);
    const outlinks = queries.outlinks(crawlId, home, { offset: 0, limit: 10 });
    expect(outlinks.total).toBe(4);
    expect(outlinks.refused).toBe(2);
    expect(outlinks.rows.map((row) => [row.rawUrl, row.toUrlId, row.refusedBy, row.toStatus])).toEqual([
      ['http://a.test/b', b, null, 200],
      ['mailto:x@a.test', null, 'protocol', null],
      ['http://other.test/', null, 'scope', null],
      ['http://a.test/c', c, null, 200],
    ]);
    expect(queries.discoveryLink(crawlId, b, home)).toEqual({ kind: 'a', anchorText: 'Bee' });
  });

  it('gives the whole redirect chain for the first hop, a middle hop and the target', () => {
    const { crawlId, ids } = insertCrawl(db, [
      { url: 'http://a.test/1', status: 301 },
      { url: 'http://a.test/2', status: 302 },
      { url: 'http://a.test/final' },
      { url: 'http://a.test/alone' },
    ]);
    const [one, two, final, alone] = ids as [number, number, number, number];
    page(crawlId, one, { status: 301, location: 'http://a.test/2' });
    page(crawlId, two, { status: 302, location: 'http://a.test/final' });
    page(crawlId, final);
    link(crawlId, one, 'http://a.test/2', two, { kind: 'redirect' });
    link(crawlId, two, 'http://a.test/final', final, { kind: 'redirect' });
    const queries = new InspectorQueries(db);
    const expected = [
      ['http://a.test/1', 301, 'http://a.test/2'],
      ['http://a.test/2', 302, 'http://a.test/final'],
      ['http://a.test/final', 200, null],
    ];
    for (const id of [one, two, final]) expect(queries.redirectChain(crawlId, id).map((hop) => [hop.url, hop.status, hop.location])).toEqual(expected);
    expect(queries.redirectChain(crawlId, alone).map((hop) => hop.url)).toEqual(['http://a.test/alone']);
  });

  it('stops walking back around a loop', () => {
    const { crawlId, ids } = insertCrawl(db, [{ url: 'http://a.test/x', status: 301 }, { url: 'http://a.test/y', status: 301 }]);
    const [x, y] = ids as [number, number];
    link(crawlId, x, 'http://a.test/y', y, { kind: 'redirect' });
    link(crawlId, y, 'http://a.test/x', x, { kind: 'redirect' });
    expect(new InspectorQueries(db).redirectChain(crawlId, x).map((hop) => hop.url)).toEqual(['http://a.test/y', 'http://a.test/x']);
  });

  it('finds the content group as member or first page', () => {
    const { crawlId, ids } = insertCrawl(db, [
      { url: 'http://docs.test/3.11/lib/a.html' },
      { url: 'http://docs.test/3.12/lib/a.html' },
      { url: 'http://docs.test/3.12/lib/b.html' },
      { url: 'http://docs.test/[x]/lib/a.html' },
    ]);
    const group = Number(db.prepare(`INSERT INTO content_groups (crawl_id, kind, fingerprint, first_url_id, created_at_ms) VALUES (?, 'exact', 'f', ?, 1)`).run(crawlId, ids[0]).lastInsertRowid);
    db.prepare(`INSERT INTO content_group_members (group_id, url_id, similarity) VALUES (?, ?, 1)`).run(group, ids[1]);
    const queries = new InspectorQueries(db);
    expect(queries.contentGroupId(crawlId, ids[0]!)).toBe(group);
    expect(queries.contentGroupId(crawlId, ids[1]!)).toBe(group);
    expect(queries.contentGroupId(crawlId, ids[2]!)).toBeNull();
    expect(queries.seedDomains(crawlId)).toEqual(['docs.test']);
  });
});
