/**
 * Frontier scale benchmark (issue 4): 1,000,000 synthetic URLs across 10,000 hosts enqueued into
 * the SQLite frontier in batches, then every URL claimed and completed. Prints enqueue and claim
 * rates and resident memory after 100k and 1M URLs. Target: RSS growth under 200 MB.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { DEFAULT_CRAWL_SETTINGS } from '../shared/types/crawl';
import { openDatabase } from '../engine/store/sqlite/connection';
import { CrawlRepository } from '../engine/store/sqlite/crawl-repository';
import { SqliteFrontier, type FrontierCandidate } from '../engine/store/sqlite/frontier';

const TOTAL = 1_000_000;
const HOSTS = 10_000;
const BATCH = 10_000;

const rssMb = () => process.memoryUsage().rss / 1048576;

export async function runFrontierBench(): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'crawlbench-frontier-'));
  try {
    const db = openDatabase(path.join(dir, 'frontier.db'));
    const crawlId = new CrawlRepository(db).createCrawl(['http://h0.test/'], DEFAULT_CRAWL_SETTINGS, 0);
    const frontier = new SqliteFrontier(db, crawlId, { maxInFlightPerHost: 1, minDelayMs: 0, maxDelayMs: 0, delayFactor: 0 });
    global.gc?.();
    const baseline = rssMb();
    let rssAt100k = 0;
    const enqueueStarted = performance.now();
    for (let start = 0; start < TOTAL; start += BATCH) {
      const batch: FrontierCandidate[] = [];
      for (let i = start; i < start + BATCH; i += 1) {
        const host = `h${i % HOSTS}.test`;
        const url = `http://${host}/page/${i}`;
        batch.push({ url, normalized: url, normalizedKey: `k${i}`, host, registrableDomain: host, depth: 1, discoveredFrom: null });
      }
      db.transaction(() => frontier.add(batch, 0))();
      if (start + BATCH === 100_000) rssAt100k = rssMb();
    }
    const enqueueSeconds = (performance.now() - enqueueStarted) / 1000;
    const rssAfterEnqueue = rssMb();

    const claimStarted = performance.now();
    let claimed = 0;
    let peak = rssAfterEnqueue;
    let now = 1;
    while (claimed < TOTAL) {
      const urls = db.transaction(() => {
        const batch = frontier.claimBatch(1000, now);
        for (const url of batch) frontier.complete(url, { fetchMs: 0, nowMs: now });
        return batch;
      })();
      if (urls.length === 0) now += 1;
      claimed += urls.length;
      if (claimed % 100_000 < 1000) peak = Math.max(peak, rssMb());
    }
    const claimSeconds = (performance.now() - claimStarted) / 1000;
    peak = Math.max(peak, rssMb());
    db.close();
    console.log(`frontier benchmark: ${TOTAL.toLocaleString('en')} URLs across ${HOSTS.toLocaleString('en')} hosts, SQLite on disk`);
    console.log(`  enqueue  ${(TOTAL / enqueueSeconds).toFixed(0)} URLs/s (${enqueueSeconds.toFixed(1)} s)`);
    console.log(`  claim+complete  ${(TOTAL / claimSeconds).toFixed(0)} URLs/s (${claimSeconds.toFixed(1)} s)`);
    console.log(`  RSS  baseline ${baseline.toFixed(0)} MB, after 100k ${rssAt100k.toFixed(0)} MB, after 1M ${rssAfterEnqueue.toFixed(0)} MB, peak while claiming ${peak.toFixed(0)} MB`);
    console.log(`  RSS growth ${(Math.max(rssAfterEnqueue, peak) - baseline).toFixed(0)} MB (target < 200 MB)`);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) await runFrontierBench();
