import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixtureOverrides } from './harness';
import { startFixtureServer, type FixtureServer } from '../../testweb/fixture-server';
import { listCheckpoints } from '../../engine/store/sqlite/checkpoints';
import { openDatabase } from '../../engine/store/sqlite/connection';
import type { HousekeepingStats } from '../../engine/schedule/crawl-runner';
import { CrawlService } from '../../app/services/crawl-service';

// slowpages.test's 20 pages are one identical "leaf" under /s/{n}: the trap guard would hold them (near-identical
// pages of one template), so these tests of housekeeping and failures turn it off.
let fixtures: FixtureServer;
let dir: string;
beforeAll(async () => {
  fixtures = await startFixtureServer();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'crawlbench-states-'));
});
afterAll(async () => {
  await fixtures?.stop();
  fs.rmSync(dir, { recursive: true, force: true });
});

const overrides = () => fixtureOverrides(fixtures);
const requestsTo = (host: string, path: string, since: number) => fixtures.requests.slice(since).filter((r) => r.host === host && r.path === path).length;

describe('page states (seed 004)', () => {
  it('"Clear error cache" re-queues error URLs and a resumed crawl tries them again', async () => {
    const db = openDatabase(':memory:');
    const service = new CrawlService(db);
    const { crawlId, done } = service.start(['http://site.test/'], { hostOverrides: overrides(), closedResolver: true, delayFactor: 0 });
    await done;
    expect(service.progress(crawlId).errors).toBe(1);
    const before = fixtures.requests.length;
    expect(service.requeue(crawlId, { errors: true })).toEqual({ errors: 1, refreshed: 0 });
    const again = await service.resume(crawlId).done;
    expect(requestsTo('site.test', '/missing.html', before)).toBe(1);
    expect(requestsTo('site.test', '/a.html', before)).toBe(0);
    // /old (301) and its target /new.html are two fetched URLs.
    expect(again).toMatchObject({ status: 'finished', errors: 1, fetched: 7 });
    db.close();
  });

  it('"refresh older than N" re-queues done pages fetched before now - N', async () => {
    const db = openDatabase(':memory:');
    const service = new CrawlService(db);
    const { crawlId, done } = service.start(['http://site.test/'], { hostOverrides: overrides(), closedResolver: true, delayFactor: 0 });
    await done;
    expect(service.requeue(crawlId, { refreshOlderThanMs: 60_000 })).toEqual({ errors: 0, refreshed: 0 });
    db.prepare(`UPDATE urls SET fetched_at_ms = fetched_at_ms - 120000 WHERE crawl_id = ? AND url = 'http://site.test/a.html'`).run(crawlId);
    expect(service.requeue(crawlId, { refreshOlderThanMs: 60_000 })).toEqual({ errors: 0, refreshed: 1 });
    const before = fixtures.requests.length;
    await service.resume(crawlId).done;
    expect(requestsTo('site.test', '/a.html', before)).toBe(1);
    expect(requestsTo('site.test', '/b.html', before)).toBe(0);
    db.close();
  });

  it('refuses to re-queue a running crawl', async () => {
    const db = openDatabase(':memory:');
    const service = new CrawlService(db);
    const { crawlId, done } = service.start(['http://slowpages.test/'], { hostOverrides: overrides(), closedResolver: true, trapGuard: false });
    expect(() => service.requeue(crawlId, { errors: true })).toThrow(expect.objectContaining({ code: 'CRAWL_RUNNING' }));
    service.stop(crawlId);
    expect((await done).status).toBe('stopped');
    db.close();
  });
});

describe('housekeeping and automatic checkpoints', () => {
  it('reports every second with frontier size and host activity, and checkpoints on a timer keeping the newest three', async () => {
    const file = path.join(dir, 'auto.db');
    const db = openDatabase(file);
    const ticks: HousekeepingStats[] = [];
    const service = new CrawlService(db, { autoCheckpointMs: 400 }, { onHousekeeping: (stats) => ticks.push(stats) });
    const { crawlId, done } = service.start(['http://slowpages.test/'], { hostOverrides: overrides(), closedResolver: true, trapGuard: false, minDelayMs: 100, delayFactor: 0 });
    await done;
    expect(ticks.length).toBeGreaterThanOrEqual(2);
    expect(ticks[0]).toMatchObject({ crawlId, knownHosts: 1 });
    expect(ticks.some((tick) => tick.frontierSize > 0 && tick.activeHosts <= 1)).toBe(true);
    const autos = listCheckpoints(db, crawlId).filter((c) => c.name.startsWith('auto-'));
    expect(autos.length).toBe(3);
    for (const checkpoint of autos) expect(fs.existsSync(checkpoint.file)).toBe(true);
    expect(fs.readdirSync(`${file}.checkpoints`)).toHaveLength(3);
    db.close();
  });
});

describe('a run that cannot go on', () => {
  it('is reported through onFail, leaves the crawl resumable, and whenStopped resolves', async () => {
    const file = path.join(dir, 'fail.db');
    const db = openDatabase(file);
    const failures: { crawlId: number; code: string }[] = [];
    const service = new CrawlService(db, {}, {}, (crawlId, error) => failures.push({ crawlId, code: error.code }));
    const { crawlId, done } = service.start(['http://slowpages.test/'], { hostOverrides: overrides(), closedResolver: true, trapGuard: false, delayFactor: 0 });
    await new Promise((resolve) => setTimeout(resolve, 600));
    db.close(); // the next commit fails
    await expect(done).rejects.toThrow();
    await service.whenStopped(crawlId);
    expect(service.isRunning(crawlId)).toBe(false);
    expect(failures).toEqual([{ crawlId, code: 'INTERNAL' }]);
    // Reopened, the crawl resumes from what was committed and finishes.
    const reopened = openDatabase(file);
    const again = new CrawlService(reopened);
    expect((await again.resume(crawlId).done).status).toBe('finished');
    reopened.close();
  });
});

describe('stored progress', () => {
  it('an interrupted crawl reports the time up to its last fetch, not 0', async () => {
    const db = openDatabase(':memory:');
    const service = new CrawlService(db);
    const { crawlId, done } = service.start(['http://site.test/'], { hostOverrides: overrides(), closedResolver: true, delayFactor: 0 });
    await done;
    // The process died 5 s into its run: the crawl is interrupted and its run has no end (migration 0012).
    db.prepare(`UPDATE crawls SET status = 'interrupted', finished_at_ms = NULL, created_at_ms = created_at_ms - 5000 WHERE id = ?`).run(crawlId);
    db.prepare(`UPDATE crawl_runs SET ended_at_ms = NULL, started_at_ms = started_at_ms - 5000 WHERE crawl_id = ?`).run(crawlId);
    expect(service.progress(crawlId).elapsedMs).toBeGreaterThanOrEqual(5000);
    db.close();
  });
});
