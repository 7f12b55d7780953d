import type { WritableDB } from '../database';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../connection';
import { FrontierQueries } from './frontier-queries';
import { insertCrawl } from './test-rows';

let db: WritableDB;
beforeEach(() => {
  db = openDatabase(':memory:');
});
afterEach(() => db.close());

describe('FrontierQueries.urls', () => {
  it('pages the URL table in discovery order with the URL each was discovered from', () => {
    const { crawlId, ids } = insertCrawl(db, [{ url: 'http://a.test/' }, { url: 'http://a.test/x', from: 1, depth: 1, state: 'pending' }, { url: 'http://b.test/y', from: 2, depth: 2, state: 'error' }]);
    const queries = new FrontierQueries(db);
    const page = queries.urls(crawlId, { offset: 0, limit: 2 });
    expect(page.total).toBe(3);
    expect(page.rows.map((row) => [row.url, row.state, row.depth, row.discoveredFrom])).toEqual([
      ['http://a.test/', 'done', 0, null],
      ['http://a.test/x', 'pending', 1, 'http://a.test/'],
    ]);
    expect(page.rows[0]!.id).toBe(ids[0]);
    expect(queries.urls(crawlId, { offset: 2, limit: 2 }).rows.map((row) => row.discoveredFrom)).toEqual(['http://a.test/x']);
  });

  it('gives each URL both names: the normalized URL string and its normalized key (the UUID)', () => {
    const { crawlId } = insertCrawl(db, [{ url: 'HTTP://A.test:80/x/../y' }]);
    const [row] = new FrontierQueries(db).urls(crawlId, { offset: 0, limit: 1 }).rows;
    expect(row!.normalized).toBe('http://a.test/y');
    expect(row!.normalizedKey).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[0-9a-f]{4}-[0-9a-f]{12}$/);
  });

  it('filters by state, exact host and URL text, counting only matches', () => {
    const { crawlId } = insertCrawl(db, [{ url: 'http://a.test/' }, { url: 'http://a.test/docs/1', state: 'pending' }, { url: 'http://b.test/docs/2', state: 'pending' }, { url: 'http://ab.test/' }]);
    const queries = new FrontierQueries(db);
    expect(queries.urls(crawlId, { offset: 0, limit: 10, state: 'pending' }).rows.map((r) => r.url)).toEqual(['http://a.test/docs/1', 'http://b.test/docs/2']);
    expect(queries.urls(crawlId, { offset: 0, limit: 10, host: 'a.test' }).total).toBe(2);
    expect(queries.urls(crawlId, { offset: 0, limit: 10, text: '/docs/' }).total).toBe(2);
    expect(queries.urls(crawlId, { offset: 0, limit: 10, host: 'b.test', state: 'done' }).total).toBe(0);
  });

  it('keeps crawls apart and skips the count when asked', () => {
    const first = insertCrawl(db, [{ url: 'http://a.test/' }, { url: 'http://a.test/2' }]);
    const second = insertCrawl(db, [{ url: 'http://c.test/' }]);
    const queries = new FrontierQueries(db);
    expect(queries.urls(second.crawlId, { offset: 0, limit: 10 }).rows.map((r) => r.url)).toEqual(['http://c.test/']);
    expect(queries.urls(first.crawlId, { offset: 1, limit: 10, withTotal: false })).toMatchObject({ total: -1, offset: 1, rows: [{ url: 'http://a.test/2' }] });
  });

  it('pages read from remembered offsets equal pages read from the start, also after rows are appended', () => {
    const urls = Array.from({ length: 500 }, (_, i) => ({ url: `http://a.test/p${i}` }));
    const { crawlId } = insertCrawl(db, urls);
    insertCrawl(db, [{ url: 'http://other.test/' }]); // interleaved ids of another crawl
    const warm = new FrontierQueries(db);
    const offsets = [0, 100, 250, 230, 499, 120, 480];
    for (const offset of offsets) warm.urls(crawlId, { offset, limit: 25, withTotal: false });
    db.prepare(`INSERT INTO urls (crawl_id, normalized_key, normalized, url, host, state, depth, priority, enqueued_at_ms) VALUES (?, 'k-new', 'http://a.test/new', 'http://a.test/new', 'a.test', 'pending', 1, 0, 1)`).run(crawlId);
    for (const offset of [...offsets, 495, 237]) {
      const cold = new FrontierQueries(db).urls(crawlId, { offset, limit: 25, withTotal: false });
      expect(warm.urls(crawlId, { offset, limit: 25, withTotal: false }).rows.map((r) => r.id), `offset ${offset}`).toEqual(cold.rows.map((r) => r.id));
    }
  });
});

describe('FrontierQueries.hosts', () => {
  it('counts URLs per host and state, and merges the live politeness state of hosts with work left', () => {
    const { crawlId } = insertCrawl(db, [
      { url: 'http://a.test/' },
      { url: 'http://a.test/1', state: 'pending' },
      { url: 'http://a.test/2', state: 'in_flight' },
      { url: 'http://b.test/', state: 'error' },
      { url: 'http://www.c.test/' },
    ]);
    const page = new FrontierQueries(db).hosts(crawlId, { offset: 0, limit: 10 }, [
      { host: 'a.test', inFlight: 1, nextEligibleAtMs: 5_000, waitingReason: 'politeness delay' },
      { host: 'b.test', inFlight: 0, nextEligibleAtMs: 0, waitingReason: 'robots.txt pending' },
    ]);
    expect(page.total).toBe(3);
    expect(page.rows).toEqual([
      { host: 'a.test', registrableDomain: 'a.test', queued: 1, inFlight: 1, done: 1, errors: 0, nextEligibleAtMs: 5_000, waitingReason: 'politeness delay' },
      { host: 'b.test', registrableDomain: 'b.test', queued: 0, inFlight: 0, done: 0, errors: 1, nextEligibleAtMs: 0, waitingReason: null },
      { host: 'www.c.test', registrableDomain: 'c.test', queued: 0, inFlight: 0, done: 1, errors: 0, nextEligibleAtMs: null, waitingReason: null },
    ]);
    expect(new FrontierQueries(db).hosts(crawlId, { offset: 1, limit: 1, text: 'c.t' }, [])).toMatchObject({ total: 1, rows: [] });
  });
});
