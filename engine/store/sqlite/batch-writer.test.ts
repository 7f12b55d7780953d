import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_CRAWL_SETTINGS } from '../../../shared/types/crawl';
import { aliasWrite } from '../../links/aliases';
import type { FrontierCandidate, LinkWrite, PageRow, PageWrite } from '../ports';
import { openDatabase } from './connection';
import { CrawlRepository, LINK_ROWS_PER_INSERT } from './crawl-repository';
import { createSqliteCrawlStores } from './crawl-stores';
import type { WritableDB } from './database';
import { DuplicateQueries } from './queries/duplicate-queries';
import { InspectorQueries } from './queries/inspector-queries';

const candidate = (url: string, key: string): FrontierCandidate => ({ url, normalized: key, normalizedKey: key, host: 'a.test', registrableDomain: 'a.test', depth: 1, discoveredFrom: null });

describe('SqliteCrawlWriter compact links and aliases (migration 0016)', () => {
  let db: WritableDB;
  beforeEach(() => {
    db = openDatabase(':memory:');
  });
  afterEach(() => db.close());

  it('keeps a link’s text only where it differs from the stored target URL, and the inspector shows every link as written', async () => {
    const crawlId = new CrawlRepository(db).createCrawl(['http://a.test/'], DEFAULT_CRAWL_SETTINGS, 0);
    const { writer } = createSqliteCrawlStores(db, crawlId, DEFAULT_CRAWL_SETTINGS);
    await writer.commit({ nowMs: 1, candidates: [candidate('http://a.test/', 'home'), candidate('http://a.test/x', 'x')] });
    const home = new CrawlRepository(db).findUrlId(crawlId, 'home')!;
    await writer.commit({
      nowMs: 2,
      // The second spelling of x names the URL stored first (http://a.test/x).
      candidates: [candidate('http://A.test/x', 'x')],
      links: [
        { fromUrlId: home, rawUrl: 'http://a.test/x', toKey: 'x', kind: 'a', refusedBy: null, anchorText: 'Ex', rel: 'nofollow' },
        { fromUrlId: home, rawUrl: 'http://A.test/x', toKey: 'x', kind: 'canonical', refusedBy: null },
        { fromUrlId: home, rawUrl: 'http://a.test/x#part', toKey: 'x', kind: 'iframe', refusedBy: null },
        { fromUrlId: home, rawUrl: 'mailto:me@a.test', toKey: null, kind: 'a', refusedBy: 'protocol' },
      ],
    });
    expect(db.prepare(`SELECT raw_url FROM links ORDER BY id`).pluck().all()).toEqual([null, 'http://A.test/x', 'http://a.test/x#part', 'mailto:me@a.test']);
    const outlinks = new InspectorQueries(db).outlinks(crawlId, home, { offset: 0, limit: 10 });
    expect(outlinks.rows.map((row) => [row.rawUrl, row.toUrl, row.kind, row.element, row.refusedBy, row.anchorText, row.rel])).toEqual([
      ['http://a.test/x', 'http://a.test/x', 'a', 'a', null, 'Ex', 'nofollow'],
      ['http://A.test/x', 'http://a.test/x', 'canonical', 'link', null, null, null],
      ['http://a.test/x#part', 'http://a.test/x', 'iframe', 'iframe', null, null, null],
      ['mailto:me@a.test', null, 'a', 'a', 'protocol', null, null],
    ]);
    expect(outlinks.refused).toBe(1);
    const x = new CrawlRepository(db).findUrlId(crawlId, 'x')!;
    expect(new InspectorQueries(db).inlinks(crawlId, x, { offset: 0, limit: 10 }).rows.map((row) => row.rawUrl)).toEqual(['http://a.test/x', 'http://A.test/x', 'http://a.test/x#part']);
    expect(new CrawlRepository(db).refusalCounts(crawlId)).toEqual({ protocol: 1 });
  });

  it('writes a batch’s links in the order given across its multi-row inserts (two full statements and a remainder)', async () => {
    const crawlId = new CrawlRepository(db).createCrawl(['http://a.test/'], DEFAULT_CRAWL_SETTINGS, 0);
    const { writer } = createSqliteCrawlStores(db, crawlId, DEFAULT_CRAWL_SETTINGS);
    const count = 2 * LINK_ROWS_PER_INSERT + 5;
    const targets = Array.from({ length: count }, (_, index) => candidate(`http://a.test/t${index}`, `t${index}`));
    await writer.commit({ nowMs: 1, candidates: [candidate('http://a.test/', 'home'), ...targets] });
    const home = new CrawlRepository(db).findUrlId(crawlId, 'home')!;
    const links: LinkWrite[] = targets.map((target, index) =>
      index % 10 === 9
        ? { fromUrlId: home, rawUrl: `ftp://a.test/${index}`, toKey: null, kind: 'a', refusedBy: 'protocol' }
        : { fromUrlId: home, rawUrl: index % 3 === 0 ? `${target.url}?via=${index}` : target.url, toKey: target.normalizedKey, kind: index % 2 === 0 ? 'a' : 'area', refusedBy: null, anchorText: `anchor ${index}` },
    );
    await writer.commit({ nowMs: 2, links });
    const outlinks = new InspectorQueries(db).outlinks(crawlId, home, { offset: 0, limit: count + 1 });
    expect(outlinks.total).toBe(count);
    expect(outlinks.refused).toBe(Math.floor(count / 10));
    expect(outlinks.rows.map((row) => [row.rawUrl, row.kind, row.refusedBy, row.anchorText])).toEqual(links.map((link) => [link.rawUrl, link.kind, link.refusedBy, link.anchorText ?? null]));
  });

  it('stores a #fragment spelling as the spelling without it and counts it there', async () => {
    const crawlId = new CrawlRepository(db).createCrawl(['http://a.test/'], DEFAULT_CRAWL_SETTINGS, 0);
    const { writer } = createSqliteCrawlStores(db, crawlId, DEFAULT_CRAWL_SETTINGS);
    await writer.commit({
      nowMs: 1,
      candidates: [candidate('http://a.test/x', 'x')],
      aliases: ['http://a.test/x', 'http://a.test/x#a', 'http://a.test/x#b', 'http://A.test/x#c'].map((raw) => aliasWrite('x', raw, null)),
    });
    const x = new CrawlRepository(db).findUrlId(crawlId, 'x')!;
    expect(new InspectorQueries(db).aliases(x).map((row) => [row.rawUrl, row.fragmentSpellings])).toEqual([
      ['http://A.test/x', 1],
      ['http://a.test/x', 2],
    ]);
  });
});

