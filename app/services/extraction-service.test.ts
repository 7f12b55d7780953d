import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { storedBody } from '../../engine/bodies/stored-body';
import { openDatabase } from '../../engine/store/sqlite/connection';
import type { WritableDB } from '../../engine/store/sqlite/database';
import { insertCrawl } from '../../engine/store/sqlite/queries/test-rows';
import type { ExtractionProgress } from '../../shared/ipc/views';
import type { RowPage } from '../../shared/types/crawl';
import type { PageListRow } from '../../shared/types/pages';
import type { CodedError, Result } from '../../shared/types/result';
import { createAppServices, type AppServices } from './app-services';
import type { CrawlService } from './crawl-service';
import { ExtractionService, extractorsFromLines } from './extraction-service';

let dir: string;
let dbPath: string;
let services: AppServices;
/** A crawl of 3 stored product pages and one without a stored body, crawled with extractor `price`. */
let crawlId: number;
/** A crawl that kept no bodies. */
let bareCrawlId: number;
let events: ExtractionProgress[];

/** Stores `count` product pages (price `i.99`, SKU `SKU-i`) with their bodies in a new crawl. */
function productCrawl(db: WritableDB, count: number): number {
  const urls = Array.from({ length: count }, (_, i) => ({ url: `http://shop.test/p/${i}` }));
  const { crawlId: id, ids } = insertCrawl(db, urls, { extractors: extractorsFromLines(['price=css:.price']) });
  const page = db.prepare(`INSERT INTO pages (url_id, crawl_id, final_url, http_status, content_type, body_bytes, fetch_ms, fetched_at_ms) VALUES (?, ?, ?, 200, 'text/html; charset=utf-8', ?, 1, ?)`);
  const body = db.prepare(`INSERT INTO page_bodies (url_id, encoding, raw_bytes, truncated, payload_digest, body) VALUES (?, ?, ?, 0, ?, ?)`);
  const values = db.prepare(`INSERT INTO page_extractions (url_id, values_json) VALUES (?, ?)`);
  ids.forEach((urlId, i) => {
    const html = Buffer.from(`<html><head><title>P${i}</title></head><body><span class="price">${i}.99</span> <span class="price">9${i}.00</span><span class="sku">SKU-${i}</span></body></html>`);
    page.run(urlId, id, urls[i]!.url, html.length, 1_700_000_000_000 + i);
    values.run(urlId, JSON.stringify({ price: `${i}.99` }));
    if (i === count - 1) return; // the last page kept no body: its values stay
    const stored = storedBody(html, false, 1 << 20);
    body.run(urlId, stored.encoding, stored.rawBytes, stored.payloadDigest, stored.bytes);
  });
  return id;
}

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'crawlbench-extraction-'));
  dbPath = path.join(dir, 'app.db');
  const db = openDatabase(dbPath);
  crawlId = productCrawl(db, 4);
  bareCrawlId = insertCrawl(db, [{ url: 'http://bare.test/' }]).crawlId;
  db.close();
  services = createAppServices({ dbPath, mode: 'browser', version: 'test', closedResolver: true });
  events = [];
  services.subscribe((event, payload) => {
    if (event === 'extract.onDidProgress') events.push(payload as ExtractionProgress);
  });
});

