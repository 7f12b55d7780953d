import type { WritableDB } from '../../engine/store/sqlite/database';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { crawlFixtures, fixtureOverrides } from './harness';
import type { CrawlSettings, CrawlSummary } from '../../shared/types/crawl';
import { startFixtureServer, type FixtureServer } from '../../testweb/fixture-server';
import { openDatabase } from '../../engine/store/sqlite/connection';
import { RedirectQueries } from '../../engine/store/sqlite/queries/redirect-queries';
import { CrawlService } from '../../app/services/crawl-service';
import { LINK_RULE_CODES, linkRuleSql } from '../../engine/store/sqlite/link-codes';
import { DuplicateQueries } from '../../engine/store/sqlite/queries/duplicate-queries';

let fixtures: FixtureServer;
beforeAll(async () => {
  fixtures = await startFixtureServer();
});
afterAll(async () => {
  await fixtures?.stop();
});

interface Crawled {
  db: WritableDB;
  crawlId: number;
  summary: CrawlSummary;
  /** Paths the fixture server was asked for on the host, in order. */
  requested: string[];
  url(path: string): { state: string; code: string | null } | undefined;
  page(path: string): Record<string, unknown> | undefined;
}

async function crawl(host: string, settings: Partial<CrawlSettings> = {}): Promise<Crawled> {
  const { db, crawlId, summary, requests } = await crawlFixtures(fixtures, [`http://${host}/`], settings);
  const origin = `http://${host}`;
  return {
    db,
    crawlId,
    summary,
    requested: requests.filter((r) => r.host === host).map((r) => r.path),
    url: (path) => db.prepare(`SELECT state, error_code AS code FROM urls WHERE crawl_id = ? AND url = ?`).get(crawlId, origin + path) as { state: string; code: string | null } | undefined,
    page: (path) =>
      db.prepare(`SELECT p.* FROM pages p JOIN urls u ON u.id = p.url_id WHERE u.crawl_id = ? AND u.url = ?`).get(crawlId, origin + path) as Record<string, unknown> | undefined,
  };
}

