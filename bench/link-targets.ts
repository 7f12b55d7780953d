/**
 * Link-target cache benchmark (issue 15, memory): the V8 heap one cached link target takes, and
 * the main thread's cost of a link seen for the first time (a cache miss: normalization, UUIDv5
 * key, identity) and again (a hit), through LinkPipeline.pageLinks with the crawl's identifier.
 * URLs are the synthetic site's (bench/synthetic.ts: `http://hN.synthetic.test/p/M`, 500 hosts),
 * 100 links a page. The bytes calibrate engine/links/link-budget.ts (linkTargetBytes, the
 * cache's byte budget). Heap bytes are read after full GCs (`--expose-gc` set at run time).
 */
import v8 from 'node:v8';
import vm from 'node:vm';
import { createCrawlIdentifier } from '../app/services/url-services';
import { linkTargetBytes } from '../engine/links/link-budget';
import { LinkPipeline } from '../engine/links/link-pipeline';
import type { ClaimedUrl } from '../engine/store/ports';
import type { PageResult } from '../engine/worker/protocol';
import { DEFAULT_CRAWL_SETTINGS } from '../shared/types/crawl';

const TARGETS = 100_000;
const HOSTS = 500;
const LINKS_PER_PAGE = 100;

/** A fresh copy of the synthetic site's i-th URL (a worker's message gives each page new strings). */
const urlAt = (i: number): string => `http://h${i % HOSTS}.synthetic.test/p/${Math.floor(i / HOSTS)}`;

function pageOf(first: number): PageResult {
  const links = Array.from({ length: LINKS_PER_PAGE }, (_, j) => ({ url: urlAt(first + j), kind: 'a' as const }));
  return { links, nofollow: false, unresolvableLinks: 0, linksOverCap: 0 } as unknown as PageResult;
}

export async function runLinkTargetBench(): Promise<void> {
  v8.setFlagsFromString('--expose-gc');
  const gc = vm.runInNewContext('gc') as () => void;
  const links = new LinkPipeline({ settings: { ...DEFAULT_CRAWL_SETTINGS, scope: 'any' }, seeds: ['http://h0.synthetic.test/'], identify: createCrawlIdentifier(), countRefusal: () => undefined });
  const from = { id: 1, url: 'http://h0.synthetic.test/', host: 'h0.synthetic.test', depth: 0, attempts: 0, redirectHops: 0 } as ClaimedUrl;
  // Code warmed and every host's facts cached on other URLs first, so the heap delta is the targets'.
  for (let round = 0; round < 3; round += 1) links.pageLinks(from, { ...pageOf(0), links: Array.from({ length: HOSTS }, (_, h) => ({ url: `http://h${h}.synthetic.test/warm${round}`, kind: 'a' as const })) } as PageResult);
  gc();
  gc();
  const heapBefore = v8.getHeapStatistics().used_heap_size;
  let started = performance.now();
  for (let first = 0; first < TARGETS; first += LINKS_PER_PAGE) links.pageLinks(from, pageOf(first));
  const missUs = ((performance.now() - started) * 1000) / TARGETS;
  gc();
  gc();
  const bytesPerTarget = (v8.getHeapStatistics().used_heap_size - heapBefore) / TARGETS;
  started = performance.now();
  for (let first = 0; first < TARGETS; first += LINKS_PER_PAGE) links.pageLinks(from, pageOf(first));
  const hitUs = ((performance.now() - started) * 1000) / TARGETS;
  const sample = urlAt(TARGETS - 1);
  const estimated = linkTargetBytes(sample, { url: sample, normalized: sample, normalizedKey: '00000000-0000-5000-8000-000000000000', host: '', registrableDomain: null });
  console.log(`link targets: ${TARGETS.toLocaleString('en')} synthetic-site URLs (${HOSTS} hosts, ${sample.length} characters), ${LINKS_PER_PAGE} links a page`);
  console.log(`  heap per cached target ${bytesPerTarget.toFixed(0)} bytes (linkTargetBytes estimates ${estimated}: ratio ${(estimated / bytesPerTarget).toFixed(2)})`);
  console.log(`  main thread per link: first sight ${missUs.toFixed(2)} µs, seen again ${hitUs.toFixed(2)} µs (ratio ${(missUs / hitUs).toFixed(1)}×)`);
}
