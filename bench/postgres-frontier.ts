/**
 * PostgreSQL frontier benchmark (issue 13): 1,000,000 pending URLs over 500 hosts inserted with
 * generate_series into a throwaway cluster, then claims of the shared frontier (postgres/frontier.ts)
 * timed at that size: rounds of claimBatch(500) (one URL per host, maxInFlightPerHost 1) each
 * followed by one commit of their outcomes, by one process and then by two processes at once.
 * Prints URLs claimed per second of claim time and claimed-and-committed per second of wall time.
 * Run it alone: `node --import tsx bench/postgres-frontier.ts` (needs PostgreSQL's server binaries).
 */
import { pathToFileURL } from 'node:url';
import { DEFAULT_CRAWL_SETTINGS } from '../shared/types/crawl';
import { PostgresCrawlRepository } from '../engine/store/postgres/crawl-repository';
import { createPostgresCrawlStores, type PostgresCrawlStores } from '../engine/store/postgres/crawl-stores';
import { openPostgresStore } from '../engine/store/postgres/pool';
import { postgresUnavailableReason, startPostgres } from '../testweb/postgres';

const TOTAL = 1_000_000;
const HOSTS = 500;
const ROUNDS = 40;

/** Claims and commits `rounds` batches of `max` on `stores`. @returns URLs claimed and ms spent claiming */
async function claimRounds(stores: PostgresCrawlStores, rounds: number, max: number): Promise<{ claimed: number; claimMs: number }> {
  let claimed = 0;
  let claimMs = 0;
  for (let round = 0; round < rounds; round += 1) {
    const started = performance.now();
    const urls = await stores.frontier.claimBatch(max, Date.now());
    claimMs += performance.now() - started;
    claimed += urls.length;
    const nowMs = Date.now();
    await stores.writer.commit({ nowMs, outcomes: urls.map((url) => ({ kind: 'done' as const, url, disposition: { fetchMs: 0, nowMs, httpStatus: 200 } })) });
  }
  return { claimed, claimMs };
}

export async function runPostgresFrontierBench(): Promise<void> {
  const unavailable = postgresUnavailableReason();
  if (unavailable) {
    console.log(`pg-frontier: skipped (${unavailable})`);
    return;
  }
  const cluster = await startPostgres();
  try {
    const store = await openPostgresStore(cluster.url);
    const policy = { maxInFlightPerHost: 1, minDelayMs: 0, maxDelayMs: 0, delayFactor: 0 };
    const settings = { ...DEFAULT_CRAWL_SETTINGS, ...policy };
    const crawlId = await new PostgresCrawlRepository(store).createCrawl(['http://h0.test/'], settings, 0);
    let started = performance.now();
    await store.pool.query(
      `INSERT INTO urls (crawl_id, normalized_key, normalized, url, host, registrable_domain, depth, priority, enqueued_at_ms, sources)
       SELECT $1, 'k' || i, u, u, h, h, 1, 1, 0, 2 FROM generate_series(0, $2 - 1) AS i,
         LATERAL (SELECT 'h' || (i % $3) || '.test' AS h) AS hh, LATERAL (SELECT 'http://' || h || '/page/' || i AS u) AS uu`,
      [crawlId, TOTAL, HOSTS],
    );
    await store.pool.query(`INSERT INTO hosts (crawl_id, host) SELECT $1, 'h' || i || '.test' FROM generate_series(0, $2 - 1) AS i`, [crawlId, HOSTS]);
    await store.pool.query('ANALYZE');
    console.log(`pg-frontier: ${TOTAL.toLocaleString('en')} pending URLs over ${HOSTS} hosts inserted in ${((performance.now() - started) / 1000).toFixed(1)} s`);

    const one = await createPostgresCrawlStores(store, crawlId, settings);
    started = performance.now();
    const alone = await claimRounds(one, ROUNDS, HOSTS);
    const aloneWallS = (performance.now() - started) / 1000;
    console.log(
      `pg-frontier: 1 process, claimBatch(${HOSTS}) × ${ROUNDS}: ${Math.round(alone.claimed / (alone.claimMs / 1000)).toLocaleString('en')} claims/s of claim time ` +
        `(${(alone.claimMs / ROUNDS).toFixed(1)} ms per claim), ${Math.round(alone.claimed / aloneWallS).toLocaleString('en')} URLs/s claimed and committed`,
    );

    const second = await openPostgresStore(cluster.url);
    const two = await createPostgresCrawlStores(second, crawlId, settings);
    started = performance.now();
    const both = await Promise.all([claimRounds(one, ROUNDS, HOSTS / 2), claimRounds(two, ROUNDS, HOSTS / 2)]);
    const bothWallS = (performance.now() - started) / 1000;
    const claimed = both[0].claimed + both[1].claimed;
    const claimMs = both[0].claimMs + both[1].claimMs;
    console.log(
      `pg-frontier: 2 processes, claimBatch(${HOSTS / 2}) × ${ROUNDS} each: ${Math.round(claimed / (claimMs / 1000)).toLocaleString('en')} claims/s of claim time per process, ` +
        `${Math.round(claimed / bothWallS).toLocaleString('en')} URLs/s claimed and committed in all`,
    );
    const { rows } = await store.pool.query<{ deadlocks: number }>(`SELECT deadlocks FROM pg_stat_database WHERE datname = current_database()`);
    console.log(`pg-frontier: deadlocks PostgreSQL broke (each transaction run again): ${rows[0]!.deadlocks}`);
    await one.close();
    await two.close();
    await second.close();
    await store.close();
  } finally {
    await cluster.stop();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await runPostgresFrontierBench();
