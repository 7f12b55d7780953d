import type { WritableDB } from '../../engine/store/sqlite/database';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { crawlFixtures } from './harness';
import type { CrawlSettings, CrawlSummary } from '../../shared/types/crawl';
import { startFixtureServer, type FixtureRequest, type FixtureServer } from '../../testweb/fixture-server';
import { REDIRECT_SITES } from '../../testweb/redirect-sites';
import { ExportQueries } from '../../engine/store/sqlite/queries/export-queries';
import { FrontierQueries } from '../../engine/store/sqlite/queries/frontier-queries';
import { RedirectQueries } from '../../engine/store/sqlite/queries/redirect-queries';
import { LINK_KIND_CODES, LINK_RULE_CODES, linkRuleSql } from '../../engine/store/sqlite/link-codes';

/**
 * Issue 9, defect 6: every redirect hop is a fetch, so robots.txt (of the target's own host) and
 * the target host's politeness delay apply before it; and RFC 9309 §2.3.1.2 for robots.txt
 * redirects. Assertions act on the requests the fixture server recorded.
 */
let fixtures: FixtureServer;
beforeAll(async () => {
  fixtures = await startFixtureServer(REDIRECT_SITES);
});
afterAll(async () => {
  await fixtures?.stop();
});

interface Crawled {
  db: WritableDB;
  crawlId: number;
  summary: CrawlSummary;
  /** Requests the fixture server saw during this crawl, in order. */
  requests: FixtureRequest[];
  requested(host: string): string[];
  url(href: string): { id: number; state: string; code: string | null; status: number | null; depth: number } | undefined;
}

async function crawl(seeds: string[], settings: Partial<CrawlSettings> = {}): Promise<Crawled> {
  // Sitemaps off: these tests compare whole request lists, and the /sitemap.xml probe is not a redirect's business.
  const { db, crawlId, summary, requests } = await crawlFixtures(fixtures, seeds, { sitemaps: 'off', ...settings });
  return {
    db,
    crawlId,
    summary,
    requests,
    requested: (host) => requests.filter((r) => r.host === host).map((r) => r.path),
    url: (href) =>
      db.prepare(`SELECT id, state, error_code AS code, http_status AS status, depth FROM urls WHERE crawl_id = ? AND url = ?`).get(crawlId, href) as ReturnType<Crawled['url']>,
  };
}

const chainOf = (c: Crawled, href: string) => new RedirectQueries(c.db).chain(c.crawlId, c.url(href)!.id).map((hop) => [hop.url, hop.status, hop.errorCode]);

describe('redirect hops pass robots.txt and politeness like any fetch', () => {
  it('(a) a redirect to a path robots.txt disallows on the same host is never requested; the chain ends ROBOTS_DISALLOWED, recorded hop by hop', async () => {
    const c = await crawl(['http://hops.test/']);
    expect(c.requested('hops.test')).not.toContain('/private/secret.html');
    expect(c.url('http://hops.test/to-private')).toMatchObject({ state: 'done', code: null, status: 302 });
    expect(chainOf(c, 'http://hops.test/to-private')).toEqual([
      ['http://hops.test/to-private', 302, null],
      ['http://hops.test/private/secret.html', null, 'ROBOTS_DISALLOWED'],
    ]);
    const link = c.db.prepare(`SELECT COALESCE(l.raw_url, u.url) AS raw, u.url AS target FROM links l JOIN urls u ON u.id = l.to_url_id WHERE l.crawl_id = ? AND l.kind = ${LINK_KIND_CODES.redirect} AND l.from_url_id = ?`);
    expect(link.get(c.crawlId, c.url('http://hops.test/to-private')!.id)).toEqual({ raw: 'http://hops.test/private/secret.html', target: 'http://hops.test/private/secret.html' });
  });

  it('(b) a redirect to another host: that host\'s robots.txt is requested before the target, and a target it disallows is never requested', async () => {
    const c = await crawl(['http://hops.test/'], { scope: 'any' });
    const other = c.requested('other-host.test');
    expect(other[0]).toBe('/robots.txt');
    expect(other.filter((p) => p === '/robots.txt')).toHaveLength(1);
    expect(other).toContain('/page.html');
    expect(other).not.toContain('/private/x.html');
    expect(chainOf(c, 'http://hops.test/to-other')).toEqual([
      ['http://hops.test/to-other', 301, null],
      ['http://other-host.test/page.html', 200, null],
    ]);
    expect(chainOf(c, 'http://hops.test/to-other-private')).toEqual([
      ['http://hops.test/to-other-private', 307, null],
      ['http://other-host.test/private/x.html', null, 'ROBOTS_DISALLOWED'],
    ]);
  });

  it('a redirect target outside the scope is refused by the scope rule, unrequested; a target already seen is not fetched again', async () => {
    const c = await crawl(['http://hops.test/']);
    expect(c.requested('other-host.test')).toEqual([]);
    const refused = c.db.prepare(`SELECT raw_url FROM links WHERE crawl_id = ? AND kind = ${LINK_KIND_CODES.redirect} AND refused_by = ${LINK_RULE_CODES.scope} ORDER BY raw_url`).pluck().all(c.crawlId);
    expect(refused).toEqual(['http://other-host.test/page.html', 'http://other-host.test/private/x.html']);
    expect(c.requested('hops.test').filter((p) => p === '/')).toHaveLength(1);
    expect(chainOf(c, 'http://hops.test/to-home')).toEqual([
      ['http://hops.test/to-home', 308, null],
      ['http://hops.test/', 200, null],
    ]);
  });

  it('a redirect whose Location is over the URL length limit is refused by url-length before any other work, unrequested', async () => {
    const c = await crawl(['http://long-location.test/']);
    expect(c.requested('long-location.test')).toEqual(['/robots.txt', '/', '/to-long']);
    expect(c.url('http://long-location.test/to-long')).toMatchObject({ state: 'done', status: 302 });
    const refused = c.db.prepare(`SELECT length(raw_url) AS chars, ${linkRuleSql('refused_by')} AS rule FROM links WHERE crawl_id = ? AND kind = ${LINK_KIND_CODES.redirect}`).all(c.crawlId);
    expect(refused).toEqual([{ chars: 2048, rule: 'url-length' }]);
  });

  it('(c) a redirect hop to a host waits that host\'s politeness delay', async () => {
    const minDelayMs = 400;
    const c = await crawl(['http://polite-a.test/go', 'http://polite-b.test/'], { scope: 'any', minDelayMs, threads: 4 });
    const seen = c.requests.filter((r) => r.host === 'polite-b.test');
    expect(seen.map((r) => r.path).sort()).toEqual(['/', '/robots.txt', '/target.html']);
    // Generous margin below the configured delay; without it the hop came within milliseconds.
    for (let i = 1; i < seen.length; i += 1) expect(seen[i]!.startedAtMs - seen[i - 1]!.endedAtMs, `gap before ${seen[i]!.path}`).toBeGreaterThanOrEqual(minDelayMs - 50);
    expect(c.url('http://polite-b.test/target.html')).toMatchObject({ state: 'done', status: 200 });
  });

  it('a seed that redirects to another host makes that host a seed: it is crawled under host scope, at depth 0', async () => {
    const c = await crawl(['http://moved.test/']);
    expect(c.url('http://moved.test/')).toMatchObject({ state: 'done', status: 301, depth: 0 });
    expect(c.url('http://www.moved.test/')).toMatchObject({ state: 'done', status: 200, depth: 0 });
    expect(c.url('http://www.moved.test/inside.html')).toMatchObject({ state: 'done', depth: 1 });
  });
});

