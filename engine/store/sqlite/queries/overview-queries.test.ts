import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { WritableDB } from '../database';
import { openDatabase } from '../connection';
import { OVERVIEW_MAX_DEPTH_BARS, OVERVIEW_TOP_HOSTS } from '../../../../shared/types/overview';
import { insertOverviewCrawl, type OverviewTestUrl } from './overview-fixture';
import { OverviewQueries, RATE_MAX_BUCKETS, rateBucketMs } from './overview-queries';
import { insertLink } from './test-rows';

let db: WritableDB;
beforeEach(() => {
  db = openDatabase(':memory:');
});
afterEach(() => db.close());

const T0 = 1_700_000_000_000;
const html = (fetchMs: number, atMs: number, extra: Partial<NonNullable<OverviewTestUrl['page']>> = {}) => ({ fetchMs, fetchedAtMs: atMs, contentType: 'text/html; charset=utf-8', ...extra });

/** A small crawl: one of each status class, a queued and an in-flight URL. */
const CRAWL: OverviewTestUrl[] = [
  { url: 'http://a.test/', depth: 0, page: html(20, T0, { indexability: 'indexable' }) },
  { url: 'http://a.test/old', depth: 1, from: 0, status: 301, page: html(60, T0 + 500, { contentType: null, indexability: 'non-200' }) },
  { url: 'http://a.test/missing', depth: 1, from: 0, state: 'error', status: 404, errorCode: 'HTTP_404', page: html(120, T0 + 1_200, { contentType: 'Text/HTML' }) },
  { url: 'http://a.test/boom', depth: 2, from: 0, state: 'error', status: 503, errorCode: 'HTTP_503', page: html(6_000, T0 + 3_100, { contentType: 'application/json' }) },
  { url: 'http://a.test/private/x', depth: 2, from: 0, state: 'error', status: null, errorCode: 'ROBOTS_DISALLOWED' },
  { url: 'http://b.test/', depth: 1, from: 0, state: 'error', status: null, errorCode: 'TIMEOUT' },
  { url: 'http://a.test/later', depth: 3, from: 0, state: 'pending', status: null },
  { url: 'http://a.test/now', depth: 3, from: 0, state: 'in_flight', status: null },
];

