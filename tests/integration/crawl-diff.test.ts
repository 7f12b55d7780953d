/**
 * Issue 14 part 7 end to end: a small site crawled twice into one database file, with three known
 * changes between the crawls (one page retitled, one page gone and no longer linked, one page's
 * text rewritten) and spelling noise on top (the second version links its pages through tracking
 * parameters, an upper-case host with a fragment, a directory index): `crawlbench diff`, run as a
 * real process, reports exactly the three changes, from one file and across two.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CrawlService } from '../../app/services/crawl-service';
import { openDatabase } from '../../engine/store/sqlite/connection';
import { createCheckpoint } from '../../engine/store/sqlite/checkpoints';
import type { CrawlSettings } from '../../shared/types/crawl';
import { html, sendHtml, type Handler } from '../../testweb/fixture-sites';
import { startFixtureServer, type FixtureServer } from '../../testweb/fixture-server';
import { crawlbenchAsync } from './harness';

const HOST = 'diff.test';

/** Which version of the site the server answers with: 1 for the first crawl, 2 for the second. */
let version = 1;

/** ~200 distinct words: a page long enough for its MinHash sketch to mean something. */
const prose = (seed: string): string => Array.from({ length: 200 }, (_, i) => `${seed}${(i * 37) % 199}`).join(' ');

const page =
  (title: () => string, body: () => string): Handler =>
  (_request, response) =>
    sendHtml(response, html(title(), body()));

/**
 * The site. Visible text stays the same wherever nothing is meant to change: the home page's links
 * change spelling only (same anchor text), and the link to /gone.html has no text at all.
 */
const SITE: Record<string, Handler> = {
  '/': page(
    () => 'Home',
    () =>
      version === 1
        ? `<p>${prose('home')}</p><a href="/a.html">A</a> <a href="/b.html">B</a> <a href="/docs/">Docs</a> <a href="/title.html">Pricing</a>
           <a href="/content.html">News</a> <a href="/gone.html"></a>`
        : `<p>${prose('home')}</p><a href="/a.html?utm_source=feed&amp;utm_medium=rss">A</a> <a href="HTTP://DIFF.TEST/b.html#top">B</a>
           <a href="/docs/index.html">Docs</a> <a href="/title.html?fbclid=abc">Pricing</a> <a href="/content.html">News</a>`,
  ),
  '/a.html': page(
    () => 'Page A',
    () => `<p>${prose('alpha')}</p><a href="${version === 1 ? '/' : '/?utm_campaign=spring'}">Home</a>`,
  ),
  '/b.html': page(
    () => 'Page B',
    () => `<p>${prose('beta')}</p><a href="/a.html">A</a>`,
  ),
  '/docs/': page(
    () => 'Docs',
    () => `<p>${prose('docs')}</p>`,
  ),
  '/docs/index.html': page(
    () => 'Docs',
    () => `<p>${prose('docs')}</p>`,
  ),
  '/title.html': page(
    () => (version === 1 ? 'Pricing' : 'Pricing and plans'),
    () => `<p>${prose('price')}</p>`,
  ),
  '/content.html': page(
    () => 'News',
    () => `<p>${version === 1 ? prose('old') : prose('fresh')}</p>`,
  ),
  '/gone.html': (_request, response) => (version === 1 ? sendHtml(response, html('Gone soon', `<p>${prose('gone')}</p>`)) : sendHtml(response, html('Not found', 'No such page'), 404)),
};

interface DiffJson {
  before: { db: string; crawlId: number; urls: number };
  after: { db: string; crawlId: number; urls: number };
  rekeyed: boolean;
  common: number;
  counts: Record<string, number>;
  changes: { kind: string; url: string; before: { title: string | null } | null; after: { title: string | null } | null; similarity?: number | null }[];
}

let fixtures: FixtureServer;
let dir: string;
let dbFile: string;
let copyFile: string;

/** Crawls the site at `version` into the database file through the app's CrawlService; returns the crawl id. */
async function crawlVersion(file: string, siteVersion: number): Promise<number> {
  version = siteVersion;
  const db = openDatabase(file);
  try {
    const settings: Partial<CrawlSettings> = { hostOverrides: [{ host: HOST, address: '127.0.0.1', port: fixtures.port }], closedResolver: true, delayFactor: 0 };
    const { crawlId, done } = new CrawlService(db, {}, {}).start([`http://${HOST}/`], settings);
    const summary = await done;
    expect(summary.status).toBe('finished');
    return crawlId;
  } finally {
    db.close();
  }
}

