import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type http from 'node:http';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { html, sendHtml, type Handler } from '../../testweb/fixture-sites';
import { startFixtureServer, type FixtureServer } from '../../testweb/fixture-server';
import { openDatabase } from '../../engine/store/sqlite/connection';
import { CrawlService } from './crawl-service';
import { crawlControlOf, refetchUrl } from './inspector-service';

/** Requests per path, and the /held answers the test releases (they keep the crawl running). */
const hits = new Map<string, number>();
const held: http.ServerResponse[] = [];
const count = (handler: Handler, route: string): Handler => (req, res) => {
  hits.set(route, (hits.get(route) ?? 0) + 1);
  handler(req, res);
};
const SITE: Record<string, Record<string, Handler>> = {
  'refetch.test': {
    '/': count((_req, res) => sendHtml(res, html('Home', '<a href="/a.html">a</a> <a href="/held">held</a>')), '/'),
    '/a.html': count((_req, res) => sendHtml(res, html('A', 'a page')), '/a.html'),
    '/held': count((_req, res) => void held.push(res), '/held'),
  },
};

let server: FixtureServer;
let dir: string;
beforeAll(async () => {
  server = await startFixtureServer(SITE);
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'crawlbench-refetch-'));
});
afterAll(async () => {
  for (const res of held) if (!res.writableEnded) res.end();
  await server?.stop();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('Re-fetch now through the crawl service', () => {
  it('fetches a done URL again in the running crawl, and says plainly when the crawl is not running', async () => {
    const db = openDatabase(path.join(dir, 'crawl.db'));
    const service = new CrawlService(db);
    const { crawlId, done } = service.start(['http://refetch.test/'], {
      hostOverrides: [{ host: 'refetch.test', address: '127.0.0.1', port: server.port }],
      closedResolver: true,
      threads: 2,
      maxInFlightPerHost: 2,
      minDelayMs: 0,
      delayFactor: 0,
    });
    const urlId = (href: string) => db.prepare(`SELECT id FROM urls WHERE crawl_id = ? AND url = ?`).pluck().get(crawlId, href) as number | undefined;
    const stateOf = (href: string) => db.prepare(`SELECT state FROM urls WHERE crawl_id = ? AND url = ?`).pluck().get(crawlId, href) as string | undefined;
    // /a.html is done while /held keeps the crawl running.
    await vi.waitFor(() => expect([stateOf('http://refetch.test/a.html'), held.length]).toEqual(['done', 1]), { timeout: 10_000, interval: 20 });
    const a = urlId('http://refetch.test/a.html')!;
    expect(hits.get('/a.html')).toBe(1);

    expect(await refetchUrl(crawlControlOf(service), crawlId, a, 'http://refetch.test/a.html')).toMatchObject({ outcome: 'queued' });
    await vi.waitFor(() => expect([hits.get('/a.html'), stateOf('http://refetch.test/a.html')]).toEqual([2, 'done']), { timeout: 10_000, interval: 20 });

    held.shift()!.end(html('Held', 'released'));
    const summary = await done;
    expect(summary.status).toBe('finished');
    expect(summary.fetched).toBe(3);
    await expect(service.refetch(crawlId, a)).rejects.toMatchObject({ code: 'CRAWL_NOT_RUNNING' });
    db.close();
  });
});
