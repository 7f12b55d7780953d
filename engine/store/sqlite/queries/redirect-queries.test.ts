import type { WritableDB } from '../database';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../connection';
import { RedirectQueries } from './redirect-queries';
import { insertCrawl } from './test-rows';
import { insertLink } from './test-rows';

let db: WritableDB;
beforeEach(() => {
  db = openDatabase(':memory:');
});
afterEach(() => db.close());

/** Stores a fetched hop's page row (status, Location, fetch time) and its redirect link. */
function hop(crawlId: number, fromId: number, status: number, location: string, toId: number | null, fetchMs = 5, refusedBy: string | null = null): void {
  db.prepare(`INSERT INTO pages (url_id, crawl_id, final_url, http_status, body_bytes, fetch_ms, fetched_at_ms, location) VALUES (?, ?, ?, ?, 0, ?, 1, ?)`).run(
    fromId,
    crawlId,
    'x',
    status,
    fetchMs,
    location,
  );
  insertLink(db, crawlId, { fromUrlId: fromId, rawUrl: location, toUrlId: toId, kind: 'redirect', refusedBy });
}

describe('RedirectQueries.chain', () => {
  it('follows redirect links hop by hop: url, status, Location and fetch time, ending at the page', () => {
    const { crawlId, ids } = insertCrawl(db, [
      { url: 'http://a.test/1', status: 301 },
      { url: 'http://a.test/2', status: 302 },
      { url: 'http://b.test/final', status: 200 },
    ]);
    hop(crawlId, ids[0]!, 301, 'http://a.test/2', ids[1]!, 7);
    hop(crawlId, ids[1]!, 302, 'http://b.test/final', ids[2]!, 9);
    db.prepare(`INSERT INTO pages (url_id, crawl_id, final_url, http_status, body_bytes, fetch_ms, fetched_at_ms) VALUES (?, ?, 'x', 200, 10, 11, 1)`).run(ids[2], crawlId);
    expect(new RedirectQueries(db).chain(crawlId, ids[0]!)).toEqual([
      { urlId: ids[0], url: 'http://a.test/1', state: 'done', status: 301, location: 'http://a.test/2', fetchMs: 7, errorCode: null, refusedBy: null },
      { urlId: ids[1], url: 'http://a.test/2', state: 'done', status: 302, location: 'http://b.test/final', fetchMs: 9, errorCode: null, refusedBy: null },
      { urlId: ids[2], url: 'http://b.test/final', state: 'done', status: 200, location: null, fetchMs: 11, errorCode: null, refusedBy: null },
    ]);
    // From the middle of the chain.
    expect(new RedirectQueries(db).chain(crawlId, ids[1]!).map((h) => h.url)).toEqual(['http://a.test/2', 'http://b.test/final']);
  });

  it('ends at a target never fetched (robots.txt disallows it), at a refused target, and once around a loop', () => {
    const { crawlId, ids } = insertCrawl(db, [
      { url: 'http://a.test/r', status: 302 },
      { url: 'http://a.test/private', state: 'error' },
      { url: 'http://a.test/off', status: 301 },
      { url: 'http://a.test/loop/a', status: 301 },
      { url: 'http://a.test/loop/b', state: 'error', status: 301 },
    ]);
    db.prepare(`UPDATE urls SET error_code = 'ROBOTS_DISALLOWED' WHERE id = ?`).run(ids[1]);
    db.prepare(`UPDATE urls SET error_code = 'REDIRECT_LOOP' WHERE id = ?`).run(ids[4]);
    hop(crawlId, ids[0]!, 302, 'http://a.test/private', ids[1]!);
    hop(crawlId, ids[2]!, 301, 'http://other.test/', null, 5, 'scope');
    hop(crawlId, ids[3]!, 301, 'http://a.test/loop/b', ids[4]!);
    hop(crawlId, ids[4]!, 301, 'http://a.test/loop/a', ids[3]!);
    const queries = new RedirectQueries(db);
    expect(queries.chain(crawlId, ids[0]!).map((h) => [h.url, h.status, h.errorCode])).toEqual([
      ['http://a.test/r', 302, null],
      ['http://a.test/private', null, 'ROBOTS_DISALLOWED'],
    ]);
    expect(queries.chain(crawlId, ids[2]!).at(-1)).toEqual({ urlId: null, url: 'http://other.test/', state: null, status: null, location: null, fetchMs: null, errorCode: null, refusedBy: 'scope' });
    expect(queries.chain(crawlId, ids[3]!).map((h) => [h.url, h.errorCode])).toEqual([
      ['http://a.test/loop/a', null],
      ['http://a.test/loop/b', 'REDIRECT_LOOP'],
    ]);
    expect(queries.chain(crawlId, 9999)).toEqual([]);
  });
});
