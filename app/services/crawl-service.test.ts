import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Database } from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { html, sendHtml, type Handler } from '../../testweb/fixture-sites';
import { startFixtureServer, type FixtureServer } from '../../testweb/fixture-server';
import type { CrawlSettings } from '../../shared/types/crawl';
import { openDatabase } from '../../engine/store/sqlite/connection';
import { readLease } from '../../engine/store/sqlite/crawl-lease';
import { CrawlService } from './crawl-service';

/** grid.test: a home page linking 120 pages, each with a paragraph of text and links to three others. */
const PAGES = 120;
const GRID: Record<string, Record<string, Handler>> = {
  'grid.test': {
    '/': (_req, res) => sendHtml(res, html('Grid', Array.from({ length: PAGES }, (_, i) => `<a href="/p/${i}">${i}</a>`).join(' '))),
    ...Object.fromEntries(
      Array.from({ length: PAGES }, (_, i): [string, Handler] => [
        `/p/${i}`,
        (_req, res) => sendHtml(res, html(`Page ${i}`, `<p>${`page ${i} says something different from page ${i + 1}. `.repeat(40)}</p>${[1, 2, 3].map((k) => `<a href="/p/${(i * 7 + k) % PAGES}">next</a>`).join(' ')}`)),
      ]),
    ),
  },
};

let server: FixtureServer;
let dir: string;
beforeAll(async () => {
  server = await startFixtureServer(GRID);
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'crawlbench-service-'));
});
afterAll(async () => {
  await server?.stop();
  fs.rmSync(dir, { recursive: true, force: true });
});

const settings = (): Partial<CrawlSettings> => ({
  hostOverrides: [{ host: 'grid.test', address: '127.0.0.1', port: server.port }],
  closedResolver: true,
  threads: 4,
  maxInFlightPerHost: 4,
  minDelayMs: 0,
  delayFactor: 0,
});
const doneUrls = (db: Database): string[] => db.prepare(`SELECT url FROM urls WHERE state = 'done' ORDER BY url`).pluck().all() as string[];

describe('CrawlService on a full disk', () => {
  it('a write refused with SQLITE_FULL (in a claim, a commit or robots bookkeeping) ends the crawl interrupted with DISK_FULL; resumed with room, it completes with nothing lost', async () => {
    const reference = openDatabase(path.join(dir, 'reference.db'));
    await new CrawlService(reference).start(['http://grid.test/'], settings()).done;
    const expected = doneUrls(reference);
    expect(expected).toHaveLength(PAGES + 1);
    reference.close();

    const file = path.join(dir, 'full.db');
    const db = openDatabase(file);
    // SQLite's own SQLITE_FULL: the file may not grow past this many pages (this connection only).
    const pages = db.pragma('page_count', { simple: true }) as number;
    db.pragma(`max_page_count = ${pages + 12}`);
    const service = new CrawlService(db);
    const { crawlId, done } = service.start(['http://grid.test/'], settings());
    const error = await done.then(
      () => null,
      (failure: unknown) => failure as { code?: string; message?: string },
    );
    expect(error?.code).toBe('DISK_FULL');
    expect(error?.message).toMatch(/^the disk is full \(SQLITE_FULL\) writing .*full\.db; the crawl is interrupted and nothing committed is lost: free some space, then resume it/);
    expect(service.repositoryForQueries.getCrawl(crawlId).status).toBe('interrupted');
    expect(doneUrls(db).length).toBeLessThan(expected.length);
    expect(readLease(db)).toBeNull();

    db.pragma('max_page_count = 1073741823');
    const summary = await new CrawlService(db).resume(crawlId).done;
    expect(summary.status).toBe('finished');
    expect(doneUrls(db)).toEqual(expected);
    db.close();
  });
});

describe('CrawlService: a write refused outside the commit path', () => {
  it('a claim refused by the database ends the run interrupted (rejecting done), never as an uncaught exception', async () => {
    const db = openDatabase(path.join(dir, 'claim.db'));
    // Refuses claiming once five pages are done: the refusal comes from the claim transaction, not a commit.
    db.exec(`CREATE TRIGGER refuse_claim BEFORE UPDATE OF state ON urls WHEN NEW.state = 'in_flight' AND (SELECT COUNT(*) FROM urls WHERE state = 'done') >= 5
             BEGIN SELECT RAISE(FAIL, 'claim refused'); END`);
    const service = new CrawlService(db);
    const { crawlId, done } = service.start(['http://grid.test/'], { ...settings(), threads: 1, maxInFlightPerHost: 1 });
    await expect(done).rejects.toThrow('claim refused');
    expect(service.repositoryForQueries.getCrawl(crawlId).status).toBe('interrupted');
    expect(readLease(db)).toBeNull();
    db.exec(`DROP TRIGGER refuse_claim`);
    expect((await new CrawlService(db).resume(crawlId).done).status).toBe('finished');
    db.close();
  });
});
