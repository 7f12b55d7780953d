/**
 * Issue 11 part 1 end to end through the crawl service: what a crawl of the fixture web records
 * per page (headers, meta description, H1, canonical, directives, indexability, words, lang), per
 * link (anchor text, element, rel), per redirect hop, and for a URL robots.txt refuses (blocked).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { crawlFixtures } from './harness';
import { ANCHOR_TEXT_MAX_CHARS, H1_MAX_CHARS, META_DESCRIPTION_MAX_CHARS, REL_MAX_CHARS } from '../../engine/parse/parse-html';
import type { WritableDB } from '../../engine/store/sqlite/database';
import { RedirectQueries } from '../../engine/store/sqlite/queries/redirect-queries';
import type { CrawlSettings, CrawlSummary } from '../../shared/types/crawl';
import { startFixtureServer, type FixtureServer } from '../../testweb/fixture-server';
import { LINK_KIND_CODES, linkElementSql, linkKindSql } from '../../engine/store/sqlite/link-codes';

let fixtures: FixtureServer;
beforeAll(async () => {
  fixtures = await startFixtureServer();
});
afterAll(async () => {
  await fixtures?.stop();
});

async function crawl(host: string, settings: Partial<CrawlSettings> = {}): Promise<{ db: WritableDB; crawlId: number; summary: CrawlSummary; requested: string[] }> {
  const { db, crawlId, summary, requests } = await crawlFixtures(fixtures, [`http://${host}/`], settings);
  return { db, crawlId, summary, requested: requests.filter((r) => r.host === host).map((r) => r.path) };
}

describe('page analysis: what a crawl records for the results workbench (issue 11)', () => {
  it('stores each page’s analysis fields and its indexability, most specific reason first', async () => {
    // /headers.html is linked rel="nofollow": followed here to analyse it (issue 12 refuses it by default).
    const { db, crawlId } = await crawl('analysis.test', { followNofollowLinks: true });
    const page = (path: string) =>
      db
        .prepare(
          `SELECT p.http_status AS status, p.meta_description AS description, p.h1, p.canonical_url AS canonical, p.robots_directives AS directives,
                  p.indexability, p.word_count AS words, p.lang, p.response_headers_json AS headers
           FROM pages p JOIN urls u ON u.id = p.url_id WHERE u.crawl_id = ? AND u.url = ?`,
        )
        .get(crawlId, `http://analysis.test${path}`) as Record<string, unknown>;
    expect(page('/')).toMatchObject({
      status: 200,
      description: "The analysis fixture's home page",
      h1: 'Welcome home',
      // Resolved, fragment dropped; it names the page itself under another spelling: indexable.
      canonical: 'http://analysis.test/',
      directives: null,
      indexability: 'indexable',
      lang: 'en-GB',
    });
    expect(page('/').words).toBeGreaterThan(10);
    expect(JSON.parse(page('/').headers as string)).toMatchObject({ 'content-type': 'text/html; charset=utf-8', connection: 'keep-alive' });
    expect(page('/noindex.html')).toMatchObject({ directives: 'noindex, follow, noarchive', indexability: 'noindex', lang: null });
    expect(page('/canonicalised.html')).toMatchObject({ canonical: 'http://analysis.test/', indexability: 'canonicalised' });
    // Header directives and language; its Link canonical names another URL, but noindex is more specific.
    expect(page('/headers.html')).toMatchObject({ directives: 'noindex, nosnippet', canonical: 'http://analysis.test/', indexability: 'noindex', lang: 'de', h1: null });
    expect(page('/gone.html')).toMatchObject({ status: 404, indexability: 'non-200' });
  });

  it('stores each link’s anchor text (image alt included), element and rel, nofollow links too (refused, not fetched)', async () => {
    const { db, crawlId, requested } = await crawl('analysis.test');
    const links = db
      .prepare(
        `SELECT COALESCE(l.raw_url, t.url) AS url, ${linkKindSql('l.kind')} AS kind, ${linkElementSql('l.kind')} AS element, l.anchor_text AS text, l.rel
         FROM links l JOIN urls u ON u.id = l.from_url_id LEFT JOIN urls t ON t.id = l.to_url_id WHERE l.crawl_id = ? AND u.url = ? ORDER BY l.id`,
      )
      .all(crawlId, 'http://analysis.test/');
    expect(links).toEqual([
      // The raw spelling as written and resolved (its fragment kept: raw URLs are aliases).
      { url: 'http://analysis.test/#top', kind: 'canonical', element: 'link', text: null, rel: 'canonical' },
      { url: 'http://analysis.test/noindex.html', kind: 'a', element: 'a', text: 'No index', rel: null },
      { url: 'http://analysis.test/canonicalised.html', kind: 'a', element: 'a', text: 'Canonical logo', rel: null },
      { url: 'http://analysis.test/headers.html', kind: 'a', element: 'a', text: 'Header directives', rel: 'nofollow' },
      { url: 'http://analysis.test/ad.html', kind: 'a', element: 'a', text: 'Ad', rel: 'sponsored ugc' },
      { url: 'http://analysis.test/gone.html', kind: 'a', element: 'a', text: 'Gone', rel: null },
    ]);
    // Issue 12: rel nofollow / sponsored / ugc links are stored but not fetched by default.
    expect(requested).not.toContain('/headers.html');
    expect(requested).not.toContain('/ad.html');
    expect(requested).toContain('/gone.html');
  });

  it('a redirect chain stores every hop with its 3xx status, Location, fetch time and response headers', async () => {
    const { db, crawlId } = await crawl('redirects.test');
    const first = db.prepare(`SELECT id FROM urls WHERE crawl_id = ? AND url = ?`).pluck().get(crawlId, 'http://redirects.test/chain/1') as number;
    const chain = new RedirectQueries(db).chain(crawlId, first);
    expect(chain.map((hop) => hop.url)).toEqual([
      'http://redirects.test/chain/1',
      'http://redirects.test/chain/2',
      'http://redirects.test/chain/3',
      'http://redirects.test/final.html',
    ]);
    const hop = db.prepare(
      `SELECT p.http_status AS status, p.location, p.fetch_ms AS fetchMs, p.fetched_at_ms AS fetchedAtMs, p.response_headers_json AS headers, p.indexability
       FROM pages p JOIN urls u ON u.id = p.url_id WHERE u.crawl_id = ? AND u.url = ?`,
    );
    const expected: [string, number, string][] = [
      ['/chain/1', 302, '/chain/2'],
      ['/chain/2', 307, '/chain/3'],
      ['/chain/3', 308, '/final.html'],
    ];
    for (const [path, status, location] of expected) {
      const row = hop.get(crawlId, `http://redirects.test${path}`) as { status: number; location: string; fetchMs: number; fetchedAtMs: number; headers: string; indexability: string };
      expect(row).toMatchObject({ status, location: `http://redirects.test${location}`, indexability: 'non-200' });
      expect(row.fetchMs).toBeGreaterThanOrEqual(0);
      expect(row.fetchedAtMs).toBeGreaterThan(0);
      // The hop's own headers: its Location as the server sent it.
      expect(JSON.parse(row.headers)).toMatchObject({ location });
    }
    expect(hop.get(crawlId, 'http://redirects.test/final.html')).toMatchObject({ status: 200, location: null, indexability: 'indexable' });
  });

  it('a page of megabytes (2.5 MB each of meta description, H1 and anchor text, a 900 KB rel) stores each field capped', async () => {
    const { db, crawlId } = await crawl('bigmeta.test');
    const page = db.prepare(`SELECT LENGTH(meta_description) AS description, LENGTH(h1) AS h1, LENGTH(response_headers_json) AS headers FROM pages WHERE crawl_id = ? AND http_status = 200`).get(crawlId);
    expect(page).toEqual({ description: META_DESCRIPTION_MAX_CHARS, h1: H1_MAX_CHARS, headers: expect.any(Number) });
    const link = db.prepare(`SELECT LENGTH(anchor_text) AS text, LENGTH(rel) AS rel FROM links WHERE crawl_id = ? AND kind = ${LINK_KIND_CODES.a}`).get(crawlId);
    expect(link).toEqual({ text: ANCHOR_TEXT_MAX_CHARS, rel: expect.any(Number) });
    expect((link as { rel: number }).rel).toBeLessThanOrEqual(REL_MAX_CHARS);
  });

  it('a URL robots.txt refuses is blocked, not an error, with the robots.txt line that matched, and never requested', async () => {
    const { db, crawlId, summary, requested } = await crawl('robots.test');
    expect(requested).not.toContain('/private/secret.html');
    expect(db.prepare(`SELECT state, error_code AS code, robots_line AS line, fetched_at_ms AS at FROM urls WHERE crawl_id = ? AND url = ?`).get(crawlId, 'http://robots.test/private/secret.html')).toEqual({
      state: 'blocked',
      code: 'ROBOTS_DISALLOWED',
      line: '2: Disallow: /private/',
      at: null,
    });
    expect(summary).toMatchObject({ errors: 0, blocked: 1 });
    expect(db.prepare(`SELECT COUNT(*) FROM pages p JOIN urls u ON u.id = p.url_id WHERE u.crawl_id = ? AND u.state = 'blocked'`).pluck().get(crawlId)).toBe(0);
  });
});
