// Crawl rows in a PostgreSQL store (issue 13): create, read, list, settings, status, counts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_CRAWL_SETTINGS } from '../../../shared/types/crawl';
import { postgresUnavailableReason, startPostgres, type PostgresCluster } from '../../../testweb/postgres';
import { PostgresCrawlRepository } from './crawl-repository';
import { openPostgresStore } from './pool';
import { TestDatabases } from '../../../tests/support/postgres-stores';

const unavailable = postgresUnavailableReason();
if (unavailable) console.log(`PostgreSQL crawl repository tests skipped: ${unavailable}`);

describe.skipIf(unavailable !== null)('PostgresCrawlRepository', () => {
  let cluster: PostgresCluster | null = null;
  beforeAll(async () => {
    cluster = await startPostgres();
  }, 60_000);
  afterAll(async () => {
    await cluster?.stop();
  });

  it('creates, reads, lists and updates crawls, with URL counts summed over the url_counts shards', async () => {
    const store = await openPostgresStore(await new TestDatabases(cluster!.url).create());
    try {
      const repository = new PostgresCrawlRepository(store);
      await expect(repository.getCrawl(1)).rejects.toMatchObject({ code: 'CRAWL_NOT_FOUND' });
      expect(await repository.newestRunningCrawlId()).toBeNull();
      const first = await repository.createCrawl(['http://a.test/'], DEFAULT_CRAWL_SETTINGS, 1_000);
      const second = await repository.createCrawl(['http://b.test/', 'http://c.test/'], { ...DEFAULT_CRAWL_SETTINGS, maxPages: 50 }, 2_000);
      // URLs written from two connections: two url_counts shards of one crawl.
      const insert = `INSERT INTO urls (crawl_id, normalized_key, normalized, url, host, depth, priority, enqueued_at_ms, state)
                      SELECT $1, 'k' || i || $2, 'u', 'u', 'b.test', 0, 0, 0, $2 FROM generate_series(1, $3) AS i`;
      const a = await store.pool.connect();
      const b = await store.pool.connect();
      try {
        await a.query(insert, [second, 'pending', 3]);
        await b.query(insert, [second, 'done', 2]);
        await b.query(insert, [second, 'in_flight', 1]);
        await a.query(`UPDATE urls SET state = 'error' WHERE crawl_id = $1 AND state = 'done' AND normalized_key = 'k1done'`, [second]);
      } finally {
        a.release();
        b.release();
      }
      expect(await repository.stateCounts(second)).toEqual({ pending: 3, in_flight: 1, done: 1, error: 1, blocked: 0, held: 0 });
      expect(await repository.getCrawl(second)).toMatchObject({ id: second, seeds: ['http://b.test/', 'http://c.test/'], status: 'running', createdAtMs: 2_000, finishedAtMs: null, fetched: 1, queued: 4, errors: 1, blocked: 0, held: 0 });
      expect((await repository.getCrawl(second)).settings.maxPages).toBe(50);
      expect((await repository.listCrawls()).map((crawl) => [crawl.id, crawl.queued])).toEqual([
        [second, 4],
        [first, 0],
      ]);
      expect(await repository.newestRunningCrawlId()).toBe(second);
      await repository.setStatus(second, 'finished', 3_000);
      expect(await repository.newestRunningCrawlId()).toBe(first);
      await repository.setStatus(first, 'stopped', null);
      expect(await repository.newestRunningCrawlId()).toBeNull();
      expect(await repository.newestUnfinishedCrawlId()).toBe(first);
      await repository.setStatus(first, 'finished', 4_000);
      expect(await repository.newestUnfinishedCrawlId()).toBeNull();
      await repository.updateSettings(first, { ...DEFAULT_CRAWL_SETTINGS, maxDepth: 3 });
      expect((await repository.getCrawl(first)).settings.maxDepth).toBe(3);
      expect(await repository.duplicateCount(first)).toBe(0);
    } finally {
      await store.close();
    }
  });
});