describe('SqliteCrawlWriter page text blocks (migration 0026)', () => {
  let db: WritableDB;
  beforeEach(() => {
    db = openDatabase(':memory:');
  });
  afterEach(() => db.close());

  const pageRow = (urlId: number): PageRow => ({ urlId, finalUrl: `http://a.test/${urlId}`, httpStatus: 200, contentType: 'text/html', bodyBytes: 1, truncated: false, fetchMs: 1, title: null, location: null, fetchedAtMs: 1, fingerprint: null, minhash: null, textChars: null, noindex: false, linksOverCap: 0 });
  const page = (urlId: number, text: string | null): PageWrite => ({ row: pageRow(urlId), text, content: null });

  it('stores a batch’s texts as one block; a page fetched again names its new text, drops an older run’s row, and a block no page names goes at close', async () => {
    const crawlId = new CrawlRepository(db).createCrawl(['http://a.test/'], DEFAULT_CRAWL_SETTINGS, 0);
    const stores = createSqliteCrawlStores(db, crawlId, DEFAULT_CRAWL_SETTINGS);
    await stores.writer.commit({ nowMs: 1, candidates: ['a', 'b', 'c'].map((key) => candidate(`http://a.test/${key}`, key)) });
    const [a, b, c] = ['a', 'b', 'c'].map((key) => new CrawlRepository(db).findUrlId(crawlId, key)!);
    const texts = new DuplicateQueries(db);
    const blocks = () => db.prepare(`SELECT COUNT(*) FROM page_text_blocks WHERE crawl_id = ?`).pluck().get(crawlId);

    await stores.writer.commit({ nowMs: 2, pages: [page(a!, 'alpha text'), page(b!, null), page(c!, 'gamma – text')] });
    expect(blocks()).toBe(1);
    expect([texts.pageText(a!), texts.pageText(b!), texts.pageText(c!)]).toEqual(['alpha text', null, 'gamma – text']);
    expect(db.prepare(`SELECT text_slot FROM pages WHERE url_id IN (?, ?, ?) ORDER BY url_id`).pluck().all(a, b, c)).toEqual([0, null, 1]);

    // b's text as a run before migration 0026 stored it.
    db.prepare(`INSERT INTO page_texts (url_id, text) VALUES (?, 'older run')`).run(b);
    expect(texts.pageText(b!)).toBe('older run');

    await stores.writer.commit({ nowMs: 3, pages: [page(a!, 'alpha again'), page(b!, 'beta'), page(c!, '')] });
    expect([texts.pageText(a!), texts.pageText(b!), texts.pageText(c!)]).toEqual(['alpha again', 'beta', null]);
    expect(db.prepare(`SELECT COUNT(*) FROM page_texts`).pluck().get()).toBe(0);
    expect(blocks()).toBe(2);

    // The first block's texts were all replaced: no page names it.
    await stores.close();
    expect(blocks()).toBe(1);
    expect([texts.pageText(a!), texts.pageText(b!)]).toEqual(['alpha again', 'beta']);
  });
});
