import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { WritableDB } from '../database';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { PageColumn, PagesFilter, PagesSort } from '../../../../shared/types/pages';
import { openDatabase } from '../connection';
import { LinkCounts } from './link-counts';
import { PagesQueries, type PagesQuery } from './page-queries';
import { insertCrawl, insertLink, watchPrepare, type TestUrl } from './test-rows';

let db: WritableDB;
beforeEach(() => {
  db = openDatabase(':memory:');
});
afterEach(() => db.close());

interface PageFields {
  fetchMs?: number;
  contentType?: string | null;
  title?: string | null;
  h1?: string | null;
  bodyBytes?: number;
  indexability?: string | null;
}

/** A crawl with URLs (state, status) and pages for the URLs given `page` fields; returns ids by URL. */
function crawl(urls: (TestUrl & { page?: PageFields; errorCode?: string; errorReason?: string })[]): { crawlId: number; id: (url: string) => number } {
  const { crawlId, ids } = insertCrawl(db, urls);
  const insertPage = db.prepare(
    `INSERT INTO pages (url_id, crawl_id, final_url, http_status, content_type, body_bytes, fetch_ms, title, h1, indexability, fetched_at_ms) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  urls.forEach((row, index) => {
    const id = ids[index]!;
    db.prepare(`UPDATE urls SET fetched_at_ms = ?, error_code = ?, error_reason = ? WHERE id = ?`).run(row.state === 'pending' ? null : 1000 + index, row.errorCode ?? null, row.errorReason ?? null, id);
    if (row.page) {
      const page = row.page;
      insertPage.run(id, crawlId, row.url, row.status ?? 200, page.contentType ?? 'text/html; charset=utf-8', page.bodyBytes ?? 100, page.fetchMs ?? 10, page.title ?? null, page.h1 ?? null, page.indexability ?? null, 1000 + index);
    }
  });
  const byUrl = new Map(urls.map((row, index) => [row.url, ids[index]!]));
  return { crawlId, id: (url) => byUrl.get(url)! };
}

function link(crawlId: number, from: number, to: number | null, refusedBy: string | null = null): void {
  insertLink(db, crawlId, { fromUrlId: from, rawUrl: 'x', toUrlId: to, refusedBy });
}

function urlsOf(queries: PagesQueries, crawlId: number, query: Partial<PagesQuery> & { sort?: PagesSort; filter?: PagesFilter }): string[] {
  return queries.pages(crawlId, { offset: 0, limit: 100, filter: {}, sort: { column: 'url', direction: 'asc' }, ...query }).rows.map((row) => row.url);
}

describe('PagesQueries rows', () => {
  it('lists fetched, failed and robots-blocked URLs, never pending or in-flight ones, with error code and message', () => {
    const { crawlId } = crawl([
      { url: 'http://a.test/', page: {} },
      { url: 'http://a.test/queued', state: 'pending' },
      { url: 'http://a.test/claimed', state: 'in_flight' },
      { url: 'http://a.test/timeout', state: 'error', errorCode: 'TIMEOUT', errorReason: 'no answer in 30000 ms' },
      { url: 'http://a.test/private', state: 'error', errorCode: 'ROBOTS_DISALLOWED', errorReason: 'robots.txt disallows it' },
      { url: 'http://a.test/gone', state: 'error', status: 404, errorCode: 'HTTP_404', errorReason: 'HTTP 404', page: {} },
    ]);
    const page = new PagesQueries(db).pages(crawlId, { offset: 0, limit: 10, filter: {}, sort: { column: 'url', direction: 'asc' } });
    expect(page.total).toBe(4);
    expect(page.rows.map((row) => [row.url, row.state, row.status, row.errorCode, row.errorMessage, row.indexability])).toEqual([
      ['http://a.test/', 'done', 200, null, null, null],
      ['http://a.test/gone', 'error', 404, 'HTTP_404', 'HTTP 404', null],
      ['http://a.test/private', 'blocked', null, null, 'robots.txt disallows it', 'blocked'],
      ['http://a.test/timeout', 'error', null, 'TIMEOUT', 'no answer in 30000 ms', 'non-200'],
    ]);
  });

  it('treats the state blocked (migration 0010) as blocked once the schema allows it', () => {
    // The CHECK of 0001 refuses the state until 0010; drop it the way 0010 will, by rebuilding the rule off.
    db.pragma('ignore_check_constraints = 1');
    const { crawlId, id } = crawl([{ url: 'http://a.test/', page: {} }, { url: 'http://a.test/secret', state: 'error' }]);
    db.prepare(`UPDATE urls SET state = 'blocked' WHERE id = ?`).run(id('http://a.test/secret'));
    const queries = new PagesQueries(db);
    expect(urlsOf(queries, crawlId, { filter: { status: 'blocked' } })).toEqual(['http://a.test/secret']);
    expect(urlsOf(queries, crawlId, {})).toEqual(['http://a.test/', 'http://a.test/secret']);
  });
  it('counts again after any write, by this connection or another', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'crawlbench-pages-count-'));
    const file = path.join(dir, 'c.db');
    const mine = openDatabase(file);
    const other = openDatabase(file);
    try {
      const { crawlId } = insertCrawl(mine, [{ url: 'http://a.test/' }, { url: 'http://a.test/b' }]);
      const queries = new PagesQueries(mine);
      const total = () => queries.pages(crawlId, { offset: 0, limit: 1, filter: {}, sort: { column: 'depth', direction: 'asc' } }).total;
      expect(total()).toBe(2);
      mine.prepare(`UPDATE urls SET state = 'error', error_code = 'TIMEOUT' WHERE url = 'http://a.test/b'`).run();
      expect(total()).toBe(2);
      mine.prepare(`UPDATE urls SET state = 'pending' WHERE url = 'http://a.test/b'`).run();
      expect(total()).toBe(1);
      other.prepare(`UPDATE urls SET state = 'done' WHERE url = 'http://a.test/b'`).run();
      expect(total()).toBe(2);
    } finally {
      other.close();
      mine.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('PagesQueries sort', () => {
  const fixture = () =>
    crawl([
      { url: 'http://a.test/slow', page: { fetchMs: 300, bodyBytes: 5 } },
      { url: 'http://a.test/fast', page: { fetchMs: 20, bodyBytes: 50 } },
      { url: 'http://a.test/failed', state: 'error', errorCode: 'TIMEOUT' },
      { url: 'http://a.test/middle', page: { fetchMs: 150, bodyBytes: 500 } },
      { url: 'http://a.test/refused', state: 'error', errorCode: 'ROBOTS_DISALLOWED' },
      { url: 'http://a.test/tie', page: { fetchMs: 150, bodyBytes: 7 } },
    ]);

  it('sorts by response time both ways, ties by URL id in the same direction, empty values last either way', () => {
    const { crawlId } = fixture();
    const queries = new PagesQueries(db);
    const nulls = ['http://a.test/failed', 'http://a.test/refused'];
    expect(urlsOf(queries, crawlId, { sort: { column: 'responseMs', direction: 'asc' } })).toEqual(['http://a.test/fast', 'http://a.test/middle', 'http://a.test/tie', 'http://a.test/slow', ...nulls]);
    expect(urlsOf(queries, crawlId, { sort: { column: 'responseMs', direction: 'desc' } })).toEqual(['http://a.test/slow', 'http://a.test/tie', 'http://a.test/middle', 'http://a.test/fast', ...nulls]);
  });

  it('pages of any size join up to the one-page order for every column and direction', () => {
    const { crawlId } = fixture();
    const queries = new PagesQueries(db);
    const columns: PageColumn[] = ['url', 'status', 'title', 'sizeBytes', 'responseMs', 'depth', 'inlinks', 'outlinks', 'fetchedAtMs', 'indexability'];
    for (const column of columns) {
      for (const direction of ['asc', 'desc'] as const) {
        const sort = { column, direction };
        const whole = urlsOf(queries, crawlId, { sort });
        expect(whole).toHaveLength(6);
        for (const size of [1, 2, 4]) {
          const joined: string[] = [];
          for (let offset = 0; offset < 6; offset += size) joined.push(...urlsOf(queries, crawlId, { sort, offset, limit: size, withTotal: false }));
          expect(joined, `${column} ${direction} by ${size}`).toEqual(whole);
        }
      }
    }
  });

  it('sorts by inlinks from links not refused and outlinks from every link, zero first when ascending', () => {
    const { crawlId, id } = crawl([
      { url: 'http://a.test/', page: {} },
      { url: 'http://a.test/popular', page: {} },
      { url: 'http://a.test/orphan', page: {} },
      { url: 'http://a.test/once', page: {} },
    ]);
    const [home, popular, once] = [id('http://a.test/'), id('http://a.test/popular'), id('http://a.test/once')];
    link(crawlId, home, popular);
    link(crawlId, once, popular);
    link(crawlId, home, once);
    link(crawlId, home, once, 'nofollow'); // refused: an outlink of home, not an inlink of once
    link(crawlId, home, null, 'scope');
    const counts = new LinkCounts(db);
    expect(counts.refresh(crawlId)).toBe(5);
    const queries = new PagesQueries(db);
    const desc = queries.pages(crawlId, { offset: 0, limit: 10, filter: {}, sort: { column: 'inlinks', direction: 'desc' } }).rows;
    expect(desc.map((row) => [row.url, row.inlinks, row.outlinks])).toEqual([
      ['http://a.test/popular', 2, 0],
      ['http://a.test/once', 1, 1],
      ['http://a.test/', 0, 4],
      ['http://a.test/orphan', 0, 0],
    ]);
    expect(urlsOf(queries, crawlId, { sort: { column: 'inlinks', direction: 'asc' } })).toEqual(['http://a.test/', 'http://a.test/orphan', 'http://a.test/once', 'http://a.test/popular']);
    expect(urlsOf(queries, crawlId, { sort: { column: 'outlinks', direction: 'desc' } })[0]).toBe('http://a.test/');

    // Links stored later are counted by the next refresh, and only they.
    link(crawlId, popular, id('http://a.test/orphan'));
    expect(counts.refresh(crawlId)).toBe(1);
    expect(counts.refresh(crawlId)).toBe(0);
    const orphan = queries.pages(crawlId, { offset: 0, limit: 10, filter: { urlContains: 'orphan' }, sort: { column: 'url', direction: 'asc' } }).rows[0]!;
    expect([orphan.inlinks, orphan.outlinks]).toEqual([1, 0]);
  });

  it('walks an index for every sort column, never sorting the crawl, once the first sort built it', () => {
    const { crawlId } = fixture();
    new LinkCounts(db).refresh(crawlId);
    const queries = new PagesQueries(db, { indexWriter: db });
    const prepared: string[] = [];
    const prepare = watchPrepare(db, (sql) => prepared.push(sql));
    for (const column of ['url', 'status', 'contentType', 'title', 'metaDescription', 'h1', 'canonical', 'indexability', 'sizeBytes', 'responseMs', 'depth', 'inlinks', 'outlinks', 'fetchedAtMs'] as const) {
      for (const direction of ['asc', 'desc'] as const) queries.pages(crawlId, { offset: 0, limit: 100, filter: {}, sort: { column, direction }, withTotal: false });
    }
    db.prepare = prepare;
    const ordered = prepared.filter((sql) => sql.includes('ORDER BY') && !sql.includes('ORDER BY u.id'));
    expect(ordered.length).toBeGreaterThanOrEqual(28);
    for (const sql of ordered) {
      const plan = (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...Array<number>(sql.split('?').length - 1).fill(1)) as { detail: string }[]).map((step) => step.detail).join(' | ');
      expect(plan, sql).not.toContain('TEMP B-TREE');
    }
  });
});

describe('PagesQueries sort indexes built on the first sort', () => {
  // On a file: a read-only open and a second writer need one.
  let dir = '';
  let file = '';
  beforeEach(() => {
    db.close();
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'crawlbench-sort-index-'));
    file = path.join(dir, 'c.db');
    db = openDatabase(file);
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));
  const indexNames = () => new Set(db.prepare(`SELECT name FROM sqlite_master WHERE type = 'index'`).pluck().all() as string[]);

  it('builds a column’s index on its first sort through the write handle, and only that one', () => {
    const { crawlId } = crawl([{ url: 'http://a.test/b', page: { title: 'Bee' } }, { url: 'http://a.test/a', page: { title: 'Ant' } }, { url: 'http://a.test/n' }]);
    expect(indexNames().has('pages_by_title')).toBe(false);
    const queries = new PagesQueries(db, { indexWriter: db });
    expect(indexNames().has('urls_pages_by_url')).toBe(false);
    expect(urlsOf(queries, crawlId, { sort: { column: 'url', direction: 'asc' } })).toEqual(['http://a.test/a', 'http://a.test/b', 'http://a.test/n']);
    expect(indexNames().has('urls_pages_by_url')).toBe(true);
    expect(indexNames().has('pages_by_title')).toBe(false);
    expect(urlsOf(queries, crawlId, { sort: { column: 'title', direction: 'asc' } })).toEqual(['http://a.test/a', 'http://a.test/b', 'http://a.test/n']);
    const after = indexNames();
    expect(after.has('pages_by_title')).toBe(true);
    expect(after.has('pages_by_h1')).toBe(false);
  });

  it('answers the same rows from a read-only open that cannot build it (sorting instead), and leaves the file unchanged', () => {
    const { crawlId } = crawl([{ url: 'http://a.test/b', page: { title: 'Bee' } }, { url: 'http://a.test/a', page: { title: 'Ant' } }, { url: 'http://a.test/n' }]);
    const readOnly = openDatabase(file, { readonly: true });
    try {
      const rows = urlsOf(new PagesQueries(readOnly), crawlId, { sort: { column: 'title', direction: 'desc' } });
      expect(rows).toEqual(['http://a.test/b', 'http://a.test/a', 'http://a.test/n']);
      expect(indexNames().has('pages_by_title')).toBe(false);
      expect(urlsOf(new PagesQueries(db, { indexWriter: db }), crawlId, { sort: { column: 'title', direction: 'desc' } })).toEqual(rows);
    } finally {
      readOnly.close();
    }
  });

  it('skips the build while another connection holds the write lock, and builds it on a later sort', () => {
    const { crawlId } = crawl([{ url: 'http://a.test/a', page: { h1: 'One' } }]);
    const other = openDatabase(file);
    const queries = new PagesQueries(db, { indexWriter: db });
    try {
      other.prepare('BEGIN IMMEDIATE').run();
      expect(urlsOf(queries, crawlId, { sort: { column: 'h1', direction: 'asc' } })).toEqual(['http://a.test/a']);
      other.prepare('COMMIT').run();
      expect(indexNames().has('pages_by_h1')).toBe(false);
      urlsOf(queries, crawlId, { sort: { column: 'h1', direction: 'asc' } });
      expect(indexNames().has('pages_by_h1')).toBe(true);
    } finally {
      other.close();
    }
  });
});

describe('PagesQueries filters', () => {
  const fixture = () =>
    crawl([
      { url: 'http://a.test/', page: { contentType: 'text/html; charset=utf-8', indexability: 'indexable' } },
      { url: 'http://a.test/docs/100%_sure', depth: 1, page: { contentType: 'text/html', indexability: 'noindex' } },
      { url: 'http://a.test/docs/INDEX', depth: 1, status: 301, page: {} },
      { url: 'http://a.test/docsx/other.pdf', depth: 2, page: { contentType: 'application/pdf' } },
      { url: 'http://b.test/docs/missing', depth: 1, state: 'error', status: 404, errorCode: 'HTTP_404', page: {} },
      { url: 'http://b.test/broken', depth: 2, state: 'error', status: 503, errorCode: 'HTTP_503', page: {} },
      { url: 'http://b.test/down', depth: 2, state: 'error', errorCode: 'CONNECTION_REFUSED' },
      { url: 'http://b.test/private', depth: 2, state: 'error', errorCode: 'ROBOTS_DISALLOWED' },
    ]);

  it('filters by status class, blocked by robots and failed without an answer', () => {
    const { crawlId } = fixture();
    const queries = new PagesQueries(db);
    const by = (status: PagesFilter['status']) => urlsOf(queries, crawlId, { filter: { status } });
    expect(by('2xx')).toEqual(['http://a.test/', 'http://a.test/docs/100%_sure', 'http://a.test/docsx/other.pdf']);
    expect(by('3xx')).toEqual(['http://a.test/docs/INDEX']);
    expect(by('4xx')).toEqual(['http://b.test/docs/missing']);
    expect(by('5xx')).toEqual(['http://b.test/broken']);
    expect(by('blocked')).toEqual(['http://b.test/private']);
    expect(by('failed')).toEqual(['http://b.test/down']);
    expect(by('all')).toHaveLength(8);
    expect(queries.pages(crawlId, { offset: 0, limit: 1, filter: { status: '2xx' }, sort: { column: 'url', direction: 'asc' } }).total).toBe(3);
  });

  it('URL contains is case-insensitive and takes % and _ literally', () => {
    const { crawlId } = fixture();
    const queries = new PagesQueries(db);
    expect(urlsOf(queries, crawlId, { filter: { urlContains: '/DOCS/' } })).toEqual(['http://a.test/docs/100%_sure', 'http://a.test/docs/INDEX', 'http://b.test/docs/missing']);
    expect(urlsOf(queries, crawlId, { filter: { urlContains: '100%_' } })).toEqual(['http://a.test/docs/100%_sure']);
    expect(urlsOf(queries, crawlId, { filter: { urlContains: '%' } })).toEqual(['http://a.test/docs/100%_sure']);
    expect(urlsOf(queries, crawlId, { filter: { urlContains: 'docs_' } })).toEqual([]);
  });

  it('a regex filters as written; an invalid or backtracking one is refused with a code; a hostile one finishes', () => {
    const { crawlId } = fixture();
    const queries = new PagesQueries(db);
    expect(urlsOf(queries, crawlId, { filter: { urlContains: '^http://b\\.test/d', urlRegex: true } })).toEqual(['http://b.test/docs/missing', 'http://b.test/down']);
    expect(urlsOf(queries, crawlId, { filter: { urlContains: '/docs/[A-Z]+$', urlRegex: true } })).toEqual(['http://a.test/docs/INDEX']);
    const refused = (pattern: string) => {
      try {
        queries.pages(crawlId, { offset: 0, limit: 10, filter: { urlContains: pattern, urlRegex: true }, sort: { column: 'url', direction: 'asc' } });
        return null;
      } catch (error) {
        return (error as { code?: string }).code;
      }
    };
    expect(refused('docs/(')).toBe('INVALID_URL_REGEX');
    expect(refused('(a)\\1')).toBe('INVALID_URL_REGEX');
    expect(refused('(?=docs)')).toBe('INVALID_URL_REGEX');
    // Catastrophic for a backtracking engine on a long URL; linear here, so it simply answers.
    db.prepare(`UPDATE urls SET url = ? WHERE url = 'http://b.test/down'`).run(`http://b.test/${'a'.repeat(5000)}!`);
    expect(urlsOf(queries, crawlId, { filter: { urlContains: '(a+)+$', urlRegex: true } })).toEqual([]);
  });

  it('stops a regex query that runs past its time budget with URL_REGEX_TOO_SLOW, and runs the next one afresh', () => {
    const { crawlId } = crawl(Array.from({ length: 200 }, (_, index) => ({ url: `http://a.test/p${index}`, page: {} })));
    const exhausted = new PagesQueries(db, { regexBudgetMs: -1 });
    expect(() => exhausted.pages(crawlId, { offset: 0, limit: 10, filter: { urlContains: 'p1', urlRegex: true }, sort: { column: 'url', direction: 'asc' } })).toThrow(
      expect.objectContaining({ code: 'URL_REGEX_TOO_SLOW' }),
    );
    // Without a regex the budget plays no part.
    expect(urlsOf(exhausted, crawlId, { filter: { urlContains: 'p1' }, limit: 3 })).toEqual(['http://a.test/p1', 'http://a.test/p10', 'http://a.test/p100']);
    expect(urlsOf(new PagesQueries(db), crawlId, { filter: { urlContains: '/p19\\d$', urlRegex: true } })).toHaveLength(10);
  });

  it('filters by host and path prefix, depth, content type without parameters and indexability', () => {
    const { crawlId } = fixture();
    const queries = new PagesQueries(db);
    expect(urlsOf(queries, crawlId, { filter: { host: 'A.test', pathPrefix: '/docs/' } })).toEqual(['http://a.test/docs/100%_sure', 'http://a.test/docs/INDEX']);
    expect(urlsOf(queries, crawlId, { filter: { host: 'a.test', pathPrefix: '/docs' } })).toHaveLength(3);
    expect(urlsOf(queries, crawlId, { filter: { host: 'b.test', depth: 2 } })).toEqual(['http://b.test/broken', 'http://b.test/down', 'http://b.test/private']);
    expect(urlsOf(queries, crawlId, { filter: { contentType: 'text/html', host: 'a.test' } })).toEqual(['http://a.test/', 'http://a.test/docs/100%_sure', 'http://a.test/docs/INDEX']);
    expect(urlsOf(queries, crawlId, { filter: { contentType: 'application/pdf' } })).toEqual(['http://a.test/docsx/other.pdf']);
    expect(urlsOf(queries, crawlId, { filter: { indexability: 'noindex' } })).toEqual(['http://a.test/docs/100%_sure']);
    expect(urlsOf(queries, crawlId, { filter: { indexability: 'blocked' } })).toEqual(['http://b.test/private']);
  });
});

