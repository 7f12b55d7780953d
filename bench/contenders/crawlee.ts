/**
 * Crawlee's CheerioCrawler over the same site, same concurrency, for the crawl benchmarks.
 * Usage: node out/bench/crawlee.mjs START_URL CONCURRENCY [STRATEGY [PROXY_URL]]
 * (bench/crawl.ts and bench/synthetic.ts bundle it there). STRATEGY is enqueueLinks' strategy
 * (default same-hostname; the synthetic web's hosts need same-domain); PROXY_URL sends every
 * request through that HTTP proxy (the synthetic server answers as one).
 * Prints {"pages":N,"failed":N,"cpuSeconds":S} on stdout.
 */
import { CheerioCrawler, Configuration, ProxyConfiguration, type EnqueueStrategy } from '@crawlee/cheerio';

const [startUrl, concurrencyText, strategy = 'same-hostname', proxyUrl] = process.argv.slice(2);
if (!startUrl || !concurrencyText) throw new Error('usage: crawlee.ts START_URL CONCURRENCY [STRATEGY [PROXY_URL]]');
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
    ...(proxyUrl ? { proxyConfiguration: new ProxyConfiguration({ proxyUrls: [proxyUrl] }) } : {}),
    async requestHandler({ enqueueLinks }) {
      pages += 1;
      await enqueueLinks({ strategy: strategy as EnqueueStrategy });
    },
    failedRequestHandler() {
      failed += 1;
    },
  },
  new Configuration({ persistStorage: false, purgeOnStart: true, logLevel: 0 as never }),
);
await crawler.run([startUrl]);
const usage = process.resourceUsage();
process.stdout.write(`${JSON.stringify({ pages, failed, cpuSeconds: (usage.userCPUTime + usage.systemCPUTime) / 1e6 })}\n`);
