/**
 * `npm run bench`: every benchmark, each printing what it measured and its ratios against peers
 * measured in the same run (`npm run bench -- crawl|url|frontier|renderer` runs one). Benchmarks crawl only servers they start on 127.0.0.1, in closed mode.
 */
import { runCrawlBench } from './crawl';
import { runFrontierBench } from './frontier';
import { runRendererBench } from './renderer';
import { runUrlBench } from './url';

const only = process.argv[2];
if (!only || only === 'crawl') await runCrawlBench();
if (!only || only === 'url') await runUrlBench();
if (!only || only === 'frontier') await runFrontierBench();
if (!only || only === 'renderer') await runRendererBench();
