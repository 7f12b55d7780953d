/**
 * Issue 12 parts 2 and 3 end to end, crawling testweb/scope-sites/rules.ts: list mode fetches
 * exactly its list (and the list's redirects), seeds only fetches the seeds, include / exclude URL
 * patterns refuse links counted by rule, and per-link rel nofollow / ugc / sponsored links are not
 * fetched unless followNofollowLinks says so.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { crawlFixtures, fixtureOverrides } from './harness';
import { CrawlService } from '../../app/services/crawl-service';
import { crawlCommand } from '../../cli/commands/crawl';
import { openDatabase } from '../../engine/store/sqlite/connection';
import type { WritableDB } from '../../engine/store/sqlite/database';
import { LINK_RULE_CODES } from '../../engine/store/sqlite/link-codes';
import { urlSourcesOf } from '../../shared/types/url-sources';
import type { CrawlProgress, CrawlSettings } from '../../shared/types/crawl';
import { parseUrlList } from '../../shared/url/url-list';
import { startFixtureServer, type FixtureServer } from '../../testweb/fixture-server';
import { RULES_SITES, SHOP_PRODUCTS } from '../../testweb/scope-sites/rules';

let fixtures: FixtureServer;
beforeAll(async () => {
  fixtures = await startFixtureServer(RULES_SITES, { dynamic: () => undefined });
});
afterAll(async () => {
  await fixtures?.stop();
});


interface Crawled {
  db: WritableDB;
  crawlId: number;
  progress: CrawlProgress;
  /** `host + path` of every page request (robots.txt and the /sitemap.xml probe aside), in order. */
  requested: string[];
}

async function crawl(seeds: string[], settings: Partial<CrawlSettings> = {}): Promise<Crawled> {
  const { db, crawlId, progress, requests } = await crawlFixtures(fixtures, seeds, settings);
  const requested = requests
    .filter((r) => r.path !== '/robots.txt' && r.path !== '/sitemap.xml')
    .map((r) => `${r.host}${r.path}`);
  return { db, crawlId, progress: progress!, requested };
}

/** Refused link rows stored under `rule`, as `from → raw` pairs. */
function refusedLinks(db: WritableDB, crawlId: number, rule: keyof typeof LINK_RULE_CODES): string[] {
  return db
    .prepare(`SELECT u.url || ' → ' || l.raw_url FROM links l JOIN urls u ON u.id = l.from_url_id WHERE l.crawl_id = ? AND l.refused_by = ? ORDER BY l.id`)
    .pluck()
    .all(crawlId, LINK_RULE_CODES[rule]) as string[];
}

