/**
 * Renderer benchmark: the Frontier view over 1,000,000 URLs, then the Pages table over 1,000,000
 * pages with 3,000,000 links (time to first rows sorted by Response time and by Inlinks, scroll
 * frame times). Rows are generated straight into a
 * temporary database (one transaction), the workbench is served in browser mode in this process,
 * and Debian's Chromium (playwright-core) measures: time to the first rows of the URL table, frame
 * times while the table scrolls, the time for rows to appear after a jump to the middle and the
 * end, and the renderer's JS heap (target < 300 MB).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Page } from 'playwright-core';
import { DEFAULT_CRAWL_SETTINGS } from '../shared/types/crawl';
import { openDatabase } from '../engine/store/sqlite/connection';
import { LinkCounts } from '../engine/store/sqlite/queries/link-counts';
import { startBrowserServer } from '../server/browser-server';
import { createAppServices } from '../app/services/app-services';
import { appRoot } from '../app/services/resources';
import { CHROMIUM, CHROMIUM_ARGS } from '../e2e/helpers/serve';

const URLS = 1_000_000;
const HOSTS = 500;
const HEAP_TARGET_MB = 300;
const STATES = ['done', 'done', 'done', 'pending', 'pending', 'error', 'in_flight'] as const;

/** Writes crawl 1 with `count` URLs (hosts, states and discovery links varied) and makes it the last open crawl. */
export function generateFrontier(file: string, count = URLS): void {
  const db = openDatabase(file);
  try {
    db.prepare(`INSERT INTO crawls (id, seeds_json, settings_json, status, created_at_ms, finished_at_ms) VALUES (1, ?, ?, 'stopped', ?, ?)`).run(
      JSON.stringify(['http://h0.bench.test/']),
      JSON.stringify(DEFAULT_CRAWL_SETTINGS),
      Date.now() - 3_600_000,
      Date.now(),
    );
    const insert = db.prepare(
      `INSERT INTO urls (id, crawl_id, normalized_key, normalized, url, host, registrable_domain, state, depth, priority, discovered_from, enqueued_at_ms)
       VALUES (?, 1, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    const now = Date.now();
    db.transaction(() => {
      for (let id = 1; id <= count; id += 1) {
        const host = `h${id % HOSTS}.bench.test`;
        const url = `http://${host}/section-${id % 97}/page-${id}.html`;
        const key = `00000000-0000-5000-8000-${id.toString(16).padStart(12, '0')}`;
        insert.run(id, key, url, url, host, 'bench.test', STATES[id % STATES.length], Math.min(12, Math.floor(Math.log2(id))), id, id > 1 ? id >> 1 : null, now);
      }
    })();
    db.prepare(`INSERT OR REPLACE INTO settings (key, value_json, updated_at_ms) VALUES ('ui.lastOpenCrawl', '1', ?)`).run(now);
  } finally {
    db.close();
  }
}

const TABLE = '[role="table"][aria-label="Frontier URLs"]';

/** The little of the DOM the page-side functions use (this file compiles without the DOM library). */
interface BenchElement {
  scrollTop: number;
  scrollHeight: number;
  clientHeight: number;
  textContent: string | null;
  dataset: Record<string, string | undefined>;
  querySelector(selector: string): BenchElement | null;
  querySelectorAll(selector: string): Iterable<BenchElement>;
  getBoundingClientRect(): { top: number; bottom: number };
}
interface BenchGlobal {
  document: BenchElement;
  requestAnimationFrame(callback: (timeMs: number) => void): number;
}

/** Page side: true when the URL table's first visible row is loaded (after an optional jump to `fraction` of its height). */
function loadedRowAt({ selector, fraction }: { selector: string; fraction: number | null }): boolean {
  const { document } = globalThis as unknown as BenchGlobal;
  const body = document.querySelector(`${selector} .table-body`);
  if (!body) return false;
  if (fraction !== null && !body.dataset['jumped']) {
    body.scrollTop = (body.scrollHeight - body.clientHeight) * fraction;
    body.dataset['jumped'] = '1';
    return false;
  }
  const top = body.getBoundingClientRect().top;
  const visible = [...body.querySelectorAll('[role="row"]')].find((row) => row.getBoundingClientRect().bottom > top + 1);
  return Boolean(visible?.querySelector('[role="cell"]')?.textContent?.startsWith('http://'));
}

