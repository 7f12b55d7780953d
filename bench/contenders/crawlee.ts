/**
 * Crawlee's CheerioCrawler over the same site, same concurrency, for the crawl benchmark.
 * Usage: node out/bench/crawlee.mjs START_URL CONCURRENCY (bench/crawl.ts bundles it there)
 * Prints {"pages":N,"failed":N} on stdout.
 */
import { CheerioCrawler, Configuration } from '@crawlee/cheerio';

const [startUrl, concurrencyText] = process.argv.slice(2);
if (!startUrl || !concurrencyText) throw new Error('usage: crawlee.ts START_URL CONCURRENCY');
const concurrency = Number(concurrencyText);
let pages = 0;
let failed = 0;
const crawler = new CheerioCrawler(
  {
    minConcurrency: concurrency,
    maxConcurrency: concurrency,
    maxRequestRetries: 0,
    maxRequestsPerMinute: 1_000_000,
    useSessionPool: false,
    async requestHandler({ enqueueLinks }) {
      pages += 1;
      await enqueueLinks({ strategy: 'same-hostname' });
    },
    failedRequestHandler() {
      failed += 1;
    },
  },
  new Configuration({ persistStorage: false, purgeOnStart: true, logLevel: 0 as never }),
);
await crawler.run([startUrl]);
process.stdout.write(`${JSON.stringify({ pages, failed })}\n`);
