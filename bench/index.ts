/**
 * `npm run bench`: every benchmark, each printing what it measured and its ratios against peers
 * measured in the same run (`npm run bench -- crawl|url|links|text|frontier|renderer` runs one). Benchmarks crawl only servers they start on 127.0.0.1, in closed mode.
 * `npm run bench -- synthetic [--hosts N --pages N --skip-100k …]` runs the synthetic-site benchmark
 * (bench/synthetic.ts: Crawlbench against wget, Crawlee and two floors, then 100,000 pages alone);
 * it takes many minutes, so it runs only when named. `npm run bench -- scale` (bench/scale.ts, issue 13) runs 1, 2
 * and 4 processes sharing a PostgreSQL crawl against one on SQLite over that site, and the PostgreSQL
 * frontier's claim rate at 1M URLs; it too runs only when named.
 */
import { runCrawlBench } from './crawl';
import { runFrontierBench } from './frontier';
import { runLinkTargetBench } from './link-targets';
import { runPageTextBench } from './page-text';
import { runRendererBench } from './renderer';
import { runScaleBench } from './scale';
import { runSyntheticBench } from './synthetic';
import { runUrlBench } from './url';

const only = process.argv[2];
if (!only || only === 'crawl') await runCrawlBench();
if (!only || only === 'url') await runUrlBench();
if (!only || only === 'links') await runLinkTargetBench();
if (!only || only === 'text') await runPageTextBench();
if (!only || only === 'frontier') await runFrontierBench();
if (!only || only === 'renderer') await runRendererBench();
if (only === 'synthetic') await runSyntheticBench(process.argv.slice(3));
if (only === 'scale') await runScaleBench(process.argv.slice(3));