/** Waits (checking every animation frame) until a table's first visible row is loaded. @returns ms waited */
async function waitForRow(page: Page, fraction: number | null, selector = TABLE): Promise<number> {
  const started = performance.now();
  await page.waitForFunction(loadedRowAt, { selector, fraction }, { polling: 'raf', timeout: 60_000 });
  return performance.now() - started;
}

/** Scrolls a table `pixelsPerFrame` each animation frame for `frames` frames. @returns frame intervals (ms) and rows still loading at the end of each frame */
async function scrollFrames(page: Page, pixelsPerFrame: number, frames: number, selector = TABLE): Promise<{ intervals: number[]; loadingFrames: number }> {
  return page.evaluate(
    async ({ selector, pixelsPerFrame, frames }) => {
      const { document, requestAnimationFrame } = globalThis as unknown as BenchGlobal;
      const body = document.querySelector(`${selector} .table-body`)!;
      const intervals: number[] = [];
      let loadingFrames = 0;
      let last = await new Promise<number>((resolve) => requestAnimationFrame(resolve));
      for (let frame = 0; frame < frames; frame += 1) {
        body.scrollTop += pixelsPerFrame;
        const now = await new Promise<number>((resolve) => requestAnimationFrame(resolve));
        intervals.push(now - last);
        last = now;
        const firstCell = body.querySelector('[role="row"] [role="cell"]');
        if (firstCell?.textContent === '…') loadingFrames += 1;
      }
      return { intervals, loadingFrames };
    },
    { selector, pixelsPerFrame, frames },
  );
}

function stats(values: number[]): { mean: number; p95: number; max: number } {
  const sorted = [...values].sort((a, b) => a - b);
  return {
    mean: values.reduce((sum, value) => sum + value, 0) / Math.max(1, values.length),
    p95: sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.95))] ?? 0,
    max: sorted.at(-1) ?? 0,
  };
}

async function heapMb(page: Page): Promise<{ performanceMemory: number; cdp: number }> {
  const client = await page.context().newCDPSession(page);
  await client.send('HeapProfiler.collectGarbage');
  await client.send('Performance.enable');
  const { metrics } = await client.send('Performance.getMetrics');
  const cdp = (metrics.find((metric) => metric.name === 'JSHeapUsedSize')?.value ?? 0) / 1048576;
  const performanceMemory = (await page.evaluate(() => (performance as unknown as { memory?: { usedJSHeapSize: number } }).memory?.usedJSHeapSize ?? 0)) / 1048576;
  await client.detach();
  return { performanceMemory, cdp };
}

const PAGES = 1_000_000;
const LINKS_PER_PAGE = 3;

/** Facts of the generated Pages crawl the measurements wait for. */
interface PagesFacts {
  maxResponseMs: number;
  maxInlinks: number;
  links: number;
  linkCountSeconds: number;
}

/**
 * Writes crawl 1 with `count` Pages rows straight into a database: nine in ten fetched (200, pages
 * row with a response time and size), the rest 404s and timeouts, and LINKS_PER_PAGE links from
 * each page to targets drawn with a heavy skew (a few pages get most inlinks, as a site's
 * navigation does). Then counts the links once, as the app does while it watches a crawl.
 */