describe('a 3xx URL as the tables and exports show it', () => {
  it('is done with its own 3xx status and Location in the pages export, the frontier export and the URL table (not the target\'s 200)', async () => {
    const c = await crawl(['http://hops.test/']);
    const id = c.url('http://hops.test/to-home')!.id;
    const exports = new ExportQueries(c.db);
    expect(exports.pages(c.crawlId, 0, 100).rows.find((row) => row.urlId === id)).toMatchObject({ httpStatus: 308, location: 'http://hops.test/', finalUrl: 'http://hops.test/to-home', bodyBytes: 0 });
    expect(exports.frontier(c.crawlId, 0, 100).rows.find((row) => row.id === id)).toMatchObject({ state: 'done', httpStatus: 308, errorCode: null });
    expect(new FrontierQueries(c.db).urls(c.crawlId, { offset: 0, limit: 100, text: '/to-home' }).rows.map((row) => [row.state, row.httpStatus])).toEqual([['done', 308]]);
  });
});

describe('redirect loops end at the URL-seen test', () => {
  it('(d) a loop between two URLs both linked from a page: each requested once, the hop that closes it is REDIRECT_LOOP; a self-redirect too', async () => {
    const c = await crawl(['http://loops.test/']);
    const requested = c.requested('loops.test');
    expect(requested.length).toBe(new Set(requested).size);
    const codes = ['/x', '/y'].map((path) => c.url(`http://loops.test${path}`)!.code);
    expect(codes.filter((code) => code === 'REDIRECT_LOOP')).toHaveLength(1);
    expect(codes.filter((code) => code === null)).toHaveLength(1);
    // `/self?` has the same normalized key as `/self` under the standard profile.
    expect(c.url('http://loops.test/self')).toMatchObject({ state: 'error', code: 'REDIRECT_LOOP', status: 301 });
  });
});

describe('robots.txt redirects (RFC 9309 §2.3.1.2)', () => {
  it('(e) a robots.txt redirect loop makes robots.txt unavailable: everything is allowed, and robots.txt is not asked for again', async () => {
    const c = await crawl(['http://robotsloop.test/']);
    expect(c.requested('robotsloop.test')).toEqual(['/robots.txt', '/robots-b.txt', '/', '/a.html']);
    expect(c.summary).toMatchObject({ status: 'finished', fetched: 2, errors: 0 });
  });

  it('a robots.txt redirect to an unreachable host makes robots.txt unreachable (retried, then ROBOTS_UNAVAILABLE), not the host asked', async () => {
    const c = await crawl(['http://robotsaway.test/'], { robotsRetryDelayMs: 50 });
    expect(c.requested('robotsaway.test')).toEqual(['/robots.txt', '/robots.txt', '/robots.txt', '/robots.txt']);
    expect(c.url('http://robotsaway.test/')).toMatchObject({ state: 'error', code: 'ROBOTS_UNAVAILABLE' });
    expect(c.db.prepare(`SELECT error_reason FROM urls WHERE crawl_id = ?`).pluck().get(c.crawlId)).toContain('HOST_NOT_MAPPED');
  });

  it('a robots.txt reached through five redirects, across hosts, is obeyed for the host asked', async () => {
    const c = await crawl(['http://robotsmoved.test/']);
    expect(c.requested('robots-cdn.test')).toEqual(['/shared-robots.txt']);
    expect(c.requested('robotsmoved.test')).not.toContain('/private/x.html');
    expect(c.url('http://robotsmoved.test/private/x.html')).toMatchObject({ state: 'blocked', code: 'ROBOTS_DISALLOWED' });
    expect(c.url('http://robotsmoved.test/open.html')).toMatchObject({ state: 'done' });
  });
});
