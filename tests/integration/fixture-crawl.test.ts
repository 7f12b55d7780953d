import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixtureOverrides } from './harness';
import { startFixtureServer, type FixtureServer } from '../../testweb/fixture-server';
import { openDatabase } from '../../engine/store/sqlite/connection';
import { CrawlService } from '../../app/services/crawl-service';
import { PROFILES } from '../../shared/url';
import { LINK_RULE_CODES, linkKindSql, linkRuleSql } from '../../engine/store/sqlite/link-codes';

let fixtures: FixtureServer;
beforeAll(async () => {
  fixtures = await startFixtureServer();
});
afterAll(async () => {
  await fixtures?.stop();
});

function crawlSite(settings: Record<string, unknown> = {}) {
  const db = openDatabase(':memory:');
  const service = new CrawlService(db);
  const overrides = fixtureOverrides(fixtures);
  const started = service.start(['http://site.test/'], { hostOverrides: overrides, closedResolver: true, delayFactor: 0, ...settings });
  return { db, started };
}

describe('crawling the fixture site (site.test)', () => {
  it('fetches exactly the pages reachable in scope, resolving <base href> and recording redirects and errors', async () => {
    const requestsBefore = fixtures.requests.length;
    const { db, started } = crawlSite();
    const summary = await started.done;
    const urls = db.prepare(`SELECT url, state, error_code AS code FROM urls WHERE crawl_id = ? ORDER BY url`).all(started.crawlId);
    expect(urls).toEqual([
      { url: 'http://site.test/', state: 'done', code: null },
      { url: 'http://site.test/a.html', state: 'done', code: null },
      { url: 'http://site.test/b.html', state: 'done', code: null },
      { url: 'http://site.test/docs/', state: 'done', code: null },
      { url: 'http://site.test/docs/guide/intro.html', state: 'done', code: null },
      { url: 'http://site.test/missing.html', state: 'error', code: 'HTTP_404' },
      { url: 'http://site.test/new.html', state: 'done', code: null },
      { url: 'http://site.test/old', state: 'done', code: null },
    ]);
    // The redirect /old -> /new.html is two URLs: the 301 hop and its target, each fetched once.
    expect(summary).toMatchObject({ status: 'finished', fetched: 7, errors: 1, queued: 0 });
    const redirect = db
      .prepare(`SELECT p.final_url AS finalUrl, p.http_status AS status, p.location, p.redirect_chain_json AS chain FROM pages p JOIN urls u ON u.id = p.url_id WHERE u.url = 'http://site.test/old'`)
      .get();
    expect(redirect).toEqual({ finalUrl: 'http://site.test/old', status: 301, location: 'http://site.test/new.html', chain: null });
    const hop = db.prepare(`SELECT t.url, t.depth, ${linkKindSql('l.kind')} AS kind FROM links l JOIN urls f ON f.id = l.from_url_id JOIN urls t ON t.id = l.to_url_id WHERE f.url = 'http://site.test/old'`).get();
    expect(hop).toEqual({ url: 'http://site.test/new.html', depth: 1, kind: 'redirect' });
    // The offsite link was refused by scope and never requested (closed mode would refuse it anyway).
    const hosts = new Set(fixtures.requests.slice(requestsBefore).map((r) => r.host));
    expect([...hosts]).toEqual(['site.test']);
    db.close();
  });

  it('counts every refused link by rule: offsite by scope, mailto/javascript by protocol', async () => {
    const { db, started } = crawlSite();
    await started.done;
    const counts = db.prepare(`SELECT ${linkRuleSql('refused_by')} AS rule, COUNT(*) AS n FROM links WHERE crawl_id = ? AND refused_by IS NOT NULL GROUP BY 1 ORDER BY 1`).all(started.crawlId);
    expect(counts).toEqual([
      { rule: 'protocol', n: 2 },
      { rule: 'scope', n: 1 },
    ]);
    db.close();
  });

  it('keeps each raw spelling of a URL once as an alias of its normalized key, a #fragment spelling counted on the spelling without it', async () => {
    const { db, started } = crawlSite();
    await started.done;
    const aliases = db
      .prepare(`SELECT a.raw_url AS rawUrl, a.fragment_spellings AS fragments FROM url_aliases a JOIN urls u ON u.id = a.url_id WHERE u.crawl_id = ? AND u.normalized LIKE '%/b.html' ORDER BY a.raw_url`)
      .all(started.crawlId);
    // Met as b.html#part (the home page) and ./b.html (a.html): one spelling, one fragment spelling (issue 15).
    expect(aliases).toEqual([{ rawUrl: 'http://site.test/b.html', fragments: 1 }]);
    db.close();
  });

  it('keeps fragment variants apart under a profile that keeps fragments (safe)', async () => {
    const { db, started } = crawlSite({ normalizationProfile: PROFILES.safe });
    await started.done;
    const rows = db.prepare(`SELECT normalized, url, state FROM urls WHERE crawl_id = ? AND url LIKE '%/b.html' ORDER BY normalized`).all(started.crawlId);
    // Two URLs by the profile's rules, both fetched from the fragment-free address.
    expect(rows).toEqual([
      { normalized: 'http://site.test/b.html', url: 'http://site.test/b.html', state: 'done' },
      { normalized: 'http://site.test/b.html#part', url: 'http://site.test/b.html', state: 'done' },
    ]);
    db.close();
  });

  it('refuses links with an ignored extension and counts them, when the list names it', async () => {
    const { db, started } = crawlSite({ ignoredExtensions: 'html' });
    const summary = await started.done;
    const counts = db.prepare(`SELECT COUNT(*) FROM links WHERE crawl_id = ? AND refused_by = ${LINK_RULE_CODES['ignored-extension']}`).pluck().get(started.crawlId);
    expect(counts).toBeGreaterThanOrEqual(3);
    // Only the root, /docs/ and /old (no .html extension) are fetched.
    expect(summary.fetched).toBe(3);
    db.close();
  });

  it('stops at maxPages', async () => {
    const { db, started } = crawlSite({ maxPages: 2 });
    const summary = await started.done;
    expect(summary.fetched + summary.errors).toBe(2);
    expect(summary.queued).toBeGreaterThan(0);
    // Work is left, so the crawl is stopped (resumable), not finished.
    expect(summary.status).toBe('stopped');
    db.close();
  });
});
