import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../../engine/store/sqlite/connection';
import { procStartOf } from '../../engine/store/sqlite/crawl-lease';
import { insertCrawl } from '../../engine/store/sqlite/queries/test-rows';
import { createAppServices, type AppServices } from './app-services';
import { value, settled } from '../../tests/support/app-services';

let dir: string;
let dbPath: string;
const open: AppServices[] = [];

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'crawlbench-app-'));
  dbPath = path.join(dir, 'app.db');
});
afterEach(async () => {
  for (const services of open.splice(0)) await services.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

function start(): AppServices {
  const services = createAppServices({ dbPath, mode: 'browser', version: 'test', closedResolver: true });
  open.push(services);
  return services;
}



/** A crawl left `running` by a process that died: 2 pages done, 1 pending, 1 in flight. */
function seedDeadCrawl(): number {
  const db = openDatabase(dbPath);
  const { crawlId } = insertCrawl(db, [{ url: 'http://nowhere.test/' }, { url: 'http://nowhere.test/a' }, { url: 'http://nowhere.test/b', state: 'pending' }, { url: 'http://nowhere.test/c', state: 'in_flight' }]);
  db.prepare(`UPDATE crawls SET status = 'running' WHERE id = ?`).run(crawlId);
  db.close();
  return crawlId;
}

describe('createAppServices: after an unclean exit', () => {
  it('offers the crawl left running, with its pages done and queued; Discard keeps it interrupted with its data', async () => {
    const crawlId = seedDeadCrawl();
    const services = start();
    expect(value(await services.dispatch('crawl.getRecovery', {}))).toMatchObject({ crawlId, seeds: ['http://nowhere.test/'], pagesDone: 2, queued: 2 });
    expect(services.crawls.repositoryForQueries.getCrawl(crawlId).status).toBe('interrupted');
    expect(value(await services.dispatch('crawl.discardRecovery', { crawlId }))).toEqual({ discarded: true });
    expect(value(await services.dispatch('crawl.getRecovery', {}))).toBeNull();
    expect(services.crawls.repositoryForQueries.getCrawl(crawlId)).toMatchObject({ status: 'interrupted', fetched: 2, queued: 2 });
    await services.close();
    open.length = 0;
    // The next launch finds nothing left running: no offer.
    expect(value(await start().dispatch('crawl.getRecovery', {}))).toBeNull();
  });

  it('Resume continues the crawl and ends the offer', async () => {
    const crawlId = seedDeadCrawl();
    const services = start();
    expect(value(await services.dispatch('crawl.resume', { crawlId }))).toEqual({ crawlId });
    expect(value(await services.dispatch('crawl.getRecovery', {}))).toBeNull();
    await settled(services, crawlId);
    // nowhere.test is refused (closed resolver): the two unfinished URLs end as errors, none is left.
    expect(services.crawls.repositoryForQueries.stateCounts(crawlId)).toEqual({ pending: 0, in_flight: 0, done: 2, error: 2, blocked: 0, held: 0 });
  });
});

describe('createAppServices: a crawl another live process runs', () => {
  it('is neither marked interrupted nor offered at start; starting, resuming or rolling back answers DB_BUSY; once that process is dead it is offered', async () => {
    const crawlId = seedDeadCrawl();
    const other = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
    await new Promise((resolve) => other.once('spawn', resolve));
    try {
      const db = openDatabase(dbPath);
      db.prepare(`INSERT INTO crawl_lease (id, owner_id, pid, hostname, proc_start, crawl_id, acquired_at_ms, heartbeat_ms) VALUES (1, 'other', ?, ?, ?, ?, ?, ?)`).run(
        other.pid,
        os.hostname(),
        procStartOf(other.pid!),
        crawlId,
        Date.now(),
        Date.now(),
      );
      db.close();
      const services = start();
      expect(value(await services.dispatch('crawl.getRecovery', {}))).toBeNull();
      expect(services.crawls.repositoryForQueries.getCrawl(crawlId).status).toBe('running');
      const busy = { ok: false, error: { code: 'DB_BUSY', message: `crawl ${crawlId} is being run by pid ${other.pid} (stop it, or wait for it to finish)` } };
      expect(await services.dispatch('crawl.resume', { crawlId })).toMatchObject(busy);
      expect(await services.dispatch('crawl.start', { seeds: ['http://nowhere.test/'] })).toMatchObject({ ok: false, error: { code: 'DB_BUSY' } });
      value(await services.dispatch('checkpoints.create', { crawlId, name: 'cp' }));
      expect(await services.dispatch('checkpoints.resume', { crawlId, name: 'cp' })).toMatchObject({ ok: false, error: { code: 'DB_BUSY' } });
      // Readers keep working alongside.
      expect(value<unknown[]>(await services.dispatch('crawl.list', {}))).toHaveLength(1);
      await services.close();
      open.length = 0;
    } finally {
      other.kill('SIGKILL');
      await new Promise((resolve) => other.once('exit', resolve));
    }
    const next = start();
    expect(value(await next.dispatch('crawl.getRecovery', {}))).toMatchObject({ crawlId });
  });
});

describe('createAppServices: settings', () => {
  it('saved Settings apply to the next crawl and to the crawl form defaults; the started crawl becomes the last open one', async () => {
    const services = start();
    value(await services.dispatch('settings.update', { ignoredExtensions: 'pdf|zip', tld: { mode: 'seed', generic: ['com'], additional: ['co.uk'] } }));
    const info = value<{ defaultSettings: { ignoredExtensions: string }; lastOpenCrawlId: number | null }>(await services.dispatch('app.getInfo', {}));
    expect(info.defaultSettings.ignoredExtensions).toBe('pdf|zip');
    expect(info.lastOpenCrawlId).toBeNull();
    const { crawlId } = value<{ crawlId: number }>(await services.dispatch('crawl.start', { seeds: ['http://nowhere.test/'], settings: { threads: 1 } }));
    await settled(services, crawlId);
    expect(services.crawls.repositoryForQueries.getCrawl(crawlId).settings).toMatchObject({ threads: 1, ignoredExtensions: 'pdf|zip', tld: { mode: 'seed', additional: ['co.uk'] } });
    expect(value<{ lastOpenCrawlId: number }>(await services.dispatch('app.getInfo', {})).lastOpenCrawlId).toBe(crawlId);
  });
});

describe('createAppServices: resume from checkpoint', () => {
  it('rolls the database back to the checkpoint, keeps later settings and the checkpoint list, answers BUSY meanwhile, then resumes', async () => {
    const db = openDatabase(dbPath);
    const { crawlId } = insertCrawl(db, [{ url: 'http://nowhere.test/' }, { url: 'http://nowhere.test/a', state: 'pending' }]);
    db.close();
    const services = start();
    expect(value(await services.dispatch('checkpoints.create', { crawlId, name: 'cp1' }))).toMatchObject({ crawlId, name: 'cp1', pagesDone: 1, frontierSize: 1 });
    // After the checkpoint: a URL is added and a setting saved.
    services.db.prepare(`INSERT INTO urls (crawl_id, normalized_key, normalized, url, host, state, depth, priority, enqueued_at_ms) VALUES (?, 'late', 'http://nowhere.test/late', 'http://nowhere.test/late', 'nowhere.test', 'done', 1, 0, 1)`).run(crawlId);
    value(await services.dispatch('settings.update', { ignoredExtensions: 'pdf' }));
    value(await services.dispatch('checkpoints.create', { crawlId, name: 'cp2' }));

    const resumed = services.dispatch('checkpoints.resume', { crawlId, name: 'cp1' });
    expect(await services.dispatch('crawl.list', {})).toMatchObject({ ok: false, error: { code: 'BUSY' } });
    expect(value(await resumed)).toEqual({ crawlId });
    await settled(services, crawlId);
    const urls = services.db.prepare(`SELECT url FROM urls WHERE crawl_id = ? ORDER BY id`).pluck().all(crawlId);
    expect(urls).toEqual(['http://nowhere.test/', 'http://nowhere.test/a']);
    expect(value<{ ignoredExtensions: string }>(await services.dispatch('settings.get', {})).ignoredExtensions).toBe('pdf');
    expect(value<{ name: string }[]>(await services.dispatch('checkpoints.list', { crawlId })).map((c) => c.name).sort()).toEqual(['cp1', 'cp2']);
    expect(await services.dispatch('checkpoints.resume', { crawlId, name: 'nope' })).toMatchObject({ ok: false, error: { code: 'CHECKPOINT_NOT_FOUND' } });
  });
});

describe('createAppServices: pause and resume', () => {
  it('Resume right after Pause waits for the in-flight fetches instead of failing', async () => {
    const services = start();
    const { crawlId } = value<{ crawlId: number }>(await services.dispatch('crawl.start', { seeds: ['http://nowhere.test/'] }));
    value(await services.dispatch('crawl.pause', { crawlId }));
    expect(value(await services.dispatch('crawl.resume', { crawlId }))).toEqual({ crawlId });
    await settled(services, crawlId);
    expect(await services.dispatch('crawl.resume', { crawlId: 999 })).toMatchObject({ ok: false, error: { code: 'CRAWL_NOT_FOUND' } });
  });
});

describe('createAppServices: Show in folder after an export', () => {
  /** Exports crawl `crawlId`'s frontier to `file` and resolves with the final progress event. */
  async function exportFrontier(services: AppServices, crawlId: number, file: string): Promise<{ exportId: number; state: string }> {
    const finished = new Promise<{ exportId: number; state: string }>((resolve) => {
      const off = services.subscribe((event, payload) => {
        const progress = payload as { exportId: number; state: string };
        if (event === 'export.onDidProgress' && progress.state !== 'running') {
          off();
          resolve(progress);
        }
      });
    });
    value(await services.dispatch('export.start', { crawlId, kind: 'frontier', format: 'csv', file }));
    return finished;
  }

  it('Electron shows the finished file by its export id; browser mode says it cannot', async () => {
    const db = openDatabase(dbPath);
    const { crawlId } = insertCrawl(db, [{ url: 'http://nowhere.test/' }]);
    db.close();
    const shown: string[] = [];
    const electron = createAppServices({ dbPath, mode: 'electron', version: 'test', showItemInFolder: (file) => shown.push(file) });
    open.push(electron);
    const file = path.join(dir, 'frontier.csv');
    const done = await exportFrontier(electron, crawlId, file);
    expect(done.state).toBe('done');
    expect(await electron.dispatch('export.showInFolder', { exportId: done.exportId + 1 })).toMatchObject({ ok: false, error: { code: 'EXPORT_NOT_FOUND' } });
    expect(value(await electron.dispatch('export.showInFolder', { exportId: done.exportId }))).toEqual({ shown: true });
    expect(shown).toEqual([file]);
    await electron.close();
    open.splice(open.indexOf(electron), 1);

    const browser = start();
    const again = await exportFrontier(browser, crawlId, path.join(dir, 'frontier-2.csv'));
    expect(await browser.dispatch('export.showInFolder', { exportId: again.exportId })).toMatchObject({ ok: false, error: { code: 'NOT_SUPPORTED' } });
  });
});
