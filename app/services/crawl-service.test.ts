import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Database } from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { html, sendHtml, type Handler } from '../../testweb/fixture-sites';
import { startFixtureServer, type FixtureServer } from '../../testweb/fixture-server';
import type { CrawlSettings } from '../../shared/types/crawl';
import { openDatabase } from '../../engine/store/sqlite/connection';
import type { WritableDB } from '../../engine/store/sqlite/database';
import { readLease } from '../../engine/store/sqlite/crawl-lease';
import { CrawlService } from './crawl-service';

/** grid.test: a home page linking 120 pages, each with a paragraph of text and links to three others. */
const PAGES = 120;
/** The grid's pages (not its home) answer once this settles: a test holds them to pause a run mid-crawl. */
let hold: Promise<void> = Promise.resolve();
const GRID: Record<string, Record<string, Handler>> = {
  'grid.test': {
    '/': (_req, res) => sendHtml(res, html('Grid', Array.from({ length: PAGES }, (_, i) => `<a href="/p/${i}">${i}</a>`).join(' '))),
    ...Object.fromEntries(
      Array.from({ length: PAGES }, (_, i): [string, Handler] => [
        `/p/${i}`,
        (_req, res) => void hold.then(() => sendHtml(res, html(`Page ${i}`, `<p>${`page ${i} says something different from page ${i + 1}. `.repeat(40)}</p>${[1, 2, 3].map((k) => `<a href="/p/${(i * 7 + k) % PAGES}">next</a>`).join(' ')}`))),
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
    // SQLite's own SQLITE_FULL: the file may not grow past this many pages (this connection only,
    // so the crawl writes on it: tests/hostile fills a real disk under the store-writer thread).
    const pages = db.pragma('page_count', { simple: true }) as number;
    db.pragma(`max_page_count = ${pages + 12}`);
    const service = new CrawlService(db, { writerThread: false });
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

/**
 * Starts a grid.test crawl and pauses it mid-crawl: the grid's pages are held until the first
 * progress report has asked for the pause, so the run cannot finish first, and the pages then in
 * flight are recorded. The service pauses once only (a resume runs to the end).
 */
async function pausedMidCrawl(db: WritableDB, crawlSettings: Partial<CrawlSettings>): Promise<{ service: CrawlService; crawlId: number }> {
  let release = () => undefined as void;
  hold = new Promise((resolve) => (release = resolve));
  let pauseOnce = true;
  const service: CrawlService = new CrawlService(db, {}, {
    onProgress: (progress) => {
      if (!pauseOnce || progress.fetched < 1) return;
      pauseOnce = false;
      service.pause(progress.crawlId);
      release();
    },
  });
  const { crawlId, done } = service.start(['http://grid.test/'], crawlSettings);
  const { status } = await done;
  hold = Promise.resolve();
  expect(status).toBe('paused');
  return { service, crawlId };
}

describe('CrawlService: a crawl over several runs', () => {
  it('a resumed crawl reports elapsed time and refused links summed over its runs, live and after it ends', async () => {
    const limited = { ...settings(), maxDepth: 1 };
    const reference = openDatabase(path.join(dir, 'runs-reference.db'));
    const referenceService = new CrawlService(reference);
    const first = referenceService.start(['http://grid.test/'], limited);
    await first.done;
    const expectedRefusals = referenceService.progress(first.crawlId).refusedByRule;
    expect(expectedRefusals['max-depth']).toBeGreaterThan(0);
    reference.close();

    const db = openDatabase(path.join(dir, 'runs.db'));
    const { service: paused, crawlId } = await pausedMidCrawl(db, limited);
    const firstRun = paused.progress(crawlId);
    expect(firstRun.fetched, 'the first run stopped mid-crawl').toBeLessThan(PAGES + 1);
    expect(firstRun.refusedByRule['max-depth'], 'the first run refused links').toBeGreaterThan(0);
    // The first run lasted exactly a minute, as stored.
    db.prepare(`UPDATE crawl_runs SET started_at_ms = 1000, ended_at_ms = 61000 WHERE crawl_id = ?`).run(crawlId);
    expect(paused.progress(crawlId).elapsedMs).toBe(60_000);

    const events: { elapsedMs: number; refusedByRule: Record<string, number> }[] = [];
    const resumed = new CrawlService(db, {}, { onProgress: (progress) => events.push(progress) });
    expect((await resumed.resume(crawlId).done).status).toBe('finished');
    expect(events.length).toBeGreaterThan(0);
    expect(events.every((event) => event.elapsedMs >= 60_000)).toBe(true);
    expect(events.at(-1)!.refusedByRule).toEqual(expectedRefusals);
    const runs = db.prepare(`SELECT started_at_ms AS startedAtMs, ended_at_ms AS endedAtMs FROM crawl_runs WHERE crawl_id = ? ORDER BY id`).all(crawlId) as { startedAtMs: number; endedAtMs: number }[];
    expect(runs).toHaveLength(2);
    const progress = resumed.progress(crawlId);
    expect(progress.elapsedMs).toBe(60_000 + runs[1]!.endedAtMs - runs[1]!.startedAtMs);
    expect(progress.refusedByRule).toEqual(expectedRefusals);
    // The pages/s history comes from the stored fetch times, so it survives the resume.
    const history = resumed.rateHistory(crawlId);
    expect(history.length).toBeGreaterThan(0);
    expect(history.some((rate) => rate > 0)).toBe(true);
    db.close();
  });

  it('a crawl from before the runs were recorded keeps its earlier time when resumed', async () => {
    const db = openDatabase(path.join(dir, 'legacy-runs.db'));
    const { service, crawlId } = await pausedMidCrawl(db, settings());
    // As an older Crawlbench left it: no runs, a minute between creation and pause.
    db.prepare(`DELETE FROM crawl_runs`).run();
    db.prepare(`UPDATE crawls SET created_at_ms = 1000, finished_at_ms = 61000 WHERE id = ?`).run(crawlId);
    expect(service.progress(crawlId).elapsedMs).toBe(60_000);
    expect((await service.resume(crawlId).done).status).toBe('finished');
    const last = db.prepare(`SELECT ended_at_ms - started_at_ms FROM crawl_runs WHERE crawl_id = ? ORDER BY id DESC LIMIT 1`).pluck().get(crawlId) as number;
    expect(service.progress(crawlId).elapsedMs).toBe(60_000 + last);
    db.close();
  });

  it('stops a paused crawl without resuming it: it is stopped, still resumable', async () => {
    const db = openDatabase(path.join(dir, 'stop-paused.db'));
    const { service, crawlId } = await pausedMidCrawl(db, settings());
    expect(service.stop(crawlId)).toBe(true);
    expect(service.repositoryForQueries.getCrawl(crawlId).status).toBe('stopped');
    expect(readLease(db)).toBeNull();
    expect(service.stop(crawlId)).toBe(false);
    expect((await service.resume(crawlId).done).status).toBe('finished');
    db.close();
  });
});
