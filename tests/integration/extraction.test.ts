/**
 * Issue 14 part 2 end to end: a crawl of the fixture products site with custom extractors stores each
 * product page's price (CSS), SKU (regex) and schema.org fields (JSON-LD and microdata); an edited
 * extractor re-run over the stored bodies replaces the values without a fetch; and the CLI re-runs
 * one over 10,000 stored pages with no server at all, reporting its time.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rerunExtractors } from '../../app/services/extraction-rerun';
import { storedBody } from '../../engine/bodies/stored-body';
import { openDatabase } from '../../engine/store/sqlite/connection';
import type { WritableDB } from '../../engine/store/sqlite/database';
import { insertCrawl } from '../../engine/store/sqlite/queries/test-rows';
import { parseExtractor, type Extractor } from '../../shared/types/extraction';
import { startFixtureServer, type FixtureServer } from '../../testweb/fixture-server';
import { crawlbenchAsync, crawlFixtures } from './harness';

const ex = (text: string): Extractor => {
  const parsed = parseExtractor(text);
  if (!parsed.ok) throw new Error(parsed.error.message);
  return parsed.value;
};

let fixtures: FixtureServer;
let dir: string;
beforeAll(async () => {
  fixtures = await startFixtureServer();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'crawlbench-extract-'));
});
afterAll(async () => {
  await fixtures?.stop();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

function extracted(db: WritableDB, crawlId: number): Record<string, Record<string, unknown>> {
  const rows = db.prepare(`SELECT u.url, e.values_json AS json FROM page_extractions e JOIN urls u ON u.id = e.url_id WHERE u.crawl_id = ? ORDER BY u.url`).all(crawlId) as { url: string; json: string }[];
  return Object.fromEntries(rows.map((row) => [new URL(row.url).pathname, JSON.parse(row.json) as Record<string, unknown>]));
}

describe('custom extraction (issue 14 part 2)', () => {
  it('pulls every product page’s price, SKU and schema.org fields while crawling, and re-runs an edited extractor over the stored bodies without a fetch', async () => {
    const extractors = ['price=css:.price', 'sku=regex:SKU-([0-9]+)', 'brand=schema:Product.brand.name', 'offer=schema:Product.offers.price', 'images:count=css:img'].map(ex);
    const { db, crawlId } = await crawlFixtures(fixtures, ['http://products.test/'], { extractors });
    const values = extracted(db, crawlId);
    expect(values['/p/1']).toEqual({ price: '12.50', sku: '1001', brand: 'Acme', offer: '12.50', images: 1 });
    expect(values['/p/2']).toEqual({ price: '30.00', sku: '1002', brand: 'Brava', offer: '30', images: 0 });
    // Microdata only.
    expect(values['/p/3']).toEqual({ price: '8.99', sku: '1003', brand: 'Lumo', offer: '8.99', images: 0 });
    expect(values['/about']).toEqual({ price: null, sku: null, brand: null, offer: null, images: 0 });

    const requestsBefore = fixtures.requests.length;
    const rerun = rerunExtractors(db, crawlId, ['prices:all=css:.price', 'currency=schema:Product.offers.priceCurrency'].map(ex));
    expect(fixtures.requests.length).toBe(requestsBefore);
    expect(rerun.pages).toBe(5);
    expect(extracted(db, crawlId)['/p/2']).toEqual({ prices: ['30.00', '35.00'], currency: 'EUR' });
    const settings = JSON.parse(db.prepare(`SELECT settings_json FROM crawls WHERE id = ?`).pluck().get(crawlId) as string) as { extractors: Extractor[] };
    expect(settings.extractors.map((e) => e.name)).toEqual(['prices', 'currency']);
    db.close();
  });

  it('refuses a crawl whose selector does not compile before it starts (nothing fetched)', async () => {
    const before = fixtures.requests.length;
    await expect(crawlFixtures(fixtures, ['http://products.test/'], { extractors: [ex('bad=css:p[[')] })).rejects.toMatchObject({ code: 'INVALID_EXTRACTOR' });
    expect(fixtures.requests.length).toBe(before);
  });

  it('re-runs an edited extractor over 10,000 stored pages from the CLI with no server, and reports its time', async () => {
    const file = path.join(dir, 'stored.db');
    const db = openDatabase(file);
    const pages = 10_000;
    const { crawlId, ids } = insertCrawl(db, Array.from({ length: pages }, (_, i) => ({ url: `http://gone.test/p/${i}` })), { extractors: [ex('price=css:.price')] });
    const page = db.prepare(`INSERT INTO pages (url_id, crawl_id, final_url, http_status, content_type, body_bytes, fetch_ms, fetched_at_ms) VALUES (?, ?, ?, 200, 'text/html; charset=utf-8', ?, 1, ?)`);
    const body = db.prepare(`INSERT INTO page_bodies (url_id, encoding, raw_bytes, truncated, payload_digest, body) VALUES (?, ?, ?, 0, ?, ?)`);
    db.transaction(() => {
      ids.forEach((id, i) => {
        const html = Buffer.from(`<html><head><title>P${i}</title></head><body><span class="price">${i}.99</span><span class="sku">SKU-${i}</span>${'<p>filler text for a realistic page</p>'.repeat(40)}</body></html>`);
        const stored = storedBody(html, false, 1 << 20);
        page.run(id, crawlId, `http://gone.test/p/${i}`, html.length, 1_700_000_000_000 + i);
        body.run(id, stored.encoding, stored.rawBytes, stored.payloadDigest, stored.bytes);
      });
    })();
    db.close();
    // gone.test resolves nowhere and no server runs: any fetch would fail.
    const run = await crawlbenchAsync(['extract', '--db', file, '--extract', 'sku=regex:SKU-([0-9]+)', '--extract', 'price:all=css:span.price', '--json']);
    expect(run.status, run.stderr).toBe(0);
    const report = JSON.parse(run.stdout.trim()) as { pages: number; ms: number; extractors: string[] };
    expect(report).toMatchObject({ pages, extractors: ['sku', 'price'] });
    expect(report.ms).toBeGreaterThan(0);
    expect(run.stderr).toMatch(new RegExp(`extracted 2 values from ${pages} pages of crawl ${crawlId} in [0-9.]+ s, no fetch`));
    const check = openDatabase(file, { readonly: true });
    expect(JSON.parse(check.prepare(`SELECT values_json FROM page_extractions WHERE url_id = ?`).pluck().get(ids[4321]) as string)).toEqual({ sku: '4321', price: ['4321.99'] });
    check.close();
    console.log(`extract re-run over ${pages} stored pages: ${report.ms} ms`);
  });
});