export function generatePages(file: string, count = PAGES): PagesFacts {
  const db = openDatabase(file);
  try {
    const now = Date.now();
    db.prepare(`INSERT INTO crawls (id, seeds_json, settings_json, status, created_at_ms, finished_at_ms) VALUES (1, ?, ?, 'finished', ?, ?)`).run(
      JSON.stringify(['http://h0.bench.test/']),
      JSON.stringify(DEFAULT_CRAWL_SETTINGS),
      now - 3_600_000,
      now,
    );
    const insertUrl = db.prepare(
      `INSERT INTO urls (id, crawl_id, normalized_key, normalized, url, host, registrable_domain, state, depth, priority, discovered_from, enqueued_at_ms, fetched_at_ms, http_status, error_code, error_reason)
       VALUES (?, 1, ?, ?, ?, ?, 'bench.test', ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    const insertPage = db.prepare(
      `INSERT INTO pages (url_id, crawl_id, final_url, http_status, content_type, body_bytes, fetch_ms, title, fetched_at_ms) VALUES (?, 1, ?, ?, 'text/html; charset=utf-8', ?, ?, ?, ?)`,
    );
    const insertLink = db.prepare(`INSERT INTO links (crawl_id, from_url_id, raw_url, to_url_id, kind) VALUES (1, ?, ?, ?, 'a')`);
    let maxResponseMs = 0;
    let random = 12345;
    const next = () => {
      random = (random * 1103515245 + 12345) % 2147483648;
      return random / 2147483648;
    };
    db.transaction(() => {
      for (let id = 1; id <= count; id += 1) {
        const host = `h${id % HOSTS}.bench.test`;
        const url = `http://${host}/section-${id % 97}/page-${id}.html`;
        const key = `00000000-0000-5000-8000-${id.toString(16).padStart(12, '0')}`;
        const kind = id % 20 === 0 ? 'timeout' : id % 20 === 1 ? '404' : 'ok';
        const status = kind === 'ok' ? 200 : kind === '404' ? 404 : null;
        insertUrl.run(id, key, url, url, host, kind === 'ok' ? 'done' : 'error', Math.min(12, Math.floor(Math.log2(id))), id, id > 1 ? id >> 1 : null, now, now - count + id, status,
          kind === 'ok' ? null : kind === '404' ? 'HTTP_404' : 'TIMEOUT', kind === 'ok' ? null : kind === '404' ? `HTTP 404 from ${url}` : 'no answer in 30000 ms');
        if (status !== null) {
          const fetchMs = Math.round(5 + 2000 * next() ** 4);
          maxResponseMs = Math.max(maxResponseMs, fetchMs);
          insertPage.run(id, url, status, 2000 + Math.floor(next() * 200_000), fetchMs, `Page ${id}`, now - count + id);
        }
      }
      for (let from = 1; from <= count; from += 1) {
        for (let k = 0; k < LINKS_PER_PAGE; k += 1) insertLink.run(from, '/x', 1 + Math.floor(count * next() ** 6));
      }
    })();
    db.prepare(`INSERT OR REPLACE INTO settings (key, value_json, updated_at_ms) VALUES ('ui.lastOpenCrawl', '1', ?)`).run(now);
    const started = performance.now();
    new LinkCounts(db).refresh(1);
    const linkCountSeconds = (performance.now() - started) / 1000;
    const maxInlinks = db.prepare(`SELECT MAX(inlinks) FROM link_counts WHERE crawl_id = 1`).pluck().get() as number;
    return { maxResponseMs, maxInlinks, links: count * LINKS_PER_PAGE, linkCountSeconds };
  } finally {
    db.close();
  }
}

const PAGES_TABLE = '[role="table"][aria-label="Pages"]';

/** Page side: true when the table's first visible row is loaded and its cell under `heading` reads `text`. */
function firstRowShows({ selector, heading, text }: { selector: string; heading: string; text: string }): boolean {
  const { document } = globalThis as unknown as BenchGlobal;
  const table = document.querySelector(selector);
  if (!table) return false;
  const headers = [...table.querySelectorAll('[role="columnheader"]')].map((header) => (header.textContent ?? '').replace(/[▲▼]/g, '').trim());
  const index = headers.indexOf(heading);
  const body = table.querySelector('.table-body');
  if (index < 0 || !body) return false;
  const top = body.getBoundingClientRect().top;
  const first = [...body.querySelectorAll('[role="row"]')].find((row) => row.getBoundingClientRect().bottom > top + 1);
  const cells = first ? [...first.querySelectorAll('[role="cell"]')] : [];
  return cells[index]?.textContent === text;
}

/** Clicks a Pages header and waits until the first row shows `text` under it. @returns ms from the click */
async function sortAndWait(page: Page, heading: string, text: string): Promise<number> {
  const clickedAt = performance.now();
  await page.locator(PAGES_TABLE).getByRole('columnheader', { name: heading }).getByRole('button').click();
  await page.waitForFunction(firstRowShows, { selector: PAGES_TABLE, heading, text }, { polling: 'raf', timeout: 60_000 });
  return performance.now() - clickedAt;
}