describe('LinkCounts.tryRefresh', () => {
  it('does not wait while another connection holds the write lock, and catches up afterwards', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'crawlbench-link-counts-'));
    const file = path.join(dir, 'c.db');
    const mine = openDatabase(file);
    const other = openDatabase(file);
    try {
      const { crawlId, ids } = insertCrawl(mine, [{ url: 'http://a.test/' }, { url: 'http://a.test/b' }]);
      insertLink(mine, crawlId, { fromUrlId: ids[0]!, rawUrl: 'b', toUrlId: ids[1]! });
      other.prepare('BEGIN IMMEDIATE').run();
      const counts = new LinkCounts(mine);
      expect(counts.tryRefresh(crawlId)).toBeNull();
      expect(mine.pragma('busy_timeout', { simple: true })).toBeGreaterThan(0);
      other.prepare('COMMIT').run();
      expect(counts.tryRefresh(crawlId)).toBe(1);
      expect(mine.prepare(`SELECT inlinks FROM link_counts WHERE url_id = ?`).pluck().get(ids[1])).toBe(1);
    } finally {
      other.close();
      mine.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('PagesQueries Overview click-throughs', () => {
  it('filters by response time and fetch time ranges, minimum depth and a missing value', () => {
    const { crawlId } = crawl([
      { url: 'http://a.test/', page: { fetchMs: 40, indexability: 'indexable' } },
      { url: 'http://a.test/mid', depth: 1, page: { fetchMs: 100 } },
      { url: 'http://a.test/slow', depth: 3, page: { fetchMs: 900, contentType: '' } },
      { url: 'http://a.test/down', depth: 4, state: 'error', errorCode: 'TIMEOUT' },
    ]);
    const queries = new PagesQueries(db);
    expect(urlsOf(queries, crawlId, { filter: { responseMsAtLeast: 100, responseMsBelow: 900 } })).toEqual(['http://a.test/mid']);
    expect(urlsOf(queries, crawlId, { filter: { responseMsAtLeast: 100 } })).toEqual(['http://a.test/mid', 'http://a.test/slow']);
    // The helper's pages are fetched at 1000 + their index.
    expect(urlsOf(queries, crawlId, { filter: { fetchedAtMsAtLeast: 1001, fetchedAtMsBelow: 1002 } })).toEqual(['http://a.test/mid']);
    expect(urlsOf(queries, crawlId, { filter: { depthAtLeast: 3 } })).toEqual(['http://a.test/down', 'http://a.test/slow']);
    expect(urlsOf(queries, crawlId, { filter: { withoutValue: 'contentType' } })).toEqual(['http://a.test/down', 'http://a.test/slow']);
    expect(urlsOf(queries, crawlId, { filter: { withoutValue: 'indexability' } })).toEqual(['http://a.test/down', 'http://a.test/mid', 'http://a.test/slow']);
  });
});
