import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { WritableDB } from '../database';
import { openDatabase } from '../connection';
import { insertOverviewCrawl, type OverviewTestUrl } from './overview-fixture';
import { MAX_ANCESTRY_HOPS, SiteTreeQueries } from './site-tree-queries';

let db: WritableDB;
beforeEach(() => {
  db = openDatabase(':memory:');
});
afterEach(() => db.close());

const SITE: OverviewTestUrl[] = [
  { url: 'http://a.test/' },
  { url: 'http://a.test/docs/', from: 0, depth: 1 },
  { url: 'http://a.test/docs/intro.html', from: 1, depth: 2 },
  { url: 'http://a.test/docs/guide/one.html', from: 2, depth: 3 },
  { url: 'http://a.test/docs/guide/two.html', from: 2, depth: 3, state: 'error', status: 404, errorCode: 'HTTP_404' },
  { url: 'http://a.test/docs/guide/three.html', from: 2, depth: 3, state: 'pending', status: null },
  { url: 'http://a.test/search?q=1', from: 0, depth: 1 },
  { url: 'http://a.test/search?q=2', from: 0, depth: 1 },
  { url: 'http://a.test:8080/docs/port.html', from: 0, depth: 1 },
  { url: 'https://a.test/docs/secure.html', from: 0, depth: 1, state: 'error', status: null, errorCode: 'ROBOTS_DISALLOWED' },
  { url: 'http://a.test.example/docs/other-host.html', from: 0, depth: 1 },
  { url: 'http://b.test/', from: 0, depth: 1, state: 'error', status: null, errorCode: 'TIMEOUT' },
];

const summary = (nodes: { name: string; kind: string; urls: number }[]) => nodes.map((node) => `${node.kind} ${node.name} ${node.urls}`);