/**
 * The Pages table over PAGES rows: time to the first rows sorted by Response time and by Inlinks
 * (largest first: the first click on a number column), and scroll frame times in each order.
 * Targets: sorted first rows < 1 s, scroll frames < 20 ms mean.
 */
export async function runPagesBench(rendererDir: string, dir: string, count = PAGES): Promise<void> {
  const dbPath = path.join(dir, 'pages.db');
  const generateStarted = performance.now();
  const facts = generatePages(dbPath, count);
  const generateSeconds = (performance.now() - generateStarted) / 1000;
  const services = createAppServices({ dbPath, mode: 'browser', version: 'bench' });
  const server = await startBrowserServer({ services, rendererDir });
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const openStarted = performance.now();
    await page.goto(server.url);
    // Opening the crawl counts its refused links (CrawlReader.refusalCounts) over every links row.
    await page.getByTestId('open-crawl').waitFor({ timeout: 180_000 });
    const openMs = performance.now() - openStarted;
    const clickedAt = performance.now();
    await page.getByRole('tab', { name: 'Pages', exact: true }).click();
    await waitForRow(page, null, PAGES_TABLE);
    const firstRowsMs = performance.now() - clickedAt;
    const total = await page.getByTestId('pages-total').textContent();
    const byResponseMs = await sortAndWait(page, 'Response time', `${facts.maxResponseMs} ms`);
    const responseScroll = stats((await scrollFrames(page, 280, 240, PAGES_TABLE)).intervals);
    const byInlinksMs = await sortAndWait(page, 'Inlinks', String(facts.maxInlinks));
    const inlinksScroll = await scrollFrames(page, 280, 240, PAGES_TABLE);
    const inlinksStats = stats(inlinksScroll.intervals);
    const fast = await scrollFrames(page, 5600, 240, PAGES_TABLE);
    const fastStats = stats(fast.intervals);
    const verdict = (ok: boolean) => (ok ? 'met' : 'MISSED');
    console.log(
      `renderer benchmark: Pages table over ${count.toLocaleString('en-US')} pages, ${facts.links.toLocaleString('en-US')} links, in Chromium, browser mode (data generated in ${generateSeconds.toFixed(1)} s; link counts from scratch ${facts.linkCountSeconds.toFixed(1)} s)`,
    );
    console.log(`  crawl opened            ${openMs.toFixed(0)} ms after loading the page (the Crawl view, before the Pages tab)`);
    console.log(`  table says              ${total}`);
    console.log(`  first rows (URL order)  ${firstRowsMs.toFixed(0)} ms after clicking the Pages tab`);
    console.log(`  sorted by Response time ${byResponseMs.toFixed(0)} ms from the header click to the slowest page on top; target < 1000 ms: ${verdict(byResponseMs < 1000)}`);
    console.log(`  sorted by Inlinks       ${byInlinksMs.toFixed(0)} ms from the header click to the most linked page on top; target < 1000 ms: ${verdict(byInlinksMs < 1000)}`);
    console.log(`  scroll 10 rows/f        by Response time: frame mean ${responseScroll.mean.toFixed(1)} ms  p95 ${responseScroll.p95.toFixed(1)} ms;  by Inlinks: mean ${inlinksStats.mean.toFixed(1)} ms  p95 ${inlinksStats.p95.toFixed(1)} ms  (${inlinksScroll.loadingFrames}/${inlinksScroll.intervals.length} frames showed a loading row); target mean < 20 ms: ${verdict(Math.max(responseScroll.mean, inlinksStats.mean) < 20)}`);
    console.log(`  scroll 200 rows/f       by Inlinks: frame mean ${fastStats.mean.toFixed(1)} ms  p95 ${fastStats.p95.toFixed(1)} ms  max ${fastStats.max.toFixed(1)} ms  (${fast.loadingFrames}/${fast.intervals.length} frames showed a loading row)`);
  } finally {
    await browser.close();
    await server.close();
    await services.close();
  }
}

