/**
 * Renderer benchmark: the Frontier view over 1,000,000 URLs. Rows are generated straight into a
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

/** Waits (checking every animation frame) until the URL table's first visible row is loaded. @returns ms waited */
async function waitForRow(page: Page, fraction: number | null): Promise<number> {
  const started = performance.now();
  await page.waitForFunction(loadedRowAt, { selector: TABLE, fraction }, { polling: 'raf', timeout: 60_000 });
  return performance.now() - started;
}

/** Scrolls the URL table `pixelsPerFrame` each animation frame for `frames` frames. @returns frame intervals (ms) and rows still loading at the end of each frame */
async function scrollFrames(page: Page, pixelsPerFrame: number, frames: number): Promise<{ intervals: number[]; loadingFrames: number }> {
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
    { selector: TABLE, pixelsPerFrame, frames },
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
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await runRendererBench();
