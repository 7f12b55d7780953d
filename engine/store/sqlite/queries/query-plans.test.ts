/**
 * Every view and export query's plan on a 100,000-URL crawl (issue 15 part 5): the queries run
 * for real on a crawl written straight into SQLite, each SQL text they prepare is captured, and
 * EXPLAIN QUERY PLAN must show no full scan of a big table where an index serves and no temporary
 * B-tree in a paged export or a Pages sort. Each export's time is printed (not asserted: the
 * machine is shared).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_CRAWL_SETTINGS } from '../../../../shared/types/crawl';
import type { PageColumn, PagesFilter } from '../../../../shared/types/pages';
import { openDatabase } from '../connection';
import { CrawlReader } from '../crawl-repository';
import type { WritableDB } from '../database';
import { LINK_KIND_CODES, LINK_RULE_CODES } from '../link-codes';
import { DuplicateQueries } from './duplicate-queries';
import { ExportQueries, type KeyedPage } from './export-queries';
import { FrontierQueries } from './frontier-queries';
import { InspectorQueries } from './inspector-queries';
import { LinkCounts } from './link-counts';
import { OverviewQueries } from './overview-queries';
import { PagesQueries } from './page-queries';
import { SiteTreeQueries } from './site-tree-queries';
import { VersionQueries } from './version-queries';
import { watchPrepare } from './test-rows';
import { refreshLinkRanges } from '../link-ranges';

const URLS = 100_000;
const HOSTS = 200;
const LINKS_PER_PAGE = 5;

/** Writes one crawl of URLS URLs: 70% fetched, 5% failed with an answer, 5% blocked, 20% pending; links, spellings and content groups. */
function writeCrawl(db: WritableDB): number {
  db.prepare(`INSERT INTO crawls (id, seeds_json, settings_json, status, created_at_ms) VALUES (1, '["http://h0.test/"]', ?, 'stopped', 0)`).run(JSON.stringify(DEFAULT_CRAWL_SETTINGS));
  const url = db.prepare(
    `INSERT INTO urls (id, crawl_id, normalized_key, normalized, url, host, registrable_domain, state, depth, priority, discovered_from, enqueued_at_ms, fetched_at_ms, http_status, error_code)
     VALUES (?, 1, ?, ?, ?, ?, ?, ?, ?, 0, ?, ?, ?, ?, ?)`,
  );
  const page = db.prepare(
    `INSERT INTO pages (url_id, crawl_id, final_url, http_status, content_type, body_bytes, fetch_ms, title, fetched_at_ms, meta_description, h1, canonical_url, indexability, fingerprint)
     VALUES (?, 1, ?, ?, 'text/html', ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const link = db.prepare(`INSERT INTO links (crawl_id, from_url_id, to_url_id, kind, refused_by, raw_url, anchor_text) VALUES (1, ?, ?, ?, ?, ?, ?)`);
  const alias = db.prepare(`INSERT INTO url_aliases (url_id, raw_url, first_seen_from, fragment_spellings) VALUES (?, ?, ?, ?)`);
  const group = db.prepare(`INSERT INTO content_groups (id, crawl_id, kind, fingerprint, first_url_id, created_at_ms) VALUES (?, 1, 'exact', ?, ?, 0)`);
  const member = db.prepare(`INSERT INTO content_group_members (group_id, url_id, similarity) VALUES (?, ?, 1)`);
  // Links point forward to URLs written later in the same pass: keys are checked once, after.
  db.pragma('foreign_keys = OFF');
  db.transaction(() => {
    for (let id = 1; id <= URLS; id += 1) {
      const host = `h${id % HOSTS}.test`;
      const address = `http://${host}/dir${id % 7}/page-${id}`;
      const kind = id % 20;
      const state = kind < 14 ? 'done' : kind === 14 ? 'error' : kind === 15 ? 'blocked' : 'pending';
      const status = state === 'done' ? (id % 50 === 0 ? 301 : 200) : state === 'error' ? 404 : null;
      const from = id > 1 ? id >> 1 : null;
      url.run(id, `k${id}`, address, address, host, host, state, Math.min(12, Math.floor(Math.log2(id))), from, id, state === 'pending' ? null : id, status, state === 'error' ? 'HTTP_404' : state === 'blocked' ? 'ROBOTS_DISALLOWED' : null);
      alias.run(id, address, from, id % 3 === 0 ? 1 : 0);
      if (id % 10 === 0) alias.run(id, address.replace('http://h', 'http://H'), from, 0);
      if (state === 'done' || state === 'error') {
        page.run(id, address, status, 1000 + (id % 997), 5 + (id % 311), `Title ${id % 5000}`, id, `About ${id % 3000}`, `Heading ${id % 4000}`, id % 4 === 0 ? address : null, 'indexable', `f${id % 40_000}`);
        for (let k = 1; k <= LINKS_PER_PAGE; k += 1) {
          const to = 1 + ((id * 7919 + k * 104_729) % URLS);
          if (k === LINKS_PER_PAGE && id % 9 === 0) link.run(id, null, LINK_KIND_CODES.a, LINK_RULE_CODES.scope, `http://elsewhere.test/${id}`, null);
          else link.run(id, to, LINK_KIND_CODES.a, null, null, `Link ${k}`);
        }
      }
    }
    for (let g = 1; g <= 1000; g += 1) {
      group.run(g, `f${g}`, g * 3);
      for (const m of [g * 3 + 40_000, g * 3 + 80_000]) member.run(g, m);
    }
    // Version templates (migration 0021): 10,000 of two or three versions, and 20,000 stored singletons.
    const template = db.prepare(`INSERT INTO version_templates (id, crawl_id, template, versions) VALUES (?, 1, ?, ?)`);
    const version = db.prepare(`INSERT INTO url_versions (template_id, url_id, version) VALUES (?, ?, ?)`);
    for (let t = 1; t <= 30_000; t += 1) {
      const versions = t > 10_000 ? 1 : 2 + (t % 2);
      template.run(t, `http://h${t % HOSTS}.test/%s/page-${t}`, versions);
      for (let v = 0; v < versions; v += 1) version.run(t, 1 + ((t * 3 + v) % URLS), `3.${10 + v}`);
    }
  })();
  // Sources (migration 0018): every URL linked but the seed; one in 5 listed in one of two sitemaps, one in 25 of those never linked (orphans).
  db.exec(`UPDATE urls SET sources = CASE WHEN id = 1 THEN 1 WHEN id % 125 = 0 THEN 4 WHEN id % 5 = 0 THEN 6 ELSE 2 END`);
  db.exec(`INSERT INTO sitemaps (id, crawl_id, url, found_via, kind, http_status, fetch_ms, fetched_at_ms) VALUES (1, 1, 'http://h0.test/sitemap.xml', 'probe', 'urlset', 200, 5, 0), (2, 1, 'http://h1.test/s.xml', 'robots', 'urlset', 200, 5, 0)`);
  db.exec(`INSERT INTO sitemap_urls (url_id, sitemap_id, lastmod) SELECT id, 1 + (id % 2), NULL FROM urls WHERE id % 5 = 0`);
  // Each source URL names its links' ids, as the crawl writer leaves them (migration 0027).
  refreshLinkRanges(db, 1);
  db.pragma('foreign_keys = ON');
  expect(db.pragma('foreign_key_check')).toEqual([]);
  return 1;
}

