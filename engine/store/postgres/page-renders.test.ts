// JavaScript rendering records in PostgreSQL (issue 14 part 3, schema step 4): a page's render record
// (PageWrite.render) lands in page_renders, apart from its extracted values in page_extractions;
// a later fetch without rendering drops it.
import { afterEach, describe, expect, it } from 'vitest';
import { postgresUnavailableReason } from '../../../testweb/postgres';
import type { RenderRecord } from '../../render/render-record';
import type { PageRow } from '../ports';
import { PostgresCrawlRepository } from './crawl-repository';
import { createPostgresCrawlStores, type PostgresCrawlStores } from './crawl-stores';
import { openPostgresStore, type PostgresStore } from './pool';
import { testSettings, useTestDatabases } from '../../../tests/support/postgres-stores';

const unavailable = postgresUnavailableReason();
if (unavailable) console.log(`PostgreSQL page_renders tests skipped: ${unavailable}`);

const POLICY = { maxInFlightPerHost: 10, minDelayMs: 0, maxDelayMs: 1_000, delayFactor: 0 };
const RECORD: RenderRecord = { reason: 'app-root', renderMs: 512, requests: 2, blockedRequests: 2, skippedRequests: 1, renderedLinks: 3, renderedWords: 12 };

describe.skipIf(unavailable !== null)('PostgreSQL page_renders', () => {
  const postgres = useTestDatabases();
  let pool: PostgresStore | null = null;
  let stores: PostgresCrawlStores | null = null;
  afterEach(async () => {
    stores?.detach();
    await pool?.close();
  });

  it('keeps a rendered page\'s record beside its extracted values, and drops it when the page is fetched again unrendered', async () => {
    pool = await openPostgresStore(await postgres.databases.create());
    const crawlId = await new PostgresCrawlRepository(pool).createCrawl(['http://a.test/'], testSettings(POLICY), 0);
    stores = await createPostgresCrawlStores(pool, crawlId, testSettings(POLICY));
    const url = 'http://a.test/';
    await stores.writer.commit({ nowMs: 0, candidates: [{ url, normalized: url, normalizedKey: url, host: 'a.test', registrableDomain: 'a.test', depth: 0, discoveredFrom: null }] });
    await stores.frontier.refresh();
    const [claimed] = await stores.frontier.claimBatch(1, 0);
    const row: PageRow = { urlId: claimed!.id, finalUrl: url, httpStatus: 200, contentType: 'text/html', bodyBytes: 1, truncated: false, fetchMs: 1, title: null, location: null, fetchedAtMs: 1, fingerprint: null, minhash: null, textChars: null, noindex: false, linksOverCap: 0 };
    await stores.writer.commit({ nowMs: 1, pages: [{ row, text: null, content: null, extracted: { price: '12.50' }, render: RECORD }] });
    const renders = await pool.pool.query(`SELECT reason, render_ms, requests, blocked_requests, skipped_requests, rendered_links, rendered_words, crawl_id FROM page_renders`);
    expect(renders.rows).toEqual([{ reason: 'app-root', render_ms: 512, requests: 2, blocked_requests: 2, skipped_requests: 1, rendered_links: 3, rendered_words: 12, crawl_id: crawlId }]);
    expect((await pool.pool.query(`SELECT values_json FROM page_extractions`)).rows).toEqual([{ values_json: JSON.stringify({ price: '12.50' }) }]);

    await stores.writer.commit({ nowMs: 2, pages: [{ row, text: null, content: null, extracted: null }] });
    expect((await pool.pool.query(`SELECT count(*)::int AS n FROM page_renders`)).rows).toEqual([{ n: 0 }]);
  });
});