describe('fixture web: what a user sees for each edge case', () => {
  it('redirect chains are recorded hop by hop, each hop a URL with its 3xx status; a loop and an over-long chain are errors', async () => {
    const c = await crawl('redirects.test');
    const id = (path: string) => c.db.prepare(`SELECT id FROM urls WHERE crawl_id = ? AND url = ?`).pluck().get(c.crawlId, `http://redirects.test${path}`) as number;
    expect(c.url('/chain/1')).toEqual({ state: 'done', code: null });
    expect(c.page('/chain/1')).toMatchObject({ final_url: 'http://redirects.test/chain/1', http_status: 302, location: 'http://redirects.test/chain/2' });
    const chain = new RedirectQueries(c.db).chain(c.crawlId, id('/chain/1'));
    expect(chain.map((hop) => [hop.url.replace('http://redirects.test', ''), hop.status])).toEqual([
      ['/chain/1', 302],
      ['/chain/2', 307],
      ['/chain/3', 308],
      ['/final.html', 200],
    ]);
    // The loop ends at the URL-seen test: /loop/b's target /loop/a is earlier in its own chain.
    expect(c.url('/loop/a')).toEqual({ state: 'done', code: null });
    expect(c.url('/loop/b')).toEqual({ state: 'error', code: 'REDIRECT_LOOP' });
    // /long/0 … /long/10 are 10 redirects deep at most; /long/11 would be the 11th.
    expect(c.url('/long/10')).toEqual({ state: 'done', code: null });
    expect(c.url('/long/11')).toEqual({ state: 'error', code: 'REDIRECT_LIMIT' });
    expect(c.requested).not.toContain('/long/11');
    expect(c.requested).not.toContain('/long/12');
    // Every hop requested once.
    expect(c.requested.length).toBe(new Set(c.requested).size);
  });

  it('a shorter maxRedirects ends a chain sooner, and maxRedirects 0 refuses every redirect target unfetched', async () => {
    const three = await crawl('redirects.test', { maxRedirects: 3 });
    expect(three.url('/long/3')).toEqual({ state: 'done', code: null });
    expect(three.url('/long/4')).toEqual({ state: 'error', code: 'REDIRECT_LIMIT' });
    const none = await crawl('redirects.test', { maxRedirects: 0 });
    expect(none.url('/chain/2')).toEqual({ state: 'error', code: 'REDIRECT_LIMIT' });
    expect(none.requested).not.toContain('/chain/2');
  });

  it('robots.txt: a disallowed URL is never requested; Allow wins for its path; robots.txt is fetched once; Crawl-delay spaces requests', async () => {
    const c = await crawl('robots.test');
    expect(c.requested).not.toContain('/private/secret.html');
    expect(c.url('/private/secret.html')).toEqual({ state: 'blocked', code: 'ROBOTS_DISALLOWED' });
    expect(c.url('/private/public.html')).toEqual({ state: 'done', code: null });
    expect(c.requested.filter((p) => p === '/robots.txt')).toHaveLength(1);
    expect(c.requested[0]).toBe('/robots.txt');
    const pages = fixtures.requests.filter((r) => r.host === 'robots.test' && r.path !== '/robots.txt').slice(-3);
    for (let i = 1; i < pages.length; i += 1) expect(pages[i]!.startedAtMs - pages[i - 1]!.endedAtMs).toBeGreaterThanOrEqual(195);
    // Blocked by robots.txt is not an error.
    expect(c.summary).toMatchObject({ errors: 0, blocked: 1 });
  });

  it('robots.txt answering 500: the host counts as disallowed, robots.txt is retried, then its URLs end as errors without being requested', async () => {
    const c = await crawl('robots500.test', { robotsRetryDelayMs: 50 });
    expect(c.requested.every((p) => p === '/robots.txt')).toBe(true);
    expect(c.requested.length).toBe(4);
    expect(c.url('/')).toEqual({ state: 'error', code: 'ROBOTS_UNAVAILABLE' });
    expect(c.db.prepare(`SELECT error_reason FROM urls WHERE crawl_id = ?`).pluck().get(c.crawlId)).toContain('HTTP 500');
    expect(c.summary.status).toBe('finished');
  });

  it('robots.txt answering 404: everything is allowed', async () => {
    const c = await crawl('robots404.test');
    expect(c.summary).toMatchObject({ fetched: 2, errors: 0 });
  });

  it('ignoring robots (obeyRobots off) never asks for robots.txt', async () => {
    const c = await crawl('robots.test', { obeyRobots: false });
    expect(c.requested).not.toContain('/robots.txt');
    expect(c.requested).toContain('/private/secret.html');
  });

  it('a crawler trap (endless calendar) ends at the depth limit, the refused link counted', async () => {
    // The trap guard off: this test is about the depth limit (the guard would hold the calendar first).
    const c = await crawl('trap.test', { maxDepth: 10, trapGuard: false });
    expect(c.summary).toMatchObject({ status: 'finished', fetched: 11 });
    expect(c.db.prepare(`SELECT COUNT(*) FROM links WHERE crawl_id = ? AND refused_by = ${LINK_RULE_CODES['max-depth']}`).pluck().get(c.crawlId)).toBe(1);
  });

  it('session ids and tracking parameters do not multiply pages: the standard profile gives them one key', async () => {
    const c = await crawl('session.test');
    const fetched = c.requested.filter((p) => p !== '/robots.txt');
    expect(fetched.filter((p) => p.startsWith('/item'))).toHaveLength(1);
    expect(fetched.filter((p) => p.startsWith('/other'))).toHaveLength(1);
    expect(fetched.filter((p) => p === '/' || p.startsWith('/?'))).toHaveLength(1);
  });

  it('hostile responses fail alone: slow → TIMEOUT, reset → CONNECTION_RESET, 50 MB body and gzip bomb stop at the cap, binary-as-HTML is recorded', async () => {
    const c = await crawl('hostile.test', { timeoutMs: 1_000, maxRetries: 0, maxBodyBytes: 1024 * 1024 });
    expect(c.url('/slow')).toEqual({ state: 'error', code: 'TIMEOUT' });
    expect(c.url('/reset')!.code).toMatch(/^(CONNECTION_RESET|FETCH_FAILED)$/);
    expect(c.page('/huge')).toMatchObject({ truncated: 1, body_bytes: 1024 * 1024 });
    expect(c.page('/bomb')).toMatchObject({ truncated: 1, body_bytes: 1024 * 1024 });
    expect(c.url('/binary.html')).toEqual({ state: 'done', code: null });
    expect(c.summary.status).toBe('finished');
  });

  it('windows-1252 and Shift_JIS pages decode correctly (titles as a user reads them)', async () => {
    const c = await crawl('charset.test');
    expect(c.page('/cp1252.html')!['title']).toBe('“Quoted” €5');
    expect(c.page('/sjis.html')!['title']).toBe('日本語');
  });

  it('a page with 100,000 links is parsed whole and its links enter the frontier', async () => {
    const c = await crawl('links.test', { maxPages: 1 });
    expect(c.db.prepare(`SELECT COUNT(*) FROM urls WHERE crawl_id = ?`).pluck().get(c.crawlId)).toBe(100_001);
    expect(c.summary).toMatchObject({ fetched: 1, status: 'stopped' });
  });

  it('frames and iframes (src and href) are followed', async () => {
    const c = await crawl('frames.test');
    for (const path of ['/left.html', '/right.html', '/inner.html', '/legacy.html']) expect(c.url(path), path).toEqual({ state: 'done', code: null });
  });

  it('meta robots nofollow: links are not followed and counted; rogue mode follows them', async () => {
    const obeyed = await crawl('nofollow.test');
    expect(obeyed.url('/hidden.html')).toBeUndefined();
    expect(obeyed.db.prepare(`SELECT ${linkRuleSql('refused_by')} FROM links WHERE crawl_id = ?`).pluck().all(obeyed.crawlId)).toEqual(['nofollow']);
    const rogue = await crawl('nofollow.test', { obeyNofollow: false });
    expect(rogue.url('/hidden.html')).toEqual({ state: 'done', code: null });
  });

  it('429 with Retry-After: the URL is retried after the wait and then fetched', async () => {
    const c = await crawl('busy.test');
    expect(c.url('/')).toEqual({ state: 'done', code: null });
    const hits = fixtures.requests.filter((r) => r.host === 'busy.test' && r.path === '/').slice(-2);
    expect(hits).toHaveLength(2);
    expect(hits[1]!.startedAtMs - hits[0]!.endedAtMs).toBeGreaterThanOrEqual(995);
  });

  it('politeness: one connection per host and at least minDelayMs between requests, redirect hops included', async () => {
    const before = fixtures.requests.length;
    const c = await crawl('site.test', { minDelayMs: 150, maxInFlightPerHost: 1, threads: 4 });
    const seen = fixtures.requests.slice(before).filter((r) => r.host === 'site.test');
    // Every page and error (the /old -> /new.html redirect is two of them), robots.txt and the
    // /sitemap.xml probe (sitemaps auto: it holds one of the host's slots and keeps its delay like a page).
    expect(seen.length).toBe(c.summary.fetched + c.summary.errors + 2);
    expect(seen.filter((r) => r.path === '/sitemap.xml')).toHaveLength(1);
    expect(Math.max(...seen.map((r) => r.concurrentForHost))).toBe(1);
    for (let i = 1; i < seen.length; i += 1) expect(seen[i]!.startedAtMs - seen[i - 1]!.endedAtMs, `gap before ${seen[i]!.path}`).toBeGreaterThanOrEqual(148);
  });

  it('politeness: with two connections allowed per host, a host with slow pages gets exactly two at once, never more', async () => {
    for (const perHost of [1, 2]) {
      const before = fixtures.requests.length;
      // The trap guard off: its 20 identical "leaf" pages under /s/{n} are near-identical pages of one template.
      await crawl('slowpages.test', { maxInFlightPerHost: perHost, threads: 8, trapGuard: false });
      const seen = fixtures.requests.slice(before).filter((r) => r.host === 'slowpages.test' && r.path !== '/robots.txt');
      // 21 pages and the /sitemap.xml probe, which counts against the host's connections like a page.
      expect(seen.length).toBe(22);
      expect(Math.max(...seen.map((r) => r.concurrentForHost)), `maxInFlightPerHost ${perHost}`).toBe(perHost);
    }
  });

  it('a giant host does not starve a small one: both are crawled side by side', async () => {
    const db = openDatabase(':memory:');
    const service = new CrawlService(db);
    const before = fixtures.requests.length;
    const overrides = fixtureOverrides(fixtures);
    const { done } = service.start(['http://links.test/', 'http://slowpages.test/'], { hostOverrides: overrides, closedResolver: true, delayFactor: 0, maxPages: 60, threads: 4, trapGuard: false });
    await done;
    const seen = fixtures.requests.slice(before).filter((r) => r.path !== '/robots.txt');
    const firstSlowIndex = seen.findIndex((r) => r.host === 'slowpages.test' && r.path !== '/');
    expect(firstSlowIndex).toBeGreaterThan(-1);
    // The small host's second page comes early, not after the 100,000-link host drained.
    expect(firstSlowIndex).toBeLessThan(10);
    db.close();
  });
});

