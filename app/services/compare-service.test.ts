import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Database } from 'better-sqlite3';
import { openDatabase } from '../../engine/store/sqlite/connection';
import { insertCrawl } from '../../engine/store/sqlite/queries/test-rows';
import type { RowPage } from '../../shared/types/crawl';
import type { ChangeRow, ComparisonSummary } from '../../shared/types/comparison';
import type { Result } from '../../shared/types/result';
import { createAppServices, type AppServices } from './app-services';
import { KEPT_COMPARISONS } from './compare-service';

let dir: string;
let dbPath: string;
let copyPath: string;
let services: AppServices;

/** A crawl of a.test whose pages have these titles (path → title), every page answered 200. */
function crawlWithTitles(db: Database, titles: Record<string, string>): number {
  const urls = Object.keys(titles).map((page) => ({ url: `http://a.test${page}` }));
  const { crawlId, ids } = insertCrawl(db, urls);
  const page = db.prepare(`INSERT INTO pages (url_id, crawl_id, final_url, http_status, content_type, body_bytes, fetch_ms, fetched_at_ms, title) VALUES (?, ?, ?, 200, 'text/html', 10, 1, 1, ?)`);
  ids.forEach((id, index) => page.run(id, crawlId, urls[index]!.url, Object.values(titles)[index]));
  return crawlId;
}

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'crawlbench-compare-'));
  dbPath = path.join(dir, 'app.db');
  copyPath = path.join(dir, 'copy.db');
  const db = openDatabase(dbPath);
  // Crawl 1, then crawl 2 of the same site: /gone removed, /new added, /x retitled, / unchanged.
  expect(crawlWithTitles(db, { '/': 'Home', '/x': 'X', '/gone': 'Gone' })).toBe(1);
  expect(crawlWithTitles(db, { '/': 'Home', '/x': 'X, retitled', '/new': 'New' })).toBe(2);
  db.pragma('wal_checkpoint(TRUNCATE)');
  db.close();
  fs.copyFileSync(dbPath, copyPath);
  services = createAppServices({ dbPath, mode: 'browser', version: 'test', closedResolver: true });
});

afterEach(async () => {
  await services.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

async function run(payload: unknown): Promise<ComparisonSummary> {
  const result = (await services.dispatch('compare.run', payload)) as Result<ComparisonSummary>;
  if (!result.ok) throw new Error(`${result.error.code}: ${result.error.message}`);
  return result.value;
}

async function changes(payload: unknown): Promise<RowPage<ChangeRow>> {
  const result = (await services.dispatch('compare.changes', payload)) as Result<RowPage<ChangeRow>>;
  if (!result.ok) throw new Error(`${result.error.code}: ${result.error.message}`);
  return result.value;
}

describe('compare.run and compare.changes over IPC (issue 14 part 7)', () => {
  it('compares two crawls of the open database and pages the changes, filtered by kind and URL', async () => {
    const summary = await run({ beforeCrawlId: 1, afterCrawlId: 2 });
    expect(summary).toMatchObject({ before: { crawlId: 1, file: null, urls: 3 }, after: { crawlId: 2, file: null, urls: 3 }, common: 2, total: 3, rekeyed: false });
    expect(summary.counts).toEqual({ added: 1, removed: 1, status: 0, title: 1, content: 0, 'near-changed': 0, redirect: 0, 'new-error': 0 });

    const all = await changes({ comparisonId: summary.comparisonId, offset: 0, limit: 100 });
    expect(all.total).toBe(3);
    expect(all.rows.map((row) => [row.index, row.kind, row.url])).toEqual([
      [0, 'added', 'http://a.test/new'],
      [1, 'removed', 'http://a.test/gone'],
      [2, 'title', 'http://a.test/x'],
    ]);
    const titles = await changes({ comparisonId: summary.comparisonId, kind: 'title', offset: 0, limit: 10 });
    expect(titles).toMatchObject({ total: 1, rows: [{ index: 2, before: { title: 'X' }, after: { title: 'X, retitled' } }] });
    expect(await changes({ comparisonId: summary.comparisonId, urlContains: 'NEW', offset: 0, limit: 10 })).toMatchObject({ total: 1, rows: [{ kind: 'added' }] });
    // A page of one row past the first: the offset is the filter's.
    expect(await changes({ comparisonId: summary.comparisonId, offset: 1, limit: 1 })).toMatchObject({ total: 3, offset: 1, rows: [{ index: 1, kind: 'removed' }] });
    expect(await changes({ comparisonId: summary.comparisonId, kind: 'redirect', offset: 0, limit: 10 })).toEqual({ rows: [], total: 0, offset: 0 });
  });

  it('compares with a crawl of another database file (its newest unless named), naming the file', async () => {
    const summary = await run({ beforeCrawlId: 1, afterFile: copyPath });
    expect(summary).toMatchObject({ after: { crawlId: 2, file: copyPath }, total: 3 });
    expect((await run({ beforeCrawlId: 2, afterFile: copyPath })).total).toBe(0);
    expect((await run({ beforeCrawlId: 2, afterFile: copyPath, afterCrawlId: 1 })).counts).toMatchObject({ added: 1, removed: 1, title: 1 });
    // The open database named by its path is read through the open handle.
    expect((await run({ beforeCrawlId: 1, afterFile: dbPath })).after).toMatchObject({ crawlId: 2, file: null });
  });

  it('refuses a bad file, a crawl that does not exist and the same crawl twice, with clear codes', async () => {
    const notes = path.join(dir, 'notes.txt');
    fs.writeFileSync(notes, 'not a database, just some text long enough to be read as a header by SQLite '.repeat(10));
    const cases: [unknown, string][] = [
      [{ beforeCrawlId: 1, afterFile: 'copy.db' }, 'COMPARE_FILE_INVALID'],
      [{ beforeCrawlId: 1, afterFile: dir }, 'COMPARE_FILE_INVALID'],
      [{ beforeCrawlId: 1, afterFile: path.join(dir, 'missing.db') }, 'DB_NOT_FOUND'],
      [{ beforeCrawlId: 1, afterFile: notes }, 'NOT_A_CRAWL_DB'],
      [{ beforeCrawlId: 1, afterCrawlId: 1 }, 'NOTHING_TO_COMPARE'],
      [{ beforeCrawlId: 9, afterCrawlId: 1 }, 'CRAWL_NOT_FOUND'],
      [{ beforeCrawlId: 1, afterFile: copyPath, afterCrawlId: 9 }, 'CRAWL_NOT_FOUND'],
      [{ beforeCrawlId: 1 }, 'INVALID_PAYLOAD'],
    ];
    for (const [payload, code] of cases) expect(await services.dispatch('compare.run', payload), JSON.stringify(payload)).toMatchObject({ ok: false, error: { code } });
    // The file named is left as it was.
    expect(fs.readFileSync(notes, 'utf8')).toMatch(/^not a database/);
  });

  it(`keeps the newest ${KEPT_COMPARISONS} comparisons: an older one must be run again`, async () => {
    const first = await run({ beforeCrawlId: 1, afterCrawlId: 2 });
    for (let i = 0; i < KEPT_COMPARISONS; i += 1) await run({ beforeCrawlId: 2, afterCrawlId: 1 });
    expect(await services.dispatch('compare.changes', { comparisonId: first.comparisonId, offset: 0, limit: 10 })).toMatchObject({ ok: false, error: { code: 'COMPARISON_NOT_FOUND' } });
    expect(await services.dispatch('compare.changes', { comparisonId: first.comparisonId + KEPT_COMPARISONS, offset: 0, limit: 10 })).toMatchObject({ ok: true, value: { total: 3 } });
  });
});