/** Runs the renderer benchmark and prints its numbers (or one line saying why it could not run). */
export async function runRendererBench(): Promise<void> {
  const rendererDir = path.join(appRoot(), 'out', 'renderer');
  if (!fs.existsSync(path.join(rendererDir, 'index.html'))) {
    console.log('renderer benchmark did not run: the renderer is not built (run npm run build)');
    return;
  }
  if (!fs.existsSync(CHROMIUM)) {
    console.log(`renderer benchmark did not run: ${CHROMIUM} is missing (apt-get install chromium)`);
    return;
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'crawlbench-renderer-bench-'));
  try {
    await runFrontierViewBench(rendererDir, dir);
    await runPagesBench(rendererDir, dir);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** The Frontier view over URLS URLs: first rows, scroll frames, jumps, DOM rows and JS heap. */
async function runFrontierViewBench(rendererDir: string, dir: string): Promise<void> {
  const dbPath = path.join(dir, 'frontier.db');
  const generateStarted = performance.now();
  generateFrontier(dbPath);
  const generateSeconds = (performance.now() - generateStarted) / 1000;
  const services = createAppServices({ dbPath, mode: 'browser', version: 'bench' });
  const server = await startBrowserServer({ services, rendererDir });
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: [...CHROMIUM_ARGS, '--enable-precise-memory-info'] });
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.goto(server.url);
    await page.getByTestId('open-crawl').waitFor({ timeout: 30_000 });
    const heapBefore = await heapMb(page);

    const clickedAt = performance.now();
    await page.getByRole('tab', { name: 'Frontier', exact: true }).click();
    await waitForRow(page, null);
    const firstRowsMs = performance.now() - clickedAt;
    const total = await page.getByTestId('frontier-total').textContent();

    const slow = await scrollFrames(page, 280, 240); // 10 rows a frame: reading speed
    const fast = await scrollFrames(page, 5600, 240); // 200 rows a frame: dragging the scrollbar
    const middleMs = await waitForRow(page, 0.5);
    await page.evaluate((selector) => {
      const body = (globalThis as unknown as BenchGlobal).document.querySelector(`${selector} .table-body`)!;
      delete body.dataset['jumped'];
    }, TABLE);
    const endMs = await waitForRow(page, 1);
    const domRows = await page.locator(`${TABLE} [role="row"]`).count();
    const heapAfter = await heapMb(page);

    const slowStats = stats(slow.intervals);
    const fastStats = stats(fast.intervals);
    const heap = Math.max(heapAfter.cdp, heapAfter.performanceMemory);
    console.log(`renderer benchmark: Frontier view over ${URLS.toLocaleString('en-US')} URLs (${HOSTS} hosts) in Chromium, browser mode (data generated in ${generateSeconds.toFixed(1)} s)`);
    console.log(`  table says        ${total}`);
    console.log(`  first rows        ${firstRowsMs.toFixed(0)} ms after clicking the Frontier tab`);
    console.log(`  scroll 10 rows/f  frame mean ${slowStats.mean.toFixed(1)} ms  p95 ${slowStats.p95.toFixed(1)} ms  max ${slowStats.max.toFixed(1)} ms  (${slow.loadingFrames}/${slow.intervals.length} frames showed a loading row)`);
    console.log(`  scroll 200 rows/f frame mean ${fastStats.mean.toFixed(1)} ms  p95 ${fastStats.p95.toFixed(1)} ms  max ${fastStats.max.toFixed(1)} ms  (${fast.loadingFrames}/${fast.intervals.length} frames showed a loading row)`);
    console.log(`  jump to middle    rows shown after ${middleMs.toFixed(0)} ms;  jump to end: ${endMs.toFixed(0)} ms`);
    console.log(`  DOM rows          ${domRows} (virtualised)`);
    console.log(
      `  JS heap           ${heapBefore.cdp.toFixed(1)} MB before the Frontier tab, ${heapAfter.cdp.toFixed(1)} MB after scrolling (performance.memory ${heapAfter.performanceMemory.toFixed(1)} MB); target < ${HEAP_TARGET_MB} MB: ${heap < HEAP_TARGET_MB ? 'met' : 'MISSED'}`,
    );
  } finally {
    await browser.close();
    await server.close();
    await services.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await runRendererBench();