describe('SiteTreeQueries.children', () => {
  it('lists hosts at the top level with their URLs per status class', () => {
    const { crawlId } = insertOverviewCrawl(db, SITE);
    const top = new SiteTreeQueries(db).children(crawlId, { offset: 0, limit: 10 });
    expect(top.total).toBe(3);
    expect(summary(top.nodes)).toEqual(['host a.test 10', 'host a.test.example 1', 'host b.test 1']);
    expect(top.nodes[0]).toMatchObject({ host: 'a.test', pathPrefix: '/', queued: 1, statusClasses: { '2xx': 7, '3xx': 0, '4xx': 1, '5xx': 0, blocked: 1, failed: 0 }, urlId: null });
    expect(top.nodes[2]!.statusClasses.failed).toBe(1);
  });

  it('lists a host’s first segments across its origins: directories, pages, query variants under one name, the root page as ""', () => {
    const { crawlId, ids } = insertOverviewCrawl(db, SITE);
    const children = new SiteTreeQueries(db).children(crawlId, { host: 'a.test', offset: 0, limit: 10 });
    expect(summary(children.nodes)).toEqual(['page  1', 'directory docs/ 7', 'page search 2']);
    expect(children.nodes[0]).toMatchObject({ pathPrefix: '/', urlId: ids[0] });
    expect(children.nodes[1]).toMatchObject({ pathPrefix: '/docs/', urlId: null, queued: 1, statusClasses: { '2xx': 4, '4xx': 1, blocked: 1 } });
    expect(children.nodes[2]).toMatchObject({ pathPrefix: '/search', urlId: null });
  });

  it('expands a directory into its own page, files and subdirectories, never counting another host', () => {
    const { crawlId, ids } = insertOverviewCrawl(db, SITE);
    const queries = new SiteTreeQueries(db);
    const docs = queries.children(crawlId, { host: 'a.test', pathPrefix: '/docs/', offset: 0, limit: 10 });
    expect(summary(docs.nodes)).toEqual(['page  1', 'directory guide/ 3', 'page intro.html 1', 'page port.html 1', 'page secure.html 1']);
    expect(docs.nodes[2]).toMatchObject({ pathPrefix: '/docs/intro.html', urlId: ids[2] });
    const guide = queries.children(crawlId, { host: 'a.test', pathPrefix: '/docs/guide/', offset: 0, limit: 10 });
    expect(guide.nodes.map((node) => [node.name, node.queued, node.statusClasses['4xx']])).toEqual([
      ['one.html', 0, 0],
      ['three.html', 1, 0],
      ['two.html', 0, 1],
    ]);
  });

  it('pages the children and gives the total past the end', () => {
    const { crawlId } = insertOverviewCrawl(db, SITE);
    const queries = new SiteTreeQueries(db);
    const second = queries.children(crawlId, { host: 'a.test', pathPrefix: '/docs/', offset: 1, limit: 2 });
    expect(summary(second.nodes)).toEqual(['directory guide/ 3', 'page intro.html 1']);
    expect(second.total).toBe(5);
    expect(queries.children(crawlId, { host: 'a.test', pathPrefix: '/docs/', offset: 50, limit: 2 })).toEqual({ nodes: [], total: 5, offset: 50 });
    expect(queries.children(crawlId, { host: 'nowhere.test', offset: 0, limit: 2 })).toEqual({ nodes: [], total: 0, offset: 0 });
  });

  it('refuses a path that is not a directory with INVALID_PATH_PREFIX', () => {
    const { crawlId } = insertOverviewCrawl(db, SITE);
    expect(() => new SiteTreeQueries(db).children(crawlId, { host: 'a.test', pathPrefix: '/docs', offset: 0, limit: 1 })).toThrow(
      expect.objectContaining({ code: 'INVALID_PATH_PREFIX' }),
    );
  });

  it('reads an expanded directory through urls_by_host_url ranges, built on the first expand, never scanning the crawl', () => {
    const { crawlId } = insertOverviewCrawl(db, SITE);
    const hasIndex = () => db.prepare(`SELECT 1 FROM sqlite_master WHERE name = 'urls_by_host_url'`).get() !== undefined;
    expect(hasIndex()).toBe(false);
    const prepared: string[] = [];
    const prepare = db.prepare.bind(db);
    vi.spyOn(db, 'prepare').mockImplementation(((sql: string) => (prepared.push(sql), prepare(sql))) as typeof db.prepare);
    new SiteTreeQueries(db, { indexWriter: db }).children(crawlId, { host: 'a.test', pathPrefix: '/docs/', offset: 0, limit: 10 });
    vi.restoreAllMocks();
    expect(hasIndex()).toBe(true);
    const listing = prepared.find((sql) => sql.includes('GROUP BY name'))!;
    const plan = db
      .prepare(`EXPLAIN QUERY PLAN ${listing}`)
      .all(...Array.from(listing.replace(/'[^']*'/g, '').matchAll(/\?/g), () => null)) as { detail: string }[];
    const reads = plan.map((row) => row.detail).filter((detail) => /^(SCAN|SEARCH) u\b/.test(detail));
    // Three origins of a.test (http, http:8080, https): three index ranges, no scan.
    expect(reads).toEqual(Array(3).fill('SEARCH u USING INDEX urls_by_host_url (crawl_id=? AND host=? AND url>? AND url<?)'));
  });
});

describe('SiteTreeQueries.ancestry', () => {
  it('walks discovered_from from the URL back to the seed, each hop with the link its parent found it by', () => {
    const { crawlId, ids } = insertOverviewCrawl(db, SITE);
    const ancestry = new SiteTreeQueries(db).ancestry(crawlId, ids[4]!);
    expect(ancestry.truncated).toBe(false);
    expect(ancestry.hops.map((hop) => [hop.url, hop.depth, hop.linkKind, hop.anchorText])).toEqual([
      ['http://a.test/', 0, null, null],
      ['http://a.test/docs/', 1, 'a', 'to /docs/'],
      ['http://a.test/docs/intro.html', 2, 'a', 'to /docs/intro.html'],
      ['http://a.test/docs/guide/two.html', 3, 'a', 'to /docs/guide/two.html'],
    ]);
    expect(ancestry.hops[3]).toMatchObject({ urlId: ids[4], state: 'error', httpStatus: 404 });
  });

  it('gives a seed alone, refuses a URL of another crawl with URL_NOT_FOUND', () => {
    const { crawlId, ids } = insertOverviewCrawl(db, SITE);
    const other = insertOverviewCrawl(db, [{ url: 'http://c.test/' }]);
    expect(new SiteTreeQueries(db).ancestry(crawlId, ids[0]!).hops).toHaveLength(1);
    expect(() => new SiteTreeQueries(db).ancestry(crawlId, other.ids[0]!)).toThrow(expect.objectContaining({ code: 'URL_NOT_FOUND' }));
  });

  it('keeps the last MAX_ANCESTRY_HOPS hops of a deep chain and says it was cut', () => {
    const chain: OverviewTestUrl[] = Array.from({ length: MAX_ANCESTRY_HOPS + 10 }, (_, depth) => ({ url: `http://trap.test/${depth}`, depth, ...(depth > 0 ? { from: depth - 1 } : {}) }));
    const { crawlId, ids } = insertOverviewCrawl(db, chain);
    const ancestry = new SiteTreeQueries(db).ancestry(crawlId, ids.at(-1)!);
    expect(ancestry.truncated).toBe(true);
    expect(ancestry.hops).toHaveLength(MAX_ANCESTRY_HOPS);
    expect(ancestry.hops.at(-1)!.url).toBe(`http://trap.test/${MAX_ANCESTRY_HOPS + 9}`);
  });
});