/** Tables whose full scan costs a pass over the crawl (their names and the aliases the queries give them). */
const BIG_TABLES = new Set(['version_templates', 'url_versions', 'urls', 'pages', 'links', 'url_aliases', 'link_counts', 'content_group_members', 'u', 'p', 'l', 'a', 'c', 'm', 'q', 'd', 'f', 't']);

/**
 * Queries that read every row of the crawl by design, with why: they aggregate the whole crawl
 * (a count or a grouping of every URL), so a scan in rowid order is their cheapest plan.
 */
const WHOLE_CRAWL: { match: RegExp; why: string }[] = [
  { match: /MIN\(u\.depth, \?\) AS depth, COUNT\(\*\) AS pages FROM urls u/, why: 'Overview: status class × depth of every settled URL' },
  { match: /FROM pages p WHERE \+p\.crawl_id = \?/, why: 'Overview: content types, indexability, response times and pages per second of every page' },
  { match: /SELECT COALESCE\(SUM\(links_over_cap\), 0\) FROM pages/, why: 'refusal counts: links past the cap summed over every page' },
  { match: /FROM links\s+WHERE id > \? AND id <= \?/, why: 'link counts: only links rows above the last counted id (a rowid range)' },
  { match: /SELECT MAX\(fetched_at_ms\) FROM urls/, why: 'crawl summary: last fetch time' },
  { match: /FROM urls u LEFT JOIN urls d ON d\.id = u\.discovered_from\s+WHERE \+u\.crawl_id = \? AND u\.id >= \?/, why: 'Frontier: unfiltered page, a rowid range from the nearest anchor' },
  { match: /WHERE \+crawl_id = \? AND id > \?/, why: 'frontier export: a rowid range' },
  { match: /WHERE \+u\.crawl_id = \? AND u\.id > \? GROUP BY u\.id/, why: 'url-groups export: a rowid range' },
  { match: /WHERE \+u\.crawl_id = \? GROUP BY u\.id HAVING COUNT\(\*\) > 1\)/, why: 'url-groups export: count of every group member, once per export' },
  { match: /WHERE \+g\.crawl_id = \? AND g\.id > \?/, why: 'content-groups export: a rowid range' },
  { match: /WHERE \+u\.crawl_id = \? AND u\.id > \? AND \(u\.sources/, why: 'sitemap-report export: listed URLs, a rowid range' },
  { match: /SELECT COUNT\(\*\) FROM urls u WHERE \+u\.crawl_id = \? AND \(u\.sources/, why: 'sitemap-report export: count of listed URLs, once per export' },
  { match: /instr\(u\.url, \?\) > 0/, why: 'Frontier: URL text filter (a substring: no index serves it)' },
  { match: /u\.url LIKE \? ESCAPE/, why: 'Pages: URL contains (a substring: no index serves it)' },
  { match: /SELECT COUNT\(\*\) FROM pages p JOIN urls u ON u\.id = p\.url_id WHERE p\.crawl_id = \? AND u\.state = 'done'/, why: 'pages export: count of every page' },
  { match: /FROM pages p JOIN urls u ON u\.id = p\.url_id WHERE \+p\.crawl_id = \? AND u\.state = 'done' AND p\.url_id > \?/, why: 'pages export: a rowid range' },
];

/** Sorts that a temporary B-tree may do: they order one small set (one group's members), never a page of the crawl. */
const SMALL_SORTS: { match: RegExp; why: string }[] = [
  { match: /ORDER BY t\.versions DESC, t\.id LIMIT 1/, why: 'the version templates of one URL (one or two rows)' },
  { match: /FROM content_group_members m JOIN urls u ON u\.id = m\.url_id LEFT JOIN pages p ON p\.url_id = u\.id\s+WHERE m\.group_id = \? ORDER BY m\.similarity DESC/, why: 'one content group’s members by similarity' },
];

interface Captured {
  sql: string;
  plan: string[];
}

describe('query plans at 100,000 URLs', () => {
  let dir = '';
  let db: WritableDB;
  const captured = new Map<string, string>();
  const timings: string[] = [];

  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'crawlbench-plans-'));
    db = openDatabase(path.join(dir, 'plans.db'));
    const started = performance.now();
    writeCrawl(db);
    console.log(`wrote a ${URLS.toLocaleString('en')}-URL crawl in ${(performance.now() - started).toFixed(0)} ms (${fs.statSync(path.join(dir, 'plans.db')).size.toLocaleString('en')} bytes before the WAL checkpoint)`);
    watchPrepare(db, (sql) => captured.set(sql.replace(/\s+/g, ' ').trim(), sql));
  }, 60_000);

  afterAll(() => {
    db?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const planOf = (sql: string): string[] => {
    // Placeholders outside string literals (the site tree's SQL cuts URLs at a literal '?').
    const params = Array<number>(sql.replace(/'(?:[^']|'')*'/g, "''").split('?').length - 1).fill(1);
    return (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...params) as { detail: string }[]).map((step) => step.detail);
  };

  /** Runs `run` with capture on, and returns the SQL texts it prepared with their plans. */
  const queriesOf = (run: () => void): Captured[] => {
    captured.clear();
    run();
    const texts = [...captured.values()].filter((sql) => /^\s*(SELECT|WITH)/i.test(sql));
    return texts.map((sql) => ({ sql, plan: planOf(sql) }));
  };

  const bigScans = (query: Captured): string[] => query.plan.filter((step) => {
    const scanned = /^SCAN (\w+)/.exec(step)?.[1];
    return scanned !== undefined && BIG_TABLES.has(scanned) && !WHOLE_CRAWL.some((allowed) => allowed.match.test(query.sql));
  });

  const exportTime = <Row>(name: string, count: () => number, page: (after: number) => KeyedPage<Row>): Captured[] =>
    queriesOf(() => {
      const started = performance.now();
      const total = count();
      let after = 0;
      let rows = 0;
      for (;;) {
        const next = page(after);
        if (next.rows.length === 0) break;
        rows += next.rows.length;
        after = next.lastKey;
      }
      timings.push(`${name}: ${rows.toLocaleString('en')} keyed rows (${total.toLocaleString('en')} rows exported) in ${(performance.now() - started).toFixed(0)} ms`);
    });

  it('reads every view through an index: Pages (each sort and filter), Frontier, Duplicates, inspector, Overview, site tree', () => {
    new LinkCounts(db).refresh(1);
    const pages = new PagesQueries(db, { indexWriter: db });
    const columns: PageColumn[] = ['url', 'status', 'contentType', 'title', 'metaDescription', 'h1', 'canonical', 'indexability', 'sizeBytes', 'responseMs', 'depth', 'inlinks', 'outlinks', 'fetchedAtMs'];
    const filters: PagesFilter[] = [
      {},
      { status: '4xx' },
      { status: 'blocked' },
      { host: 'h7.test' },
      { host: 'h7.test', pathPrefix: '/dir3/' },
      { depth: 3 },
      { contentType: 'text/html' },
      { indexability: 'indexable' },
      { urlContains: 'page-99' },
      { responseMsAtLeast: 100, responseMsBelow: 200 },
      { sitemap: 'listed' },
      { sitemap: 'orphan' },
      { sitemap: 'listed-not-indexable' },
    ];
    const sortTimes: string[] = [];
    const pagesQueries = queriesOf(() => {
      for (const column of columns) {
        for (const direction of ['asc', 'desc'] as const) {
          const started = performance.now();
          const first = pages.pages(1, { offset: 0, limit: 100, filter: {}, sort: { column, direction } });
          sortTimes.push(`${column} ${direction} ${(performance.now() - started).toFixed(0)} ms`);
          expect(first.rows).toHaveLength(100);
          // Past the sort's values, into the rows without one (URL id order).
          pages.pages(1, { offset: first.total - 50, limit: 100, filter: {}, sort: { column, direction }, withTotal: false });
        }
      }
    });
    // A filter may read its (selective) rows through another index and sort them: checked for scans only.
    const filteredQueries = queriesOf(() => {
      for (const filter of filters) pages.pages(1, { offset: 0, limit: 100, filter, sort: { column: 'url', direction: 'asc' } });
    });
    console.log(`Pages first rows per sort (the first sort by a column builds its index):\n  ${sortTimes.join(', ')}`);
    for (const query of pagesQueries) {
      expect(bigScans(query), query.sql).toEqual([]);
      if (/ORDER BY/.test(query.sql)) expect(query.plan.join(' | '), query.sql).not.toMatch(/TEMP B-TREE FOR ORDER BY/);
    }
    for (const query of filteredQueries) expect(bigScans(query), `${query.sql}\n${query.plan.join(' | ')}`).toEqual([]);

    const frontier = new FrontierQueries(db, { indexWriter: db });
    const duplicates = new DuplicateQueries(db);
    const inspector = new InspectorQueries(db);
    const tree = new SiteTreeQueries(db, { indexWriter: db });
    const views = queriesOf(() => {
      for (const state of [undefined, 'pending', 'done', 'error'] as const) frontier.urls(1, { offset: 500, limit: 100, ...(state ? { state } : {}) });
      frontier.urls(1, { offset: 0, limit: 100, host: 'h7.test' });
      frontier.urls(1, { offset: 0, limit: 100, host: 'h7.test', state: 'pending' });
      frontier.urls(1, { offset: 0, limit: 100, text: 'page-42' });
      frontier.hosts(1, { offset: 0, limit: 100 }, []);
      duplicates.urlGroups(1, { offset: 0, limit: 100 });
      duplicates.aliases(10);
      duplicates.contentGroups(1, { offset: 0, limit: 100 });
      duplicates.contentMembers(1);
      const versions = new VersionQueries(db);
      versions.templates(1, { offset: 0, limit: 100 });
      versions.templates(1, { offset: 5000, limit: 100 });
      versions.members(1, 7);
      versions.templateOfUrl(1, 22);
      for (const urlId of [2, 10, 4000]) {
        inspector.url(1, urlId);
        inspector.page(urlId);
        inspector.aliases(urlId);
        inspector.inlinks(1, urlId, { offset: 0, limit: 50 });
        inspector.outlinks(1, urlId, { offset: 0, limit: 50 });
        inspector.discoveryLink(1, urlId, urlId >> 1);
        inspector.redirectChain(1, urlId);
        inspector.contentGroupId(1, urlId);
        tree.ancestry(1, urlId);
      }
      new OverviewQueries(db).overview(1);
      tree.children(1, { offset: 0, limit: 100 });
      tree.children(1, { host: 'h7.test', offset: 0, limit: 100 });
      tree.children(1, { host: 'h7.test', pathPrefix: '/dir3/', offset: 0, limit: 100 });
      const reader = new CrawlReader(db);
      reader.refusalCounts(1);
      reader.getCrawl(1);
    });
    expect(views.length).toBeGreaterThan(25);
    for (const query of views) expect(bigScans(query), `${query.sql}\n${query.plan.join(' | ')}`).toEqual([]);
  });

  it('pages every export without a temporary B-tree or a scan per page (times printed)', () => {
    const exports = new ExportQueries(db);
    const queries = [
      ...exportTime('pages', () => exports.countPages(1), (after) => exports.pages(1, after, 1000)),
      ...exportTime('frontier', () => exports.countUrls(1), (after) => exports.frontier(1, after, 1000)),
      ...exportTime('errors', () => exports.countUrls(1, 'error'), (after) => exports.frontier(1, after, 1000, 'error')),
      ...exportTime('url-groups', () => exports.countUrlGroupMembers(1), (after) => exports.urlGroups(1, after, 100)),
      ...exportTime('content-groups', () => exports.countContentMembers(1), (after) => exports.contentGroups(1, after, 100)),
      ...exportTime('versions', () => new VersionQueries(db).countExportRows(1), (after) => new VersionQueries(db).exportTemplates(1, after, 100)),
      ...exportTime('sitemap-report', () => exports.sitemaps.countListed(1), (after) => exports.sitemaps.listed(1, after, 1000)),
    ];
    console.log(`exports of a ${URLS.toLocaleString('en')}-URL crawl:\n  ${timings.join('\n  ')}`);
    for (const query of queries) {
      if (!SMALL_SORTS.some((allowed) => allowed.match.test(query.sql))) expect(query.plan.join(' | '), query.sql).not.toMatch(/TEMP B-TREE/);
      expect(bigScans(query), query.sql).toEqual([]);
    }
  });
});