describe('fixture web: duplicate content (seed 003 content-seen test)', () => {
  it('groups exact duplicates by fingerprint and near-duplicates by MinHash, leaving unrelated pages alone', async () => {
    const c = await crawl('dup.test');
    const groups = c.db
      .prepare(
        `SELECT g.kind AS kind, group_concat(substr(u.url, length('http://dup.test') + 1), ' ') AS members, min(m.similarity) AS minSimilarity
         FROM content_groups g JOIN content_group_members m ON m.group_id = g.id JOIN urls u ON u.id = m.url_id
         WHERE g.crawl_id = ? GROUP BY g.id ORDER BY g.kind`,
      )
      .all(c.crawlId) as { kind: string; members: string; minSimilarity: number }[];
    expect(groups.map((g) => ({ kind: g.kind, members: g.members.split(' ').sort() }))).toEqual([
      { kind: 'exact', members: ['/a-copy.html', '/a.html'] },
      { kind: 'near', members: ['/near-1.html', '/near-2.html'] },
    ]);
    expect(groups[1]!.minSimilarity).toBeGreaterThanOrEqual(0.9);
    expect(groups[1]!.minSimilarity).toBeLessThan(1);
    expect(c.db.prepare(`SELECT COUNT(DISTINCT fingerprint) FROM pages WHERE crawl_id = ?`).pluck().get(c.crawlId)).toBe(5);
  });

  it('a stricter threshold than the pair reaches keeps the near-duplicates apart', async () => {
    const c = await crawl('dup.test', { nearDuplicateThreshold: 1 });
    expect(c.db.prepare(`SELECT kind FROM content_groups WHERE crawl_id = ?`).pluck().all(c.crawlId)).toEqual(['exact']);
  });
});