beforeAll(async () => {
  fixtures = await startFixtureServer({ [HOST]: SITE });
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'crawlbench-diff-'));
  dbFile = path.join(dir, 'site.db');
  copyFile = path.join(dir, 'copy.db');
  expect(await crawlVersion(dbFile, 1)).toBe(1);
  expect(await crawlVersion(dbFile, 2)).toBe(2);
  fs.copyFileSync(dbFile, copyFile);
});

afterAll(async () => {
  await fixtures?.stop();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

const THREE_CHANGES = [
  ['removed', `http://${HOST}/gone.html`],
  ['title', `http://${HOST}/title.html?fbclid=abc`],
  ['content', `http://${HOST}/content.html`],
];

describe('crawlbench diff (issue 14 part 7)', () => {
  it('the second crawl met the spelling noise: a join on the fetched URL would see phantom adds and removes', () => {
    const db = openDatabase(dbFile, { readonly: true });
    try {
      const spellings = (crawlId: number) => db.prepare(`SELECT url FROM urls WHERE crawl_id = ? AND state = 'done'`).pluck().all(crawlId) as string[];
      const first = spellings(1);
      const second = spellings(2);
      expect(second).toEqual(expect.arrayContaining([`http://${HOST}/a.html?utm_source=feed&utm_medium=rss`, `http://${HOST}/docs/index.html`, `http://${HOST}/title.html?fbclid=abc`]));
      const onlyInSecond = second.filter((url) => !first.includes(url));
      const onlyInFirst = first.filter((url) => !second.includes(url));
      expect(onlyInSecond.length).toBeGreaterThanOrEqual(3);
      expect(onlyInFirst.length).toBeGreaterThanOrEqual(4);
    } finally {
      db.close();
    }
  });

  it('reports exactly the three changes between the two crawls of one file (--json)', async () => {
    const run = await crawlbenchAsync(['diff', '--db', dbFile, '--json']);
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    const diff = JSON.parse(run.stdout) as DiffJson;
    expect(diff.changes.map((change) => [change.kind, change.url])).toEqual(THREE_CHANGES);
    expect(diff).toMatchObject({ before: { db: dbFile, crawlId: 1 }, after: { db: dbFile, crawlId: 2 }, rekeyed: false });
    expect(diff.counts).toEqual({ added: 0, removed: 1, status: 0, title: 1, content: 1, 'near-changed': 0, redirect: 0, 'new-error': 0 });
    expect(diff.changes[1]).toMatchObject({ before: { title: 'Pricing' }, after: { title: 'Pricing and plans' } });
    expect(diff.changes[2]!.similarity).toBeLessThan(0.5);
    // The same six URLs on both sides but /gone.html.
    expect(diff.common).toBe(diff.before.urls - 1);
    expect(diff.after.urls).toBe(diff.common);
  });

  it('compares across two files, and names crawls of one file by --crawl', async () => {
    const across = await crawlbenchAsync(['diff', '--db', dbFile, '--crawl', '1', '--db', copyFile, '--crawl', '2', '--json']);
    expect(across.status).toBe(0);
    const diff = JSON.parse(across.stdout) as DiffJson;
    expect(diff).toMatchObject({ before: { db: dbFile, crawlId: 1 }, after: { db: copyFile, crawlId: 2 } });
    expect(diff.changes.map((change) => [change.kind, change.url])).toEqual(THREE_CHANGES);
    // Crawl 2 of one file against crawl 2 of its copy: nothing changed.
    const same = JSON.parse((await crawlbenchAsync(['diff', '--db', dbFile, '--db', copyFile, '--json'])).stdout) as DiffJson;
    expect(same.changes).toEqual([]);
    // --crawl 2 --crawl 1 of one file: the other way round, the page is added.
    const reverse = JSON.parse((await crawlbenchAsync(['diff', '--db', dbFile, '--crawl', '2', '--crawl', '1', '--json'])).stdout) as DiffJson;
    expect(reverse.changes.map((change) => [change.kind, change.url])).toEqual([
      ['added', `http://${HOST}/gone.html`],
      ['title', `http://${HOST}/title.html`],
      ['content', `http://${HOST}/content.html`],
    ]);
  });

  it('prints counts per kind and up to --limit URLs per kind', async () => {
    const run = await crawlbenchAsync(['diff', '--db', dbFile]);
    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(/^before: crawl 1 of /);
    expect(run.stdout).toMatch(/^ {2}removed +1 /m);
    expect(run.stdout).toMatch(/^ {2}added +0 /m);
    expect(run.stdout).toContain(`title (1):\n  http://${HOST}/title.html?fbclid=abc  "Pricing" → "Pricing and plans"`);
    expect(run.stdout).toMatch(new RegExp(`content \\(1\\):\\n {2}http://${HOST}/content\\.html {2}similarity 0\\.\\d\\d`));
    const counts = await crawlbenchAsync(['diff', '--db', dbFile, '--limit', '0']);
    expect(counts.stdout).toContain('3 changes:');
    expect(counts.stdout).not.toContain('title (1):');
  });

  it('compares a crawl with its own checkpoint: --checkpoint NAME against the crawl now', async () => {
    const file = path.join(dir, 'checkpointed.db');
    const crawlId = await crawlVersion(file, 1);
    const db = openDatabase(file);
    try {
      await createCheckpoint(db, crawlId, 'v1');
      // The same crawl fetched again from version 2: every page re-queued, then resumed.
      version = 2;
      const service = new CrawlService(db, {}, {});
      service.requeue(crawlId, { refreshOlderThanMs: 0 });
      expect((await service.resume(crawlId).done).status).toBe('finished');
    } finally {
      db.close();
    }
    const run = await crawlbenchAsync(['diff', '--db', file, '--checkpoint', 'v1', '--json']);
    expect(run.stderr).toBe('');
    const diff = JSON.parse(run.stdout) as DiffJson;
    expect(diff).toMatchObject({ before: { crawlId }, after: { db: file, crawlId } });
    expect(diff.before.db).toMatch(/crawl-1-v1\.db$/);
    expect(diff.changes.map((change) => [change.kind, change.url])).toEqual([
      ['status', `http://${HOST}/gone.html`],
      ['title', `http://${HOST}/title.html`],
      ['content', `http://${HOST}/content.html`],
      ['new-error', `http://${HOST}/gone.html`],
    ]);
    // Named as either side, and refused when there is no such checkpoint.
    const reverse = JSON.parse((await crawlbenchAsync(['diff', '--db', file, '--db', file, '--checkpoint', 'v1', '--json'])).stdout) as DiffJson;
    expect(reverse.before.db).toBe(file);
    expect(reverse.after.db).toMatch(/crawl-1-v1\.db$/);
    const missing = await crawlbenchAsync(['diff', '--db', file, '--checkpoint', 'nope']);
    expect(missing.status).toBe(2);
    expect(missing.stderr).toMatch(/^crawlbench: CHECKPOINT_NOT_FOUND: .*no checkpoint "nope"/);
  });

  it('refuses bad input with one coded line and exit code 2', async () => {
    const cases: [string[], RegExp][] = [
      [['diff'], /^crawlbench: MISSING_FLAG: --db FILE is required/],
      [['diff', '--crawl', '1', '--db', dbFile], /^crawlbench: MISSING_FLAG: --crawl names a crawl of the --db before it/],
      [['diff', '--db', dbFile, '--crawl', '9'], /^crawlbench: CRAWL_NOT_FOUND: /],
      [['diff', '--db', dbFile, '--crawl', '2'], /^crawlbench: NOTHING_TO_COMPARE: Crawl 2 is the newest crawl/],
      [['diff', '--db', dbFile, '--crawl', '1', '--crawl', '1'], /^crawlbench: NOTHING_TO_COMPARE: Both sides are crawl 1/],
      [['diff', '--db', dbFile, '--db', copyFile, '--db', dbFile], /^crawlbench: INVALID_FLAG: diff compares two crawls, and the flags name 3/],
      [['diff', '--db', path.join(dir, 'missing.db')], /^crawlbench: DB_NOT_FOUND: /],
      [['diff', '--db', dbFile, '--limit', '-1'], /^crawlbench: INVALID_FLAG: /],
    ];
    for (const [args, message] of cases) {
      const run = await crawlbenchAsync(args);
      expect(run.status, args.join(' ')).toBe(2);
      expect(run.stderr, args.join(' ')).toMatch(message);
      expect(run.stderr.trim().split('\n'), args.join(' ')).toHaveLength(1);
      expect(run.stdout, args.join(' ')).toBe('');
    }
  });
});
