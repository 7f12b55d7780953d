/**
 * The scheduler's link loop on hostile pages (issue 9, defects 3 and 11): too-long links are
 * refused by url-length before any other work, and links past the per-page cap are counted under
 * max-links-per-page, live and after the crawl, and stored with their page.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_LINKS_PER_PAGE } from '../../engine/parse/parse-html';
import { openDatabase } from '../../engine/store/sqlite/connection';
import { CrawlService } from '../../app/services/crawl-service';
import type { CrawlProgress } from '../../shared/types/crawl';
import { LINK_RULE_CODES } from '../../engine/store/sqlite/link-codes';

const long = (n: number) => `/long/${n}/${'x'.repeat(60 * 1024)}`;
const OVER = 9;
const capPage = `<html><body>${Array.from({ length: MAX_LINKS_PER_PAGE + OVER }, (_, k) => `<a href="/n/${k % 1000}?k=${k}">`).join('')}</body></html>`;

let server: http.Server;
let port = 0;
beforeAll(async () => {
  server = http.createServer((request, response) => {
    if (request.url === '/') response.writeHead(200, { 'content-type': 'text/html' }).end(`<a href="${long(1)}">a</a><a href="${long(2)}">b</a><a href="${long(2)}">again</a><a href="/cap">c</a>`);
    else if (request.url === '/cap') response.writeHead(200, { 'content-type': 'text/html' }).end(capPage);
    else response.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('link refusals on hostile pages', () => {
  it('refuses 60 KB links by url-length (stored cut to 2048) and counts links past the cap, live and after the crawl', async () => {
    const db = openDatabase(':memory:');
    let last: CrawlProgress | null = null;
    const service = new CrawlService(db, {}, { onProgress: (progress) => (last = progress) });
    // Depth 1: the cap page's own links are refused by max-depth, not fetched.
    const { crawlId, done } = service.start(['http://hostile.test/'], { hostOverrides: [{ host: 'hostile.test', address: '127.0.0.1', port }], closedResolver: true, delayFactor: 0, maxDepth: 1 });
    await done;
    expect(last!.refusedByRule['url-length']).toBe(2);
    expect(last!.refusedByRule['max-links-per-page']).toBe(OVER);
    expect(service.progress(crawlId).refusedByRule['max-links-per-page']).toBe(OVER);
    const raw = db.prepare(`SELECT raw_url FROM links WHERE refused_by = ${LINK_RULE_CODES['url-length']} ORDER BY raw_url`).pluck().all() as string[];
    expect(raw.map((url) => url.length)).toEqual([2048, 2048]);
    expect(db.prepare(`SELECT links_over_cap FROM pages p JOIN urls u ON u.id = p.url_id WHERE u.url = 'http://hostile.test/cap'`).pluck().get()).toBe(OVER);
    db.close();
  });
});
