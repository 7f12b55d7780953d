import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixtureOverrides } from './harness';
import { CrawlService } from '../../app/services/crawl-service';
import { openDatabase } from '../../engine/store/sqlite/connection';
import { startFixtureServer, type FixtureServer } from '../../testweb/fixture-server';

let fixtures: FixtureServer;
beforeAll(async () => {
  fixtures = await startFixtureServer();
});
afterAll(async () => {
  await fixtures?.stop();
});

const overrides = () => fixtureOverrides(fixtures);
/** Hosts asked for /robots.txt since request `since`, with how often. */
const robotsRequests = (since: number): Map<string, number> => {
  const counts = new Map<string, number>();
  for (const r of fixtures.requests.slice(since)) if (r.path === '/robots.txt') counts.set(r.host, (counts.get(r.host) ?? 0) + 1);
  return counts;
};
const pageRequests = (since: number, host: string) => fixtures.requests.slice(since).filter((r) => r.host === host && r.path !== '/robots.txt').length;

describe('robots.txt kept with the crawl (issue 15: a resume does not ask every host again)', () => {
  it('a crawl stopped at its page limit and resumed asks no host for robots.txt again within the TTL', async () => {
    const db = openDatabase(':memory:');
    const service = new CrawlService(db);
    const hosts = ['site.test', 'robots.test', 'redirects.test', 'dup.test'];
    const first = fixtures.requests.length;
    const { crawlId, done } = service.start(
      hosts.map((host) => `http://${host}/`),
      { hostOverrides: overrides(), closedResolver: true, delayFactor: 0, maxPages: 6 },
    );
    expect((await done).status).toBe('stopped');
    const askedFirst = robotsRequests(first);
    expect([...askedFirst.keys()].sort()).toEqual([...hosts].sort());
    const stored = db.prepare(`SELECT origin, status FROM robots_txt WHERE crawl_id = ? ORDER BY origin`).all(crawlId);
    // robots.test has one; the others answer 404 (no rules), which is kept just the same.
    expect(stored).toEqual([
      { origin: 'http://dup.test', status: 404 },
      { origin: 'http://redirects.test', status: 404 },
      { origin: 'http://robots.test', status: 200 },
      { origin: 'http://site.test', status: 404 },
    ]);

    const second = fixtures.requests.length;
    const again = await service.resume(crawlId, { maxPages: 0 }).done;
    expect(again.status).toBe('finished');
    // The resumed run did fetch pages on those hosts, and still asked none of them for robots.txt.
    expect(hosts.filter((host) => pageRequests(second, host) > 0).length).toBeGreaterThanOrEqual(2);
    expect(robotsRequests(second)).toEqual(new Map());
    // robots.test's rules still apply from the stored copy: its disallowed page was never requested.
    expect(fixtures.requests.slice(first).filter((r) => r.host === 'robots.test' && r.path.startsWith('/private/secret'))).toEqual([]);
    expect(db.prepare(`SELECT state, error_code AS code FROM urls WHERE crawl_id = ? AND url LIKE 'http://robots.test/private/%' ORDER BY url`).all(crawlId)).toContainEqual({ state: 'blocked', code: 'ROBOTS_DISALLOWED' });
    db.close();
  });

  it('a stored robots.txt past its expiry is fetched again on resume, and the new copy replaces it', async () => {
    const db = openDatabase(':memory:');
    const service = new CrawlService(db);
    const { crawlId, done } = service.start(['http://site.test/'], { hostOverrides: overrides(), closedResolver: true, delayFactor: 0, maxPages: 2 });
    expect((await done).status).toBe('stopped');
    const before = db.prepare(`SELECT fetched_at_ms AS fetchedAtMs, expires_at_ms AS expiresAtMs FROM robots_txt WHERE crawl_id = ? AND origin = 'http://site.test'`).get(crawlId) as { fetchedAtMs: number; expiresAtMs: number };
    expect(before.expiresAtMs - before.fetchedAtMs).toBe(24 * 3_600_000);
    // Expired: as if the crawl had been left for longer than robotsCacheTtlMs.
    db.prepare(`UPDATE robots_txt SET fetched_at_ms = fetched_at_ms - 86400000, expires_at_ms = fetched_at_ms - 86400000 + 86400000 - 1 WHERE crawl_id = ?`).run(crawlId);
    const since = fixtures.requests.length;
    await service.resume(crawlId, { maxPages: 0 }).done;
    expect(robotsRequests(since)).toEqual(new Map([['site.test', 1]]));
    const after = db.prepare(`SELECT fetched_at_ms AS fetchedAtMs FROM robots_txt WHERE crawl_id = ? AND origin = 'http://site.test'`).pluck().get(crawlId) as number;
    expect(after).toBeGreaterThan(before.fetchedAtMs - 1);
    db.close();
  });

  it('a shorter robotsCacheTtlMs on resume shortens what the stored copies are trusted for', async () => {
    const db = openDatabase(':memory:');
    const service = new CrawlService(db);
    const { crawlId, done } = service.start(['http://site.test/'], { hostOverrides: overrides(), closedResolver: true, delayFactor: 0, maxPages: 2 });
    await done;
    // Fetched "an hour ago" (still within the 24 h it was stored with), resumed with a 1 s TTL.
    db.prepare(`UPDATE robots_txt SET fetched_at_ms = fetched_at_ms - 3600000 WHERE crawl_id = ?`).run(crawlId);
    const since = fixtures.requests.length;
    await service.resume(crawlId, { maxPages: 0, robotsCacheTtlMs: 1_000 }).done;
    expect(robotsRequests(since)).toEqual(new Map([['site.test', 1]]));
    db.close();
  });
});