describe('fixture web: page texts for near-duplicate diffs', () => {
  it('keeps each page\'s normalized text up to pageTextChars, and none when it is 0', async () => {
    const urlIdOf = (c: { db: WritableDB; crawlId: number }, url: string) => c.db.prepare(`SELECT id FROM urls WHERE crawl_id = ? AND url = ?`).pluck().get(c.crawlId, url) as number;
    const kept = await crawl('dup.test', { pageTextChars: 40 });
    const text = new DuplicateQueries(kept.db).pageText(urlIdOf(kept, 'http://dup.test/near-1.html'))!;
    expect(text).toHaveLength(40);
    expect(text).toMatch(/^term/);
    // Longer texts are read back whole, from DEFLATE-packed blocks (page-text-codec.ts).
    const long = await crawl('dup.test', { pageTextChars: 2_000 });
    const unpacked = new DuplicateQueries(long.db).pageText(urlIdOf(long, 'http://dup.test/near-1.html'))!;
    expect(unpacked.startsWith(text)).toBe(true);
    expect(unpacked.length).toBeGreaterThan(text.length);
    expect(long.db.prepare(`SELECT COUNT(*) FROM page_text_blocks WHERE crawl_id = ?`).pluck().get(long.crawlId)).toBeGreaterThan(0);
    const none = await crawl('dup.test', { pageTextChars: 0 });
    expect(none.db.prepare(`SELECT COUNT(*) FROM page_text_blocks WHERE crawl_id = ?`).pluck().get(none.crawlId)).toBe(0);
    expect(new DuplicateQueries(none.db).pageText(urlIdOf(none, 'http://dup.test/near-1.html'))).toBeNull();
  });
});