describe('list mode (crawlMode: list)', () => {
  it('fetches exactly the listed URLs and their redirects, stores their links refused by list-mode, and counts them', async () => {
    const list = parseUrlList(`# products to check
http://shop.test/products/2.html
http://shop.test/products/5.html

  # a moved product and a moved page on another host
http://shop.test/old-product
http://shop.test/moved
http://shop.test/missing.html
`);
    expect(list.ok).toBe(true);
    const firstRequest = fixtures.requests.length;
    const { db, crawlId, progress, requested } = await crawl(list.ok ? list.value : [], { crawlMode: 'list' });
    // Each listed URL once, each redirect target once (products/3 via old-product, the landing page on shop-new.test), nothing else.
    expect([...requested].sort()).toEqual(
      ['shop.test/products/2.html', 'shop.test/products/5.html', 'shop.test/old-product', 'shop.test/products/3.html', 'shop.test/moved', 'shop-new.test/landing.html', 'shop.test/missing.html'].sort(),
    );
    // Two links on each fetched product page, one on the landing page: stored, refused by list-mode, counted.
    expect(progress.refusedByRule['list-mode']).toBe(7);
    expect(refusedLinks(db, crawlId, 'list-mode')).toEqual(
      expect.arrayContaining(['http://shop.test/products/2.html → http://shop.test/products/3.html', 'http://shop-new.test/landing.html → http://shop-new.test/elsewhere.html']),
    );
    expect(refusedLinks(db, crawlId, 'list-mode')).toHaveLength(7);
    const states = db.prepare(`SELECT state, COUNT(*) AS n FROM urls WHERE crawl_id = ? GROUP BY state ORDER BY state`).all(crawlId);
    // 4 listed + 2 redirect targets done, missing.html failed with its 404; no link entered the frontier.
    expect(states).toEqual([{ state: 'done', n: 6 }, { state: 'error', n: 1 }]);
    // Listed URLs record the source `list`, redirect targets `redirect`; list mode reads no sitemap.
    const sources = db.prepare(`SELECT url, sources FROM urls WHERE crawl_id = ?`).all(crawlId) as { url: string; sources: number }[];
    const sourcesOf = (url: string) => urlSourcesOf(sources.find((row) => row.url === url)!.sources);
    expect(sourcesOf('http://shop.test/products/2.html')).toEqual(['list']);
    expect(sourcesOf('http://shop.test/products/3.html')).toEqual(['redirect']);
    expect(fixtures.requests.slice(firstRequest).filter((r) => r.path === '/sitemap.xml')).toEqual([]);
    db.close();
  });

  it('seeds only: crawlMode list over the seeds fetches the seeds and nothing they link to', async () => {
    const { db, progress, requested } = await crawl(['http://shop.test/', 'http://rel.test/'], { crawlMode: 'list' });
    expect([...requested].sort()).toEqual(['rel.test/', 'shop.test/']);
    // shop.test/ has 5 links; rel.test/ has 7, of which 3 nofollow links are still counted as list-mode (it comes first).
    expect(progress.refusedByRule).toEqual({ 'list-mode': 12 });
    db.close();
  });

  it('crawlbench crawl --list FILE fetches the file\'s URLs; a bad line is a coded error naming its line number', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'crawlbench-list-'));
    try {
      const io = () => {
        const stdout = new PassThrough();
        const stderr = new PassThrough();
        let err = '';
        stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
        return { io: { stdin: new PassThrough(), stdout, stderr }, stderr: () => err };
      };
      const resolve = fixtureOverrides(fixtures).flatMap((o) => ['--resolve', `${o.host}=${o.address}:${o.port}`]);
      const listFile = path.join(dir, 'urls.txt');
      fs.writeFileSync(listFile, '# two pages\nhttp://shop.test/about.html\nhttp://shop.test/blog/launch.html\n');
      const before = fixtures.requests.length;
      const good = io();
      const status = await crawlCommand(['--list', listFile, '--db', path.join(dir, 'list.db'), ...resolve, '--closed', '--delay-factor', '0'], good.io);
      expect(status, good.stderr()).toBe(0);
      expect(good.stderr()).toContain('list mode: fetching 2 URLs');
      const paths = fixtures.requests.slice(before).filter((r) => r.path !== '/robots.txt').map((r) => r.path).sort();
      expect(paths).toEqual(['/about.html', '/blog/launch.html']);

      fs.writeFileSync(listFile, 'http://shop.test/about.html\n\n# fine so far\nshop.test/no-scheme.html\n');
      const bad = io();
      expect(await crawlCommand(['--list', listFile, '--db', path.join(dir, 'bad.db')], bad.io)).toBe(2);
      expect(bad.stderr()).toMatch(/^crawlbench: INVALID_URL_LIST: --list .*urls\.txt: Line 4: "shop\.test\/no-scheme\.html" is not an absolute URL/);
      const missing = io();
      expect(await crawlCommand(['--list', path.join(dir, 'nope.txt'), '--db', path.join(dir, 'bad.db')], missing.io)).toBe(2);
      expect(missing.stderr()).toMatch(/^crawlbench: URL_LIST_UNREADABLE: --list .*nope\.txt: no such file/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('include / exclude URL patterns', () => {
  it('follows only links matching an include pattern, refuses those matching an exclude pattern, and counts each by its rule', async () => {
    const { db, crawlId, progress, requested } = await crawl(['http://shop.test/'], {
      includeUrlPatterns: ['^http://shop\\.test/products/', '/cart'],
      excludeUrlPatterns: ['[?&]session='],
    });
    const products = Array.from({ length: SHOP_PRODUCTS }, (_, i) => `shop.test/products/${i + 1}.html`);
    expect([...requested].sort()).toEqual(['shop.test/', ...products].sort());
    // Not included: blog and about on the home page, the reviews link of every product page, the last product's link home.
    expect(progress.refusedByRule['include-pattern']).toBe(2 + SHOP_PRODUCTS + 1);
    // Included but excluded: the sale product and the cart, both carrying ?session=.
    expect(progress.refusedByRule['exclude-pattern']).toBe(2);
    expect(refusedLinks(db, crawlId, 'exclude-pattern')).toEqual(['http://shop.test/ → http://shop.test/products/sale.html?session=42', 'http://shop.test/ → http://shop.test/cart?session=42']);
    db.close();
  });

  it('refuses a pattern that needs backtracking at start with INVALID_URL_REGEX naming it, before any crawl is stored', () => {
    const db = openDatabase(':memory:');
    const service = new CrawlService(db);
    expect(() => service.start(['http://shop.test/'], { excludeUrlPatterns: ['/ok/', '(\\w+)/\\1'] })).toThrow(
      expect.objectContaining({ code: 'INVALID_URL_REGEX', message: expect.stringMatching(/^--exclude pattern "\(\\\\w\+\)\/\\\\1": This regular expression needs backtracking \(backreferences/) }),
    );
    expect(db.prepare('SELECT COUNT(*) FROM crawls').pluck().get()).toBe(0);
    db.close();
  });
});

describe('per-link rel="nofollow" (and ugc, sponsored)', () => {
  it('does not fetch links marked nofollow, ugc or sponsored by default, counting them as link-nofollow', async () => {
    const { db, crawlId, progress, requested } = await crawl(['http://rel.test/']);
    expect([...requested].sort()).toEqual(['rel.test/', 'rel.test/near-miss.html', 'rel.test/noopener.html', 'rel.test/plain.html']);
    expect(progress.refusedByRule['link-nofollow']).toBe(4);
    expect(refusedLinks(db, crawlId, 'link-nofollow').map((link) => link.split(' → ')[1])).toEqual([
      'http://rel.test/nofollow.html',
      'http://rel.test/comment.html',
      'http://rel.test/ad.html',
      'http://rel.test/map-area.html',
    ]);
    db.close();
  });

  it('follows them, and what lies behind them, with followNofollowLinks', async () => {
    const { db, progress, requested } = await crawl(['http://rel.test/'], { followNofollowLinks: true });
    expect(requested).toHaveLength(9);
    expect(requested).toEqual(expect.arrayContaining(['rel.test/nofollow.html', 'rel.test/behind-nofollow.html', 'rel.test/comment.html', 'rel.test/ad.html', 'rel.test/map-area.html']));
    expect(progress.refusedByRule['link-nofollow']).toBeUndefined();
    db.close();
  });
});
