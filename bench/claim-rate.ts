/**
 * The PostgreSQL frontier's claim rate (issue 13): a crawl with `urls` pending URLs spread evenly
 * over `hosts` hosts (filled with one generate_series INSERT), then one process claiming batches
 * of `batch` URLs (FrontierStore.claimBatch: the host-fair SKIP LOCKED claim) and releasing each
 * claimed URL's host at once (politeness delay 0), for `seconds` seconds.
 */
import { DEFAULT_CRAWL_SETTINGS } from '../shared/types/crawl';
import { createPostgresCrawlStores, openPostgresStore, PostgresCrawlRepository } from '../engine';

export interface ClaimRate {
  pending: number;
  hosts: number;
  batch: number;
  fillSeconds: number;
  claimsPerSecond: number;
  urlsPerSecond: number;
}

export async function measureClaimRate(storeUrl: string, options: { urls: number; hosts: number; batch: number; seconds: number }): Promise<ClaimRate> {
  const store = await openPostgresStore(storeUrl);
  try {
    const settings = { ...DEFAULT_CRAWL_SETTINGS, minDelayMs: 0, delayFactor: 0, maxInFlightPerHost: 1 };
    const crawlId = await new PostgresCrawlRepository(store).createCrawl(['http://h0.claims.test/'], settings, Date.now());
    const fillStart = performance.now();
    await store.pool.query(
      `INSERT INTO urls (crawl_id, normalized_key, normalized, url, host, registrable_domain, state, depth, priority, enqueued_at_ms)
       SELECT $1, 'http://h' || (i % $3) || '.claims.test/p' || i, 'http://h' || (i % $3) || '.claims.test/p' || i, 'http://h' || (i % $3) || '.claims.test/p' || i,
              'h' || (i % $3) || '.claims.test', 'claims.test', 'pending', 1, 1, 0
       FROM generate_series(1, $2) AS i`,
      [crawlId, options.urls, options.hosts],
    );
    await store.pool.query(`INSERT INTO hosts (crawl_id, host) SELECT $1, 'h' || i || '.claims.test' FROM generate_series(0, $2 - 1) AS i`, [crawlId, options.hosts]);
    await store.pool.query('ANALYZE');
    const fillSeconds = (performance.now() - fillStart) / 1000;
    const stores = await createPostgresCrawlStores(store, crawlId, settings, { role: 'crawl' });
    try {
      let claims = 0;
      let urls = 0;
      const start = performance.now();
      while (performance.now() - start < options.seconds * 1000) {
        const claimed = await stores.frontier.claimBatch(options.batch, Date.now());
        claims += 1;
        urls += claimed.length;
        const nowMs = Date.now();
        for (const url of claimed) stores.frontier.releaseHost(url, { fetchMs: 0, nowMs });
      }
      const elapsed = (performance.now() - start) / 1000;
      return { pending: options.urls, hosts: options.hosts, batch: options.batch, fillSeconds, claimsPerSecond: claims / elapsed, urlsPerSecond: urls / elapsed };
    } finally {
      await stores.close();
    }
  } finally {
    await store.close();
  }
}