describe('OverviewQueries.overview', () => {
  it('counts pages per status class, leaving queued and in-flight URLs out of every chart', () => {
    const { crawlId } = insertOverviewCrawl(db, CRAWL);
    const overview = new OverviewQueries(db).overview(crawlId);
    expect(overview.statusClasses).toEqual({ '2xx': 1, '3xx': 1, '4xx': 1, '5xx': 1, blocked: 1, failed: 1 });
    expect(overview.pages).toBe(6);
    expect(overview.queued).toBe(2);
    expect(overview.depths).toEqual([
      { depth: 0, pages: 1 },
      { depth: 1, pages: 3 },
      { depth: 2, pages: 2 },
    ]);
    expect(overview.deeperPages).toBe(0);
  });

  it('buckets response times on the fixed edges, counting only fetched pages', () => {
    const { crawlId } = insertOverviewCrawl(db, CRAWL);
    const buckets = new OverviewQueries(db).overview(crawlId).responseTimes;
    expect(buckets.map((bucket) => [bucket.fromMs, bucket.belowMs, bucket.pages])).toEqual([
      [0, 50, 1],
      [50, 100, 1],
      [100, 250, 1],
      [250, 500, 0],
      [500, 1000, 0],
      [1000, 2000, 0],
      [2000, 5000, 0],
      [5000, null, 1],
    ]);
  });

  it('groups media types without parameters or case, and counts pages without one (failed, blocked, no header) as null', () => {
    const { crawlId } = insertOverviewCrawl(db, CRAWL);
    expect(new OverviewQueries(db).overview(crawlId).contentTypes).toEqual([
      { contentType: null, pages: 3 },
      { contentType: 'text/html', pages: 2 },
      { contentType: 'application/json', pages: 1 },
    ]);
  });

  it('lists indexability verdicts in their order and the rest as not recorded', () => {
    const { crawlId } = insertOverviewCrawl(db, CRAWL);
    expect(new OverviewQueries(db).overview(crawlId).indexability).toEqual([
      { indexability: 'indexable', pages: 1 },
      { indexability: 'non-200', pages: 1 },
      { indexability: null, pages: 4 },
    ]);
  });

  it('names the hosts with most pages and sums the others', () => {
    const urls: OverviewTestUrl[] = [];
    for (let host = 0; host < OVERVIEW_TOP_HOSTS + 3; host += 1) {
      for (let page = 0; page <= host; page += 1) urls.push({ url: `http://h${String(host).padStart(2, '0')}.test/${page}` });
    }
    const { crawlId } = insertOverviewCrawl(db, urls);
    const overview = new OverviewQueries(db).overview(crawlId);
    expect(overview.topHosts).toHaveLength(OVERVIEW_TOP_HOSTS);
    expect(overview.topHosts[0]).toEqual({ host: 'h12.test', pages: 13 });
    expect(overview.otherHosts).toEqual({ hosts: 3, pages: 1 + 2 + 3 });
  });

  it('puts depths from OVERVIEW_MAX_DEPTH_BARS on in one "deeper" count', () => {
    const urls: OverviewTestUrl[] = Array.from({ length: OVERVIEW_MAX_DEPTH_BARS + 5 }, (_, depth) => ({ url: `http://a.test/${depth}`, depth }));
    const { crawlId } = insertOverviewCrawl(db, urls);
    const overview = new OverviewQueries(db).overview(crawlId);
    expect(overview.depths).toHaveLength(OVERVIEW_MAX_DEPTH_BARS);
    expect(overview.deeperPages).toBe(5);
  });

  it('counts refused links per rule, most first, with links past the per-page cap', () => {
    const { crawlId, ids } = insertOverviewCrawl(db, CRAWL.slice(0, 1));
    for (const [raw, rule] of [['x:1', 'protocol'], ['http://c.test/', 'scope'], ['http://d.test/', 'scope']]) insertLink(db, crawlId, { fromUrlId: ids[0]!, rawUrl: raw!, toUrlId: null, refusedBy: rule! });
    db.prepare(`UPDATE pages SET links_over_cap = 4 WHERE url_id = ?`).run(ids[0]);
    expect(new OverviewQueries(db).overview(crawlId).refusedByRule).toEqual([
      { rule: 'max-links-per-page', links: 4 },
      { rule: 'scope', links: 2 },
      { rule: 'protocol', links: 1 },
    ]);
  });

  it('gives pages per time bucket over the whole crawl from the stored fetch times, a pause as empty buckets', () => {
    const { crawlId } = insertOverviewCrawl(db, CRAWL);
    const rate = new OverviewQueries(db).overview(crawlId).rate;
    // Fetches at +0, +0.5 s, +1.2 s and +3.1 s (T0 is a whole second): 1 s buckets, +2 s empty.
    expect(rate.bucketMs).toBe(1_000);
    expect(rate.buckets).toEqual([
      { fromMs: T0, pages: 2 },
      { fromMs: T0 + 1_000, pages: 1 },
      { fromMs: T0 + 2_000, pages: 0 },
      { fromMs: T0 + 3_000, pages: 1 },
    ]);
  });

  it('widens the buckets of a long crawl so there are at most RATE_MAX_BUCKETS', () => {
    const urls: OverviewTestUrl[] = [0, 45 * 60_000, 3 * 3_600_000 + 17].map((offsetMs, index) => ({ url: `http://a.test/${index}`, page: html(10, T0 + offsetMs) }));
    const { crawlId } = insertOverviewCrawl(db, urls);
    const rate = new OverviewQueries(db).overview(crawlId).rate;
    expect(rate.bucketMs).toBe(300_000);
    expect(rate.buckets.length).toBeLessThanOrEqual(RATE_MAX_BUCKETS);
    expect(rate.buckets.reduce((sum, bucket) => sum + bucket.pages, 0)).toBe(3);
    expect(rate.buckets[0]!.fromMs % rate.bucketMs).toBe(0);
  });

  it('gives zeros and empty lists for a crawl without URLs, and keeps crawls apart', () => {
    insertOverviewCrawl(db, CRAWL);
    const { crawlId } = insertOverviewCrawl(db, []);
    const overview = new OverviewQueries(db).overview(crawlId);
    expect(overview.pages).toBe(0);
    expect(overview.statusClasses['2xx']).toBe(0);
    expect(overview.contentTypes).toEqual([]);
    expect(overview.rate.buckets).toEqual([]);
  });
});

describe('rateBucketMs', () => {
  it('takes the smallest step giving at most RATE_MAX_BUCKETS buckets', () => {
    expect(rateBucketMs(0)).toBe(1_000);
    expect(rateBucketMs(59_999)).toBe(1_000);
    expect(rateBucketMs(60_000)).toBe(2_000);
    expect(rateBucketMs(3_600_000)).toBe(120_000);
    expect(rateBucketMs(400 * 86_400_000)).toBe(7 * 86_400_000);
  });
});
