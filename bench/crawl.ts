/**
 * Crawl benchmark: the Python docs mirror (nginx on loopback) crawled by Crawlbench's CLI path,
 * beside a fetch-only floor (plain undici GETs of the same URL list, same concurrency).
 * Politeness is off (loopback server): per-host limit = threads, no delay.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { Agent, request } from 'undici';
import { startTestWeb } from '../e2e/testweb';
import { openDatabase } from '../electron/main/db/connection';
import { CrawlService } from '../electron/main/services/crawl-service';

const THREADS = 8;

async function fetchOnlyFloor(urls: string[], port: number): Promise<number> {
  const agent = new Agent({ connect: { lookup: (_host, options, callback) => (options.all ? callback(null, [{ address: '127.0.0.1', family: 4 }]) : callback(null, '127.0.0.1', 4)) } });
  const queue = urls.map((u) => u.replace('docs.python.test', `docs.python.test:${port}`));
  const started = performance.now();
  await Promise.all(
    Array.from({ length: THREADS }, async () => {
      for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
        const response = await request(next, { dispatcher: agent });
        await response.body.arrayBuffer();
      }
    }),
  );
  await agent.close();
  return (performance.now() - started) / 1000;
}

export async function runCrawlBench(): Promise<void> {
  const web = await startTestWeb();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'crawlbench-bench-'));
  try {
    const dbPath = path.join(dir, 'bench.db');
    const db = openDatabase(dbPath);
    const service = new CrawlService(db);
    const rssBefore = process.memoryUsage().rss;
    let peakRss = rssBefore;
    const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 50);
    const started = performance.now();
    const { done } = service.start(['http://docs.python.test/'], {
      threads: THREADS,
      maxInFlightPerHost: THREADS,
      delayFactor: 0,
      minDelayMs: 0,
      hostOverrides: web.overrides,
      closedResolver: true,
    });
    const summary = await done;
    const crawlSeconds = (performance.now() - started) / 1000;
    clearInterval(sampler);
    db.close();
    const reader = new BetterSqlite3(dbPath, { readonly: true });
    const urls = reader.prepare(`SELECT url FROM urls WHERE state IN ('done', 'error') ORDER BY id`).pluck().all() as string[];
    reader.close();
    const floorSeconds = await fetchOnlyFloor(urls, web.nginx.port);
    console.log('crawl benchmark: Python docs mirror on loopback nginx, politeness off (loopback server), threads', THREADS);
    console.log(`  crawlbench   ${summary.fetched} pages  ${crawlSeconds.toFixed(2)} s  ${(summary.fetched / crawlSeconds).toFixed(1)} pages/s  peak RSS ${(peakRss / 1048576).toFixed(0)} MB (main thread + workers)`);
    console.log(`  fetch-only   ${urls.length} GETs   ${floorSeconds.toFixed(2)} s  ${(urls.length / floorSeconds).toFixed(1)} pages/s`);
    console.log(`  ratio        crawlbench time / fetch-only time = ${(crawlSeconds / floorSeconds).toFixed(2)}x (target at most 2x)`);
  } finally {
    await web.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await runCrawlBench();