afterEach(async () => {
  await services.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** The crawl's Pages rows' extracted values by URL. */
async function extractedByUrl(id: number): Promise<Record<string, unknown>> {
  const result = (await services.dispatch('pages.query', { crawlId: id, offset: 0, limit: 100, filter: {}, sort: { column: 'url', direction: 'asc' } })) as Result<RowPage<PageListRow>>;
  if (!result.ok) throw new Error(result.error.message);
  return Object.fromEntries(result.value.rows.map((row) => [row.url, row.extracted]));
}

async function finished(): Promise<ExtractionProgress> {
  await expect.poll(() => events.at(-1)?.state, { timeout: 10_000 }).not.toBe('running');
  return events.at(-1)!;
}

describe('extract.rerun over IPC (issue 14 part 2)', () => {
  it('pages.query carries each row’s extracted values', async () => {
    expect(await extractedByUrl(crawlId)).toEqual({
      'http://shop.test/p/0': { price: '0.99' },
      'http://shop.test/p/1': { price: '1.99' },
      'http://shop.test/p/2': { price: '2.99' },
      'http://shop.test/p/3': { price: '3.99' },
    });
    expect(await extractedByUrl(bareCrawlId)).toEqual({ 'http://bare.test/': null });
  });

  it('re-runs edited extractors over the stored bodies with progress, refusing crawl starts meanwhile, and stores them as the crawl’s', async () => {
    const started = await services.dispatch('extract.rerun', { crawlId, lines: ['prices:all=css:.price', '', '  sku=regex:SKU-([0-9]+)  '] });
    expect(started).toMatchObject({ ok: true, value: { crawlId, state: 'running', total: 3, extractors: ['prices', 'sku'] } });
    // While it runs: no crawl starts or resumes on this database, and no second re-run.
    expect(await services.dispatch('crawl.start', { seeds: ['http://shop.test/'] })).toMatchObject({ ok: false, error: { code: 'EXTRACTION_RUNNING' } });
    expect(await services.dispatch('crawl.resume', { crawlId })).toMatchObject({ ok: false, error: { code: 'EXTRACTION_RUNNING' } });
    expect(await services.dispatch('extract.rerun', { crawlId, lines: [] })).toMatchObject({ ok: false, error: { code: 'EXTRACTION_RUNNING' } });

    const last = await finished();
    expect(last).toMatchObject({ state: 'done', done: 3, total: 3, pages: 3, skipped: 0, error: null });
    expect(events.every((event) => event.rerunId === last.rerunId && event.done <= event.total)).toBe(true);
    expect(await extractedByUrl(crawlId)).toEqual({
      'http://shop.test/p/0': { prices: ['0.99', '90.00'], sku: '0' },
      'http://shop.test/p/1': { prices: ['1.99', '91.00'], sku: '1' },
      'http://shop.test/p/2': { prices: ['2.99', '92.00'], sku: '2' },
      // No stored body: the old values stay.
      'http://shop.test/p/3': { price: '3.99' },
    });
    const opened = await services.dispatch('crawl.open', { crawlId });
    expect(opened).toMatchObject({ ok: true, value: { summary: { settings: { extractors: [{ name: 'prices', mode: 'all' }, { name: 'sku', kind: 'regex' }] } } } });
    // Over: crawls start again (this one is refused for its seed's host only, not for the re-run).
    expect(await services.dispatch('crawl.start', { seeds: ['not a url'] })).toMatchObject({ ok: false, error: { code: 'INVALID_SEED' } });
  });

  it('refuses lines that do not read or compile, a crawl without stored bodies, and an unknown crawl, writing nothing', async () => {
    const cases: [unknown, string, RegExp?][] = [
      [{ crawlId, lines: ['price=css:.price', 'no equals sign'] }, 'INVALID_EXTRACTOR', /^Line 2: "no equals sign": expected NAME/],
      [{ crawlId, lines: ['bad=css:p[['] }, 'INVALID_EXTRACTOR'],
      [{ crawlId, lines: ['a=css:p', 'a=css:h1'] }, 'INVALID_EXTRACTOR', /Two extractors are named "a"/],
      [{ crawlId, lines: Array.from({ length: 33 }, (_, i) => `x${i}=css:p`) }, 'INVALID_EXTRACTOR', /33 extractors, more than 32/],
      [{ crawlId: bareCrawlId, lines: ['price=css:.price'] }, 'NO_STORED_BODIES'],
      [{ crawlId: 99, lines: ['price=css:.price'] }, 'CRAWL_NOT_FOUND'],
    ];
    for (const [payload, code, message] of cases) {
      const result = await services.dispatch('extract.rerun', payload);
      expect(result, JSON.stringify(payload).slice(0, 80)).toMatchObject({ ok: false, error: { code } });
      if (message && !result.ok) expect(result.error.message).toMatch(message);
    }
    expect(events).toEqual([]);
    expect((await extractedByUrl(crawlId))['http://shop.test/p/0']).toEqual({ price: '0.99' });
    // A refused re-run holds nothing: crawls start.
    expect(await services.dispatch('crawl.start', { seeds: ['not a url'] })).toMatchObject({ ok: false, error: { code: 'INVALID_SEED' } });
  });
});

describe('ExtractionService', () => {
  it('does not start beside a crawl running on the database', () => {
    const db = openDatabase(':memory:');
    try {
      const crawls = { runningCrawlIds: () => [5], holdStarts: () => () => undefined } as unknown as CrawlService;
      const service = new ExtractionService(db, crawls, () => undefined);
      expect(() => service.start(1, ['price=css:.price'])).toThrow(expect.objectContaining({ code: 'CRAWL_RUNNING', message: expect.stringMatching(/^Crawl 5 is running on this database: pause or stop it/) }) as CodedError);
    } finally {
      db.close();
    }
  });

  it('writes a batch per step between turns of the event loop, reporting each', async () => {
    const db = openDatabase(path.join(dir, 'steps.db'));
    try {
      const id = productCrawl(db, 7);
      let held = 0;
      const crawls = { runningCrawlIds: () => [], holdStarts: () => (held += 1, () => (held -= 1)) } as unknown as CrawlService;
      const reports: ExtractionProgress[] = [];
      const service = new ExtractionService(db, crawls, (progress) => reports.push(progress), { batchSize: 2, progressIntervalMs: 0 });
      const { progress, done } = service.start(id, ['sku=regex:SKU-([0-9]+)']);
      expect(progress).toMatchObject({ state: 'running', done: 0, total: 6 });
      expect(held).toBe(1);
      expect(service.running).toMatchObject({ crawlId: id });
      expect(await done).toMatchObject({ state: 'done', done: 6, pages: 6 });
      expect(reports.map((report) => report.done)).toEqual([0, 2, 4, 6, 6, 6]);
      expect(held).toBe(0);
      expect(service.running).toBeNull();
    } finally {
      db.close();
    }
  });

  it('reads extractor lines as the crawl form writes them', () => {
    expect(extractorsFromLines(['  price=css:.price ', '', 'images:count=css:img@src'])).toEqual([
      { name: 'price', kind: 'css', expression: '.price', mode: 'first' },
      { name: 'images', kind: 'css', expression: 'img', attribute: 'src', mode: 'count' },
    ]);
    expect(() => extractorsFromLines(['', 'price=xpath://p'])).toThrow(/^Line 2: /);
  });
});
